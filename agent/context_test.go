package agent

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/internal/quote"
)

func TestContextFit(t *testing.T) {
	summary := strings.Repeat("s", 100)
	c := Context{Summary: summary, Parts: []Part{
		{Name: "knowledge descriptions", Text: strings.Repeat("k", 300)},
		{Name: "#retry", Text: strings.Repeat("r", 300)},
	}, Hint: "run `git yoimem context` to read them"}
	whole := c.Text()
	if whole != summary+"\n\n"+strings.Repeat("k", 300)+"\n\n"+strings.Repeat("r", 300) {
		t.Fatalf("Text = %q", whole)
	}
	if got, left := c.Fit(Len(whole)); got != whole || left != nil {
		t.Errorf("Fit at the exact size = %q, %v", got, left)
	}
	got, left := c.Fit(Len(whole) + 200)
	if got != whole || left != nil {
		t.Errorf("Fit under the limit cut: %q %v", got, left)
	}
	for _, limit := range []int{300, 450, 600, 700} {
		got, left := c.Fit(limit)
		if Len(got) > limit {
			t.Errorf("limit %d: %d characters", limit, Len(got))
		}
		if !strings.HasPrefix(got, summary) {
			t.Errorf("limit %d: summary lost: %q", limit, got)
		}
		if len(left) == 0 {
			t.Fatalf("limit %d: nothing left out of %q", limit, got)
		}
		for _, name := range left {
			if !strings.Contains(got, name) {
				t.Errorf("limit %d: the notice does not name %s: %q", limit, name, got)
			}
		}
		if !strings.Contains(got, "git yoimem context") || !strings.Contains(got, "left out") || !strings.Contains(got, quote.Thousands(int64(limit))) {
			t.Errorf("limit %d: no visible notice: %q", limit, got)
		}
	}
	// a limit that keeps the first part drops only the second
	got, left = c.Fit(Len(summary+"\n\n"+strings.Repeat("k", 300)) + 200)
	if len(left) != 1 || left[0] != "#retry" || !strings.Contains(got, strings.Repeat("k", 300)) {
		t.Errorf("dropped %v: %q", left, got)
	}
}

func TestContextFitLongSummary(t *testing.T) {
	var lines []string
	for i := 0; i < 500; i++ {
		lines = append(lines, "- line "+strings.Repeat("é", 20))
	}
	c := Context{Summary: strings.Join(lines, "\n"), Parts: []Part{{Name: "knowledge descriptions", Text: "k"}}}
	got, left := c.Fit(2000)
	if Len(got) > 2000 {
		t.Fatalf("%d characters", Len(got))
	}
	if len(left) != 2 || !strings.Contains(left[0], "summary") {
		t.Errorf("left = %v", left)
	}
	if !strings.HasPrefix(got, "- line ") || !strings.Contains(got, "the rest of the summary") {
		t.Errorf("got %q", got)
	}
	// cut at a line end: every kept line is whole
	body, _, _ := strings.Cut(got, "\n\n[")
	for _, l := range strings.Split(body, "\n") {
		if l != lines[0] {
			t.Fatalf("a cut line: %q", l)
		}
	}
}

func TestContextFitTiny(t *testing.T) {
	c := Context{Summary: strings.Repeat("x", 100)}
	for _, limit := range []int{0, 1, 10, 99} {
		got, left := c.Fit(limit)
		if Len(got) > limit {
			t.Errorf("limit %d: %q", limit, got)
		}
		if len(left) == 0 {
			t.Errorf("limit %d: nothing left out", limit)
		}
	}
}

func TestLenCountsUTF16(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "日本": 2, "😀": 2} {
		if got := Len(s); got != want {
			t.Errorf("Len(%q) = %d; want %d", s, got, want)
		}
	}
}

func TestContextEmpty(t *testing.T) {
	if !(Context{}).Empty() || (Context{Parts: []Part{{Name: "x", Text: "y"}}}).Empty() {
		t.Error("Empty")
	}
	if (Context{Parts: []Part{{Name: "a", Text: ""}, {Name: "b", Text: "y"}}}).Text() != "y" {
		t.Error("empty parts are not skipped")
	}
}

func TestContextFitOneLongLine(t *testing.T) {
	c := Context{Summary: strings.Repeat("word ", 1000)}
	got, left := c.Fit(1000)
	if Len(got) > 1000 || !strings.HasPrefix(got, "word word") || len(left) != 1 {
		t.Errorf("Fit = %q, %v", got, left)
	}
}

func FuzzContextFit(f *testing.F) {
	f.Add("summary\nline", "k", "r", 50)
	f.Add("", "", "😀😀", 3)
	f.Fuzz(func(t *testing.T, summary, a, b string, limit int) {
		if limit < 0 || limit > 1<<16 {
			return
		}
		c := Context{Summary: summary, Parts: []Part{{Name: "a", Text: a}, {Name: "b", Text: b}}, Hint: "see x"}
		got, left := c.Fit(limit)
		if Len(got) > limit {
			t.Fatalf("%d characters over %d", Len(got), limit)
		}
		if (left == nil) != (got == c.Text()) {
			t.Fatalf("left %v but got the whole text: %q", left, got)
		}
	})
}

func TestShorten(t *testing.T) {
	if got := Shorten("short", 100, "the reason"); got != "short" {
		t.Errorf("Shorten = %q", got)
	}
	got := Shorten(strings.Repeat("long reason ", 100), 300, "the reason")
	if Len(got) > 300 || !strings.HasPrefix(got, "long reason") || !strings.Contains(got, "the rest of the reason (") {
		t.Errorf("Shorten = %q", got)
	}
}

// TestContextFitNoSummary: with no summary, what is kept (or the notice
// alone) starts the text; no blank separator comes before it.
func TestContextFitNoSummary(t *testing.T) {
	for _, parts := range [][]Part{
		{{Name: "knowledge descriptions", Text: strings.Repeat("k", 500)}},
		{{Name: "#a", Text: "short"}, {Name: "#b", Text: strings.Repeat("b", 500)}},
	} {
		text, left := Context{Parts: parts}.Fit(300)
		if strings.HasPrefix(text, "\n") || len(left) == 0 || Len(text) > 300 {
			t.Errorf("Fit = %q, %v; want the kept text or the notice first, within 300", text, left)
		}
	}
}
