package record

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrg/frontmatter"
)

func readSeeds(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/records/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no seed records: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

func TestParseRoundTripKeepsBytes(t *testing.T) {
	for name, b := range readSeeds(t) {
		t.Run(name, func(t *testing.T) {
			d, err := Parse(b)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !bytes.Equal(d.Bytes(), b) {
				t.Fatalf("bytes changed")
			}
		})
	}
}

// diffLines returns the lines of a and b that differ, in order, assuming
// the edit replaced a contiguous block.
func diffLines(a, b []byte) (removed, added []string) {
	al, bl := strings.SplitAfter(string(a), "\n"), strings.SplitAfter(string(b), "\n")
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	return al[p : len(al)-s], bl[p : len(bl)-s]
}

func TestSetChangesOnlyItsLine(t *testing.T) {
	seeds := readSeeds(t)
	ts := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name, file, key string
		set             func(d *Document) (bool, error)
		removed, added  []string
	}{
		{"update time", "decision.md", KeyUpdatedAt,
			func(d *Document) (bool, error) { return d.Set(KeyUpdatedAt, TimeNode(ts), Order(KindDecision)) },
			[]string{"updated_at: 2026-02-11T14:02:00Z\n"}, []string{"updated_at: 2026-04-01T12:00:00Z\n"}},
		{"status", "decision.md", KeyStatus,
			func(d *Document) (bool, error) { return d.Set(KeyStatus, StringNode("replaced"), Order(KindDecision)) },
			[]string{"status: resolved\n"}, []string{"status: replaced\n"}},
		{"insert replaced_by after status", "decision.md", KeyReplacedBy,
			func(d *Document) (bool, error) {
				return d.Set(KeyReplacedBy, StringNode("use-postgres"), Order(KindDecision))
			},
			nil, []string{"replaced_by: use-postgres\n"}},
		{"append a source", "decision.md", KeySources,
			func(d *Document) (bool, error) {
				return d.Set(KeySources, SourcesNode([]Source{
					{SessionID: "0192c3a4-5b6c-7d8e-9f01-23456789abcd", Range: [2]int{12, 48}},
					{SessionID: "s2", Range: [2]int{49, 60}},
				}), nil)
			},
			nil, []string{"  - {session_id: s2, range: [49, 60]}\n"}},
		{"crlf kept", "knowledge-crlf.md", KeyModelInvokation,
			func(d *Document) (bool, error) { return d.Set(KeyModelInvokation, BoolNode(true), nil) },
			[]string{"model_invokation: false\r\n"}, []string{"model_invokation: true\r\n"}},
		{"block scalar replaced whole", "block-scalar.md", KeyDescription,
			func(d *Document) (bool, error) { return d.Set(KeyDescription, StringNode("Short."), nil) },
			[]string{"description: |\n", "  Multi-line description.\n", "\n", "  # not a comment, part of the scalar\n"},
			[]string{"description: Short.\n"}},
		{"comment before next key kept", "block-scalar.md", KeyCreatedAt,
			func(d *Document) (bool, error) { return d.Set(KeyCreatedAt, TimeNode(ts), nil) },
			[]string{"created_at: 2026-01-05T09:30:00Z\n"}, []string{"created_at: 2026-04-01T12:00:00Z\n"}},
		{"new key at end of frontmatter", "summary.md", "owner",
			func(d *Document) (bool, error) { return d.Set("owner", StringNode("team-a"), nil) },
			nil, []string{"owner: team-a\n"}},
		{"delete unknown key", "decision.md", "reviewer",
			func(d *Document) (bool, error) { return d.Delete("reviewer") },
			[]string{"reviewer: alice   # unknown key, kept\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := seeds[tt.file]
			d, err := Parse(before)
			if err != nil {
				t.Fatal(err)
			}
			changed, err := tt.set(d)
			if err != nil || !changed {
				t.Fatalf("changed=%v err=%v", changed, err)
			}
			removed, added := diffLines(before, d.Bytes())
			if strings.Join(removed, "|") != strings.Join(tt.removed, "|") || strings.Join(added, "|") != strings.Join(tt.added, "|") {
				t.Fatalf("diff:\n-%q\n+%q\nwant\n-%q\n+%q\nfile:\n%s", removed, added, tt.removed, tt.added, d.Bytes())
			}
		})
	}
}

