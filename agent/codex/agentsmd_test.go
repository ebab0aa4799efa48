package codex

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

const block = "# Summary\n\nThe shop's checkout service, in Go.\n\nKnowledge (read with memory_read):\n- #retry-policy: how webhook retries back off"

func TestMergeAgentsMDGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "agentsmd", "*.md"))
	if len(files) < 5 {
		t.Fatal("no AGENTS.md fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(name, func(t *testing.T) {
			old, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			merged, err := MergeAgentsMD(old, block)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("agentsmd", name+".md"), merged)
			if strings.Contains(string(old), BeginMarker) {
				checkReplaced(t, old, merged)
				return
			}
			checkAgentsMD(t, old, merged, block)
		})
	}
}

// checkAgentsMD: old is kept whole before the block, which holds the
// text; merging again changes nothing, a new text replaces only the
// block, and unmerging gives old back.
func checkAgentsMD(t *testing.T, old, merged []byte, text string) {
	t.Helper()
	nl := "\n"
	if strings.Contains(string(old), "\r\n") {
		nl = "\r\n"
	}
	if !strings.HasPrefix(string(merged), string(old)) {
		t.Errorf("the user's text changed:\n%q", merged)
	}
	if !strings.Contains(string(merged), strings.ReplaceAll(text, "\n", nl)) || strings.Count(string(merged), BeginMarker) != 1 || strings.Count(string(merged), EndMarker) != 1 {
		t.Errorf("block missing or doubled:\n%s", merged)
	}
	bare := func(b []byte) int { return strings.Count(string(b), "\n") - strings.Count(string(b), "\r\n") }
	if nl == "\r\n" && bare(merged) != bare(old) {
		t.Errorf("a bare LF in a CRLF file: %q", merged)
	}
	if again, err := MergeAgentsMD(merged, text); err != nil || string(again) != string(merged) {
		t.Errorf("merging twice differs (%v):\n%s", err, again)
	}
	other, err := MergeAgentsMD(merged, "# Summary\n\nNew.")
	if err != nil || !strings.HasPrefix(string(other), string(old)) || strings.Contains(string(other), "checkout") {
		t.Errorf("update (%v):\n%s", err, other)
	}
	back, err := UnmergeAgentsMD(other)
	if err != nil || string(back) != string(old) {
		t.Errorf("Unmerge(Merge(x)) != x (%v)\n got: %q\nwant: %q", err, back, old)
	}
}

// checkReplaced: a file with a block keeps every byte around it.
func checkReplaced(t *testing.T, old, merged []byte) {
	t.Helper()
	o, m := string(old), string(merged)
	if o[:strings.Index(o, BeginMarker)] != m[:strings.Index(m, BeginMarker)] {
		t.Errorf("text before the block changed")
	}
	if o[strings.Index(o, EndMarker):] != m[strings.Index(m, EndMarker):] {
		t.Errorf("text after the block changed")
	}
	if !strings.Contains(m, block) || strings.Contains(m, "An older summary") {
		t.Errorf("block not replaced:\n%s", m)
	}
}

func TestMergeAgentsMDDamaged(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# A\n" + BeginMarker + "\nx\n", "line 2"},
		{"# A\n" + BeginMarker + "\nx\n" + BeginMarker + "\ny\n" + EndMarker + "\n", "line 4"},
		{"# A\n\n" + EndMarker + "\n", "line 3"},
		{EndMarker + "\n" + BeginMarker + "\n", "line 1"},
		{BeginMarker + "\n" + EndMarker + "\n" + BeginMarker + "\n" + EndMarker + "\n", "line 3"},
	} {
		_, err := MergeAgentsMD([]byte(tc.in), block)
		var de *DamagedMarkersError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "AGENTS.md") {
			t.Errorf("MergeAgentsMD(%q) = %v; want a *DamagedMarkersError naming %s", tc.in, err, tc.want)
		}
		if _, err := UnmergeAgentsMD([]byte(tc.in)); !errors.As(err, &de) {
			t.Errorf("UnmergeAgentsMD(%q) = %v", tc.in, err)
		}
	}
	if _, err := MergeAgentsMD([]byte("# A\n"), "x\n"+EndMarker+"\ny"); err == nil || !strings.Contains(err.Error(), "marker") {
		t.Errorf("a text holding a marker: %v", err)
	}
	// a marker inside a line is prose, not a marker
	prose := "Our block starts at `" + BeginMarker + "`.\n"
	if merged, err := MergeAgentsMD([]byte(prose), block); err != nil || !strings.HasPrefix(string(merged), prose) {
		t.Errorf("%v\n%s", err, merged)
	}
}

