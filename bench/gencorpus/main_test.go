package main

import (
	"bytes"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	yrec "github.com/yoimem/git-yoimem/record"
)

// -corpus.n checks a bigger corpus by hand, e.g.
// go test ./bench/gencorpus -corpus.n 10000
var corpusN = flag.Int("corpus.n", 200, "records in the corpus that TestCorpus checks")

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// readTree returns every file under dir, keyed by slash path relative to dir.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func gen(t *testing.T, args ...string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := run(append([]string{"-out", dir}, args...), io.Discard); err != nil {
		t.Fatal(err)
	}
	return readTree(t, dir)
}

// decode reads a generated record with the record library, as the linter
// does; fails the test on a parse or schema error.
func decode(t *testing.T, path string, data []byte) *yrec.Record {
	t.Helper()
	r, ferrs, err := yrec.Decode(strings.TrimPrefix(path, ".yoi/"), data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, fe := range ferrs {
		t.Errorf("%s: %s: %s", path, fe.Key, fe.Msg)
	}
	return r
}

func TestCorpus(t *testing.T) {
	for _, shapes := range []string{shapesMixed, shapesCanonical} {
		t.Run(shapes, func(t *testing.T) { checkCorpus(t, shapes) })
	}
}

func checkCorpus(t *testing.T, shapes string) {
	n := *corpusN
	ns := strconv.Itoa(n)
	a := gen(t, "-n", ns, "-seed", "7", "-invocable", "10", "-shapes", shapes)
	b := gen(t, "-n", ns, "-seed", "7", "-invocable", "10", "-shapes", shapes)
	if len(a) != n {
		t.Fatalf("got %d files, want %d", len(a), n)
	}
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Fatalf("%s differs between two runs with the same flags", p)
		}
	}
	if len(b) != len(a) {
		t.Fatalf("second run wrote %d files, first %d", len(b), len(a))
	}

	// Collect slugs per directory.
	kinds := map[string]map[string]bool{}
	for p := range a {
		dir, name := filepath.Split(p)
		if p == ".yoi/memory/summary.md" {
			continue
		}
		slug, ok := strings.CutSuffix(name, ".md")
		if !ok || !slugRE.MatchString(slug) || len(slug) > maxSlug {
			t.Errorf("%s: bad slug", p)
		}
		if w := strings.Count(slug, "-") + 1; w < 2 || w > 5 {
			t.Errorf("%s: %d words in slug", p, w)
		}
		if kinds[dir] == nil {
			kinds[dir] = map[string]bool{}
		}
		kinds[dir][slug] = true
	}
	know := kinds[".yoi/knowledge/"]
	decs := kinds[".yoi/memory/decisions/"]
	nd, nr, nk := counts(n)
	if len(decs) != nd || len(kinds[".yoi/memory/requests/"]) != nr || len(know) != nk {
		t.Errorf("counts: decisions %d requests %d knowledge %d, want %d %d %d",
			len(decs), len(kinds[".yoi/memory/requests/"]), len(know), nd, nr, nk)
	}
	for s := range know {
		if decs[s] || kinds[".yoi/memory/requests/"][s] {
			t.Errorf("knowledge slug %s also used in memory/", s)
		}
	}

	refRE := regexp.MustCompile(`#([a-z0-9]+(?:-[a-z0-9]+)*)`)
	replacedBy := map[string]string{}
	status := map[string]yrec.Status{}
	withRefs, invocable := 0, 0
	for p, data := range a {
		text := string(data)
		if utf8.RuneCountInString(text) >= maxRecord {
			t.Errorf("%s: %d characters", p, utf8.RuneCountInString(text))
		}
		if looksSecret(text) {
			t.Errorf("%s: looks like it holds a credential", p)
		}
		rec := decode(t, p, data)
		body := strings.ReplaceAll(string(rec.Body()), "\r\n", "\n")
		if len(body) < minBody || len(body) > maxLongBody+maxBody {
			t.Errorf("%s: body %d bytes", p, len(body))
		}
		if shapes == shapesCanonical && len(body) > maxBody {
			t.Errorf("%s: body %d bytes in the canonical corpus", p, len(body))
		}
		if (p != ".yoi/memory/summary.md" && rec.CreatedAt.IsZero()) || rec.UpdatedAt.IsZero() {
			t.Errorf("%s: no created_at or updated_at", p)
		}
		if rec.UpdatedAt.Before(rec.CreatedAt) {
			t.Errorf("%s: updated_at before created_at", p)
		}
		slug := strings.TrimSuffix(filepath.Base(p), ".md")
		switch {
		case strings.HasPrefix(p, ".yoi/memory/decisions/"):
			status[slug] = rec.Status
			replacedBy[slug] = rec.ReplacedBy
		case strings.HasPrefix(p, ".yoi/knowledge/"):
			if d := strings.TrimSpace(rec.Description); d == "" || utf8.RuneCountInString(d) >= 250 {
				t.Errorf("%s: description %q", p, rec.Description)
			}
			if rec.ModelInvokation {
				invocable++
			}
		}
		// '#' only as "# " headings (outside fences) or knowledge references.
		refs := 0
		fence := false
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
				fence = !fence
				continue
			}
			if fence {
				if strings.Contains(l, "#") {
					t.Errorf("%s: hash sign in a code block: %q", p, l)
				}
				continue
			}
			if h := strings.TrimLeft(l, "#"); h != l {
				if !strings.HasPrefix(h, " ") || len(l)-len(h) > 2 {
					t.Errorf("%s: bad heading %q", p, l)
				}
				l = h
			}
			for _, m := range refRE.FindAllStringSubmatchIndex(l, -1) {
				ref := l[m[2]:m[3]]
				if !know[ref] || ref == slug && strings.HasPrefix(p, ".yoi/knowledge/") {
					t.Errorf("%s: #%s does not name another knowledge record", p, ref)
				}
				if m[1] < len(l) && l[m[1]] != ' ' {
					t.Errorf("%s: #%s followed by %q", p, ref, l[m[1]])
				}
				refs++
			}
			if c := strings.Count(l, "#"); c != len(refRE.FindAllString(l, -1)) {
				t.Errorf("%s: stray hash sign in %q", p, l)
			}
		}
		if fence {
			t.Errorf("%s: a code fence is not closed", p)
		}
		if refs > 0 {
			withRefs++
		}
	}
	if invocable != 10 {
		t.Errorf("%d knowledge records with model_invokation: true, want 10", invocable)
	}
	if withRefs < n/20 || withRefs > n*2/5 {
		t.Errorf("%d of %d records hold references, want about 20%%", withRefs, n)
	}
	replaced := 0
	for s, st := range status {
		switch st {
		case yrec.StatusOpen, yrec.StatusResolved:
			if replacedBy[s] != "" {
				t.Errorf("decision %s: replaced_by with status %s", s, st)
			}
		case yrec.StatusReplaced:
			replaced++
			to := replacedBy[s]
			if !decs[to] || to == s || status[to] == yrec.StatusReplaced {
				t.Errorf("decision %s: replaced_by %q is not a live decision", s, to)
			}
		default:
			t.Errorf("decision %s: status %q", s, st)
		}
	}
	if replaced != nd/10 {
		t.Errorf("%d replaced decisions, want %d", replaced, nd/10)
	}

	// A different seed gives a different corpus.
	c := gen(t, "-n", ns, "-seed", "8", "-invocable", "10", "-shapes", shapes)
	if bytes.Equal(c[".yoi/memory/summary.md"], a[".yoi/memory/summary.md"]) {
		t.Error("seed 8 wrote the same summary as seed 7")
	}
}

func TestRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := run([]string{"-out", dir, "-n", "5"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-out", dir, "-n", "5"}, io.Discard); err == nil {
		t.Fatal("second run into the same directory succeeded")
	}
	empty := t.TempDir()
	if err := os.Mkdir(filepath.Join(empty, ".yoi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-out", empty, "-n", "5"}, io.Discard); err != nil {
		t.Fatalf("empty .yoi refused: %v", err)
	}
}

func TestTinyCorpora(t *testing.T) {
	for _, n := range []string{"1", "2", "3", "4"} {
		dir := t.TempDir()
		if err := run([]string{"-out", dir, "-n", n}, io.Discard); err != nil {
			t.Fatalf("-n %s: %v", n, err)
		}
		if got := len(readTree(t, dir)); got != int(n[0]-'0') {
			t.Errorf("-n %s: %d files", n, got)
		}
	}
}