func TestSetSameValueIsNoOp(t *testing.T) {
	b := readSeeds(t)["decision.md"]
	d, _ := Parse(b)
	changed, err := d.Set(KeyUpdatedAt, TimeNode(time.Date(2026, 2, 11, 14, 2, 0, 0, time.UTC)), nil)
	if err != nil || changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	changed, _ = d.Set(KeyStatus, StringNode("resolved"), nil)
	if changed || !bytes.Equal(d.Bytes(), b) {
		t.Fatal("same value changed the bytes")
	}
}

func TestSetBody(t *testing.T) {
	b := readSeeds(t)["request-nobody.md"]
	d, _ := Parse(b)
	if err := d.SetBody([]byte("# Title\n")); err != nil {
		t.Fatal(err)
	}
	want := string(b) + "\n# Title\n"
	if string(d.Bytes()) != want {
		t.Fatalf("got %q want %q", d.Bytes(), want)
	}
	crlf := readSeeds(t)["knowledge-crlf.md"]
	d, _ = Parse(crlf)
	header := crlf[:len(crlf)-len(d.Body())]
	if err := d.SetBody([]byte("x\r\n")); err != nil {
		t.Fatal(err)
	}
	if string(d.Bytes()) != string(header)+"x\r\n" {
		t.Fatal("frontmatter bytes changed")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, rule string
		line           int
	}{
		{"empty", "", RuleFrontmatter, 1},
		{"no frontmatter", "# Title\n", RuleFrontmatter, 1},
		{"not closed", "---\na: 1\n", RuleFrontmatter, 1},
		{"bom", "\xEF\xBB\xBF---\na: 1\n---\n", RuleEncoding, 1},
		{"bad utf8", "---\na: 1\n---\nok\n\xff\xfe\n", RuleEncoding, 5},
		{"yaml syntax", "---\na: 1\nb: [1, 2\n---\n", RuleYAMLSyntax, 2},
		{"tab indent", "---\na:\n\t- b\n---\n", RuleYAMLSyntax, 3},
		{"not a mapping", "---\n- a\n- b\n---\n", RuleYAMLSyntax, 2},
		{"scalar doc", "---\njust text\n---\n", RuleYAMLSyntax, 2},
		{"duplicate key", "---\na: 1\nb: 2\na: 3\n---\n", RuleDuplicateKey, 4},
		{"nested duplicate", "---\nsources:\n  - {session_id: a, session_id: b}\n---\n", RuleDuplicateKey, 3},
		{"alias", "---\na: &x 1\nb: *x\n---\n", RuleYAMLAlias, 2},
		{"alias bomb", "---\na: &a [\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n", RuleYAMLAlias, 2},
		{"complex key", "---\n? [a, b]\n: 1\n---\n", RuleYAMLSyntax, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Rule != tt.rule || pe.Line != tt.line {
				t.Fatalf("got %s line %d (%s), want %s line %d", pe.Rule, pe.Line, pe.Msg, tt.rule, tt.line)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	for _, in := range []string{
		"---\n---\n",
		"---\n---",
		"\n\n---\na: 1\n---\nbody",
		"---\r\na: 1\r\n---\r\n",
		"---\na: 1\n---\n---\nbody with a rule line above\n",
	} {
		d, err := Parse([]byte(in))
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if string(d.Bytes()) != in {
			t.Errorf("bytes changed for %q", in)
		}
	}
}

// FuzzSplitFrontmatter checks the quick splitter against adrg/frontmatter,
// the reference for where frontmatter starts and ends.
func FuzzSplitFrontmatter(f *testing.F) {
	for _, b := range readSeeds(f) {
		f.Add(b)
	}
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\r\na: 1\r\n--- \r\nbody"))
	f.Add([]byte("---\na: 1\n---"))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, d, ok := quickSplit(in)
		if !ok {
			return
		}
		var data []byte
		capture := frontmatter.NewFormat("---", "---", func(b []byte, _ any) error {
			data = b
			return nil
		})
		body, err := frontmatter.MustParse(bytes.NewReader(in), nil, capture)
		if err != nil {
			t.Fatalf("quick split accepted what adrg refuses: %v", err)
		}
		if !bytes.Equal(h, in[:len(in)-len(body)]) || !bytes.Equal(d, data) {
			t.Fatalf("split differs:\nquick header %q data %q\nadrg  header %q data %q", h, d, in[:len(in)-len(body)], data)
		}
	})
}
