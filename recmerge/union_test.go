package recmerge

import (
	"fmt"
	"strings"
	"testing"
)

const summaryPath = ".yoi/memory/summary.md"

// recentList is the summary's "## Recent work" list of items from..to.
func recentList(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "- 2026-01-%02d: item %d\n", i, i)
	}
	return b.String()
}

// TestMergeUnion: both sides inserting different lines at the same place
// keep both insertions, ours first, with no markers; anything else that
// both sides changed differently stays a conflict.
func TestMergeUnion(t *testing.T) {
	list := "# T\n\n- one\n- two\n"
	recent := "# Summary\n\n## Recent work\n\n"
	tests := []struct {
		name, path, base, a, b, want string
		conflict                     bool
	}{
		{name: "append/append", base: list, a: list + "- A\n", b: list + "- B\n", want: list + "- A\n- B\n"},
		{name: "the same line appended on both", base: list, a: list + "- A\n", b: list + "- A\n", want: list + "- A\n"},
		{name: "a line both appended stays in each insertion", base: list, a: list + "- S\n- A\n", b: list + "- S\n- B\n", want: list + "- S\n- A\n- S\n- B\n"},
		// Two decision sections appended by two clones: each stays whole
		// (its heading, options and rationale), never stitched line by line.
		{name: "two sections appended stay whole", path: ".yoi/memory/decisions/d.md",
			base: "# d\n\n## Decided 01-01\n\n- Chosen: x\n- Options:\n  - x\n  - y",
			a:    "# d\n\n## Decided 01-01\n\n- Chosen: x\n- Options:\n  - x\n  - y\n\n## Decided 01-02\n\n- Chosen: y\n- Options:\n  - x\n  - y",
			b:    "# d\n\n## Decided 01-01\n\n- Chosen: x\n- Options:\n  - x\n  - y\n\n## Decided 01-02\n\n- Chosen: z\n- Options:\n  - x\n  - y",
			want: "# d\n\n## Decided 01-01\n\n- Chosen: x\n- Options:\n  - x\n  - y\n\n## Decided 01-02\n\n- Chosen: y\n- Options:\n  - x\n  - y\n\n## Decided 01-02\n\n- Chosen: z\n- Options:\n  - x\n  - y"},

		{name: "ours a prefix of theirs", base: list, a: list + "- A\n", b: list + "- A\n- B\n", want: list + "- A\n- B\n"},
		{name: "theirs a prefix of ours", base: list, a: list + "- A\n- B\n", b: list + "- A\n", want: list + "- A\n- B\n"},
		{name: "ours a suffix of theirs", base: list, a: list + "- B\n", b: list + "- A\n- B\n", want: list + "- A\n- B\n"},
		{name: "theirs a suffix of ours", base: list, a: list + "- A\n- B\n", b: list + "- B\n", want: list + "- A\n- B\n"},
		{name: "a paragraph appended on both keeps its blank line", base: "# T\n\nOne.\n", a: "# T\n\nOne.\n\nA.\n", b: "# T\n\nOne.\n\nB.\n", want: "# T\n\nOne.\n\nA.\n\nB.\n"},
		{name: "CRLF", base: crlf(list), a: crlf(list + "- A\n"), b: crlf(list + "- B\n"), want: crlf(list + "- A\n- B\n")},
		{name: "CRLF without a final newline", base: crlf(list), a: crlf(list) + "- A", b: crlf(list) + "- B", want: crlf(list+"- A\n") + "- B"},
		{name: "appended without a final newline", base: list, a: list + "- A", b: list + "- B", want: list + "- A\n- B"},
		{name: "base without a final newline", base: "# T\n\n- one\n- two", a: list + "- A\n", b: list + "- B\n", want: list + "- A\n- B\n"},
		{name: "base and sides without a final newline", base: "# T\n\n- one\n- two", a: list + "- A", b: list + "- B", want: list + "- A\n- B"},
		{name: "a line break given to the last line on one side is kept", base: "# T\n\n- one\n- two", a: list, b: "# T\n\n- ONE\n- two", want: "# T\n\n- ONE\n- two\n"},
		{name: "a line break taken from the last line on one side is kept", base: list, a: "# T\n\n- one\n- two", b: "# T\n\n- ONE\n- two\n", want: "# T\n\n- ONE\n- two"},
		{name: "insertion in the middle of a list", base: "- one\n- two\n- three\n", a: "- one\n- A\n- two\n- three\n", b: "- one\n- B\n- two\n- three\n", want: "- one\n- A\n- B\n- two\n- three\n"},
		{name: "inserted at the top on both", base: "- one\n", a: "- A\n- one\n", b: "- B\n- one\n", want: "- A\n- B\n- one\n"},
		{
			name: "the summary's bounded list: the oldest dropped on both, one appended on each",
			path: summaryPath,
			base: recent + recentList(1, 20),
			a:    recent + recentList(2, 20) + "- 2026-02-01: ours\n",
			b:    recent + recentList(2, 20) + "- 2026-02-01: theirs\n",
			want: recent + recentList(2, 20) + "- 2026-02-01: ours\n- 2026-02-01: theirs\n",
		},
		{
			name: "the summary's bounded list followed by another section",
			path: summaryPath,
			base: recent + recentList(1, 20) + "\n## Open questions\n\n- why?\n",
			a:    recent + recentList(2, 20) + "- 2026-02-01: ours\n\n## Open questions\n\n- why?\n",
			b:    recent + recentList(2, 20) + "- 2026-02-02: theirs\n\n## Open questions\n\n- why?\n",
			want: recent + recentList(2, 20) + "- 2026-02-01: ours\n- 2026-02-02: theirs\n\n## Open questions\n\n- why?\n",
		},
		{
			name:     "the summary's bounded list, a different number of old items dropped on each side, stays a conflict at the top",
			path:     summaryPath,
			base:     recent + recentList(1, 20),
			a:        recent + recentList(3, 20) + "- 2026-02-01: ours\n- 2026-02-02: ours\n",
			b:        recent + recentList(2, 20) + "- 2026-02-03: theirs\n",
			want:     recent + "<<<<<<< ours\n=======\n" + recentList(2, 2) + ">>>>>>> theirs\n" + recentList(3, 20) + "- 2026-02-01: ours\n- 2026-02-02: ours\n- 2026-02-03: theirs\n",
			conflict: true,
		},
		{
			name: "knowledge: a paragraph appended on both",
			path: ".yoi/knowledge/retry.md",
			base: "# Retry\n\nBack off.\n", a: "# Retry\n\nBack off.\n\nCap at a minute.\n", b: "# Retry\n\nBack off.\n\nAdd jitter.\n",
			want: "# Retry\n\nBack off.\n\nCap at a minute.\n\nAdd jitter.\n",
		},
		{name: "modify/modify stays a conflict", base: list, a: "# T\n\n- one\n- TWO-A\n", b: "# T\n\n- one\n- TWO-B\n",
			want: "# T\n\n- one\n<<<<<<< ours\n- TWO-A\n=======\n- TWO-B\n>>>>>>> theirs\n", conflict: true},
		{name: "deleted and replaced the same line differently stays a conflict", base: "- one\n", a: "- A\n", b: "- B\n",
			want: "<<<<<<< ours\n- A\n=======\n- B\n>>>>>>> theirs\n", conflict: true},
		{name: "an insertion next to a line the other side changed stays a conflict", base: "- x\n- y\n- z\n", a: "- x\n- A\n- y\n- z\n", b: "- x\n- Y\n- z\n",
			want: "- x\n<<<<<<< ours\n- A\n- y\n=======\n- Y\n>>>>>>> theirs\n- z\n", conflict: true},
		{name: "an insertion next to a line the other side deleted stays a conflict", base: "- x\n- y\n- z\n", a: "- x\n- A\n- y\n- z\n", b: "- x\n- z\n",
			want: "- x\n<<<<<<< ours\n- A\n- y\n=======\n>>>>>>> theirs\n- z\n", conflict: true},
	}
	for _, tt := range tests {
		path := tt.path
		if path == "" {
			path = decisionPath
		}
		fm := baseFM
		if path != decisionPath {
			fm = "updated_at: 2026-01-02T00:00:00Z\n"
		}
		base, a, b := rec(fm, tt.base), rec(fm, tt.a), rec(strings.Replace(fm, "2026-01-02", "2026-01-03", 1), tt.b)
		if strings.HasPrefix(tt.name, "CRLF") {
			base, a, b = []byte(crlf(string(base[:len(base)-len(tt.base)]))+tt.base), []byte(crlf(string(a[:len(a)-len(tt.a)]))+tt.a), []byte(crlf(string(b[:len(b)-len(tt.b)]))+tt.b)
		}
		got, conflict, err := Merge(path, base, a, b)
		if err != nil || conflict != tt.conflict {
			t.Errorf("%s: conflict %t, err %v; want conflict %t\n%s", tt.name, conflict, err, tt.conflict, got)
			continue
		}
		doc := assertParses(t, path, got)
		if string(doc.Body()) != tt.want {
			t.Errorf("%s: body\n%q\nwant\n%q", tt.name, doc.Body(), tt.want)
		}
	}
}