// TestFitAgentsMD: the text is fitted so that the whole file stays
// within the budget, summary first, with a visible line naming what was
// left out; a file whose own text leaves no room is an error naming the
// sizes and project_doc_max_bytes.
func TestFitAgentsMD(t *testing.T) {
	var desc []string
	for i := 0; i < 2000; i++ {
		desc = append(desc, fmt.Sprintf("- #topic-%04d: what topic %d is about, in a sentence", i, i))
	}
	c := agent.Context{Summary: "# Summary\n\nThe shop."}
	for i := 0; i < len(desc); i += 100 {
		c.Parts = append(c.Parts, agent.Part{Name: fmt.Sprintf("knowledge descriptions %d", i/100), Text: strings.Join(desc[i:i+100], "\n")})
	}
	for _, old := range []string{"", "# Rules\r\n\r\nBe brief.\r\n", strings.Repeat("é", 10000) + "\n"} {
		text, err := FitAgentsMD([]byte(old), c, ProjectDocMaxBytes)
		if err != nil {
			t.Fatal(err)
		}
		merged, err := MergeAgentsMD([]byte(old), text)
		if err != nil {
			t.Fatal(err)
		}
		if len(merged) > ProjectDocMaxBytes || len(merged) < ProjectDocMaxBytes*8/10 {
			t.Errorf("AGENTS.md is %d bytes; want up to %d, near it", len(merged), ProjectDocMaxBytes)
		}
		if !strings.HasPrefix(text, "# Summary\n\nThe shop.") || !strings.Contains(text, "knowledge descriptions 19 (") {
			t.Errorf("text = %.200q…", text)
		}
	}
	small := agent.Context{Summary: "s"}
	if text, err := FitAgentsMD(nil, small, ProjectDocMaxBytes); err != nil || text != "s" {
		t.Errorf("%q, %v", text, err)
	}
	_, err := FitAgentsMD([]byte(strings.Repeat("x", ProjectDocMaxBytes)), c, ProjectDocMaxBytes)
	if err == nil || !strings.Contains(err.Error(), "project_doc_max_bytes") || !strings.Contains(err.Error(), "32,768") {
		t.Errorf("no room: %v", err)
	}
}

// TestMergeAgentsMDProperty: for generated files (headings, lists,
// code, CRLF, no final newline, blank lines), Unmerge(Merge(x)) == x.
func TestMergeAgentsMDProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	lines := []string{"# Title", "", "- item", "```sh", "go test ./...", "```", "Some prose.", "  indented", "<!-- a comment of the user's -->"}
	for i := 0; i < 300; i++ {
		nl := []string{"\n", "\r\n"}[rng.Intn(2)]
		var ls []string
		for j := rng.Intn(12); j > 0; j-- {
			ls = append(ls, lines[rng.Intn(len(lines))])
		}
		x := strings.Join(ls, nl)
		if rng.Intn(3) > 0 && x != "" {
			x += nl
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			merged, err := MergeAgentsMD([]byte(x), block)
			if err != nil {
				t.Fatal(err)
			}
			checkAgentsMD(t, []byte(x), merged, block)
		})
	}
}

func FuzzMergeAgentsMD(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "agentsmd", "*.md"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b, block)
	}
	f.Fuzz(func(t *testing.T, old []byte, text string) {
		merged, err := MergeAgentsMD(old, text)
		if err != nil {
			return
		}
		if strings.Contains(string(old), BeginMarker) {
			if _, err := UnmergeAgentsMD(merged); err != nil {
				t.Fatalf("unmerge of a merge: %v", err)
			}
			return
		}
		if again, err := MergeAgentsMD(merged, text); err != nil || string(again) != string(merged) {
			t.Fatalf("merging twice differs (%v)", err)
		}
		if back, err := UnmergeAgentsMD(merged); err != nil || string(back) != string(old) {
			t.Fatalf("Unmerge(Merge(x)) != x (%v)\n got: %q\nwant: %q", err, back, old)
		}
	})
}