// TestMergeUnionNotForText: the plain-text fallback, a file outside the
// record kinds (workflow/) and a record both sides added (no ancestor)
// keep a conflict where both sides inserted at the same place, as git's
// text merge does.
func TestMergeUnionNotForText(t *testing.T) {
	list := "# T\n\n- one\n"
	tests := []struct {
		name, path     string
		base, a, b     []byte
		wantInConflict string
	}{
		{name: "not a record", path: decisionPath, base: []byte(list), a: []byte(list + "- A\n"), b: []byte(list + "- B\n"),
			wantInConflict: "<<<<<<< ours\n- A\n=======\n- B\n>>>>>>> theirs\n"},
		{name: "workflow", path: ".yoi/workflow/deploy.md", base: rec(baseFM, list), a: rec(baseFM, list+"- A\n"), b: rec(baseFM, list+"- B\n"),
			wantInConflict: "<<<<<<< ours\n- A\n=======\n- B\n>>>>>>> theirs\n"},
		{name: "added on both sides", path: decisionPath, a: rec(baseFM, list+"- A\n"), b: rec(baseFM, list+"- B\n"),
			wantInConflict: "<<<<<<< ours\n# T\n\n- one\n- A\n=======\n# T\n\n- one\n- B\n>>>>>>> theirs\n"},
	}
	for _, tt := range tests {
		got, conflict, err := Merge(tt.path, tt.base, tt.a, tt.b)
		if err != nil || !conflict {
			t.Errorf("%s: conflict %t, err %v; want a conflict", tt.name, conflict, err)
			continue
		}
		if !strings.Contains(string(got), tt.wantInConflict) {
			t.Errorf("%s: got\n%q\nwant it to hold\n%q", tt.name, got, tt.wantInConflict)
		}
	}
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// TestChunksBoundedList: the summary's bounded list, the oldest item
// dropped on both sides and one item appended on each, falls into three
// chunks: the deletion both sides made, the kept items, and the two
// insertions at one place with an empty base (which the union takes).
func TestChunksBoundedList(t *testing.T) {
	o := splitLines(recentList(1, 20))
	a := splitLines(recentList(2, 20) + "- ours\n")
	b := splitLines(recentList(2, 20) + "- theirs\n")
	got := chunks(o, a, b, "\n")
	want := []chunk{
		{base: o[:1]},
		{stable: true, base: o[1:], ours: a[:19], theirs: b[:19]},
		{ours: a[19:], theirs: b[19:]},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("chunks\n%+v\nwant\n%+v", got, want)
	}
}
