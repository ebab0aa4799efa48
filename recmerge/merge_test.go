package recmerge

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

const decisionPath = ".yoi/memory/decisions/retry.md"

// rec builds a record file from frontmatter lines and a body.
func rec(fm, body string) []byte {
	return []byte("---\n" + fm + "---\n" + body)
}

const baseFM = "created_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-02T00:00:00Z\nstatus: open\nsources:\n  - {session_id: s1, range: [1, 2]}\n"

func TestMergeFields(t *testing.T) {
	body := "# Retry\n\nUse backoff.\n"
	tests := []struct {
		name, path, base, a, b, want string
	}{
		{
			name: "sources accumulate, ours first, deduplicated",
			base: baseFM,
			a:    strings.Replace(baseFM, "  - {session_id: s1, range: [1, 2]}\n", "  - {session_id: s1, range: [1, 2]}\n  - {session_id: s2, range: [3, 4]}\n", 1),
			b:    strings.Replace(baseFM, "  - {session_id: s1, range: [1, 2]}\n", "  - {session_id: s1, range: [1, 2]}\n  - {session_id: s3, range: [5, 6]}\n  - {session_id: s2, range: [3, 4]}\n", 1),
			want: strings.Replace(baseFM, "  - {session_id: s1, range: [1, 2]}\n", "  - {session_id: s1, range: [1, 2]}\n  - {session_id: s2, range: [3, 4]}\n  - {session_id: s3, range: [5, 6]}\n", 1),
		},
		{
			name: "updated_at the later (ours later)",
			base: baseFM,
			a:    strings.Replace(baseFM, "2026-01-02", "2026-03-01", 1),
			b:    strings.Replace(baseFM, "2026-01-02", "2026-02-01", 1),
			want: strings.Replace(baseFM, "2026-01-02", "2026-03-01", 1),
		},
		{
			name: "created_at the earlier",
			base: baseFM,
			a:    strings.Replace(baseFM, "created_at: 2026-01-01", "created_at: 2025-12-01", 1),
			b:    strings.Replace(baseFM, "created_at: 2026-01-01", "created_at: 2025-11-01", 1),
			want: strings.Replace(baseFM, "created_at: 2026-01-01", "created_at: 2025-11-01", 1),
		},
		{
			name: "status resolved over open",
			base: baseFM,
			a:    baseFM,
			b:    strings.Replace(baseFM, "status: open", "status: resolved", 1),
			want: strings.Replace(baseFM, "status: open", "status: resolved", 1),
		},
		{
			name: "status replaced over resolved, replaced_by kept",
			base: baseFM,
			a:    strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/retry-v2.md", 1),
			b:    strings.Replace(baseFM, "status: open", "status: resolved", 1),
			want: strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/retry-v2.md", 1),
		},
		{
			// (a side that changed nothing is git's trivial merge: the
			// driver is not run, and Merge takes the changed side whole)
			name: "replaced kept with its replaced_by when the other side drops both",
			base: strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/retry-v2.md", 1),
			a:    strings.Replace(strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/retry-v2.md", 1), "2026-01-02", "2026-01-03", 1),
			b:    strings.Replace(baseFM, "status: open", "status: resolved", 1),
			want: strings.Replace(strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/retry-v2.md", 1), "2026-01-02", "2026-01-03", 1),
		},
		{
			name: "other field changed on one side",
			base: baseFM + "owner: ann\n",
			a:    baseFM + "owner: ann\n",
			b:    baseFM + "owner: bob\n",
			want: baseFM + "owner: bob\n",
		},
		{
			name: "other field removed on one side",
			base: baseFM + "owner: ann\n",
			a:    baseFM + "owner: ann\n",
			b:    baseFM,
			want: baseFM,
		},
		{
			name: "other field changed on both: the later updated_at wins",
			base: baseFM + "owner: ann\n",
			a:    strings.Replace(baseFM, "2026-01-02", "2026-02-01", 1) + "owner: bob\n",
			b:    strings.Replace(baseFM, "2026-01-02", "2026-03-01", 1) + "owner: cy\n",
			want: strings.Replace(baseFM, "2026-01-02", "2026-03-01", 1) + "owner: cy\n",
		},
		{
			name: "unknown key added on one side keeps its place",
			base: baseFM,
			a:    "x_team: core\n" + baseFM,
			b:    baseFM,
			want: "x_team: core\n" + baseFM,
		},
		{
			name: "last_sources from the side updated later",
			path: ".yoi/knowledge/retry.md",
			base: "kind: rule\nupdated_at: 2026-01-02T00:00:00Z\nlast_sources: [{session_id: s1, range: [1, 2]}]\n",
			a:    "kind: rule\nupdated_at: 2026-01-03T00:00:00Z\nlast_sources: [{session_id: s2, range: [1, 2]}]\n",
			b:    "kind: rule\nupdated_at: 2026-01-04T00:00:00Z\nlast_sources: [{session_id: s3, range: [1, 2]}]\n",
			want: "kind: rule\nupdated_at: 2026-01-04T00:00:00Z\nlast_sources: [{session_id: s3, range: [1, 2]}]\n",
		},
		{
			name: "added on both sides (no base), sources ours first",
			base: "",
			a:    strings.Replace(baseFM, "status: open", "status: resolved", 1),
			b:    strings.Replace(baseFM, "s1, range: [1, 2]", "s9, range: [1, 2]", 1),
			want: strings.Replace(strings.Replace(baseFM, "status: open", "status: resolved", 1), "  - {session_id: s1, range: [1, 2]}\n", "  - {session_id: s1, range: [1, 2]}\n  - {session_id: s9, range: [1, 2]}\n", 1),
		},
	}
	for _, tt := range tests {
		path := tt.path
		if path == "" {
			path = decisionPath
		}
		for _, swap := range []bool{false, true} {
			a, b := tt.a, tt.b
			if swap {
				a, b = b, a
			}
			var base []byte
			if tt.base != "" {
				base = rec(tt.base, body)
			}
			got, conflict, err := Merge(path, base, rec(a, body), rec(b, body))
			if err != nil || conflict {
				t.Fatalf("%s (swap %t): conflict %t, err %v", tt.name, swap, conflict, err)
			}
			assertParses(t, path, got)
			if swap && strings.Contains(tt.name, "ours first") {
				continue // the order follows ours
			}
			if string(got) != string(rec(tt.want, body)) {
				t.Errorf("%s (swap %t):\n got %q\nwant %q", tt.name, swap, got, rec(tt.want, body))
			}
		}
	}
}

func TestMergeReplacedByConflict(t *testing.T) {
	base := rec(baseFM, "Body.\n")
	a := rec(strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/a.md", 1), "Body.\n")
	b := rec(strings.Replace(baseFM, "status: open", "status: replaced\nreplaced_by: memory/decisions/b.md", 1), "Body.\n")
	got, conflict, err := Merge(decisionPath, base, a, b)
	if err != nil || !conflict {
		t.Fatalf("conflict %t, err %v; want a conflict", conflict, err)
	}
	doc := assertParses(t, decisionPath, got)
	wantBody := "<<<<<<< ours\nreplaced_by: memory/decisions/a.md\n=======\nreplaced_by: memory/decisions/b.md\n>>>>>>> theirs\nBody.\n"
	if string(doc.Body()) != wantBody {
		t.Errorf("body %q, want %q", doc.Body(), wantBody)
	}
}

func TestMergeBody(t *testing.T) {
	base := "# T\n\none\ntwo\nthree\nfour\n"
	tests := []struct {
		name, a, b, want string
		conflict         bool
	}{
		{"one side", "# T\n\none\nTWO\nthree\nfour\n", base, "# T\n\none\nTWO\nthree\nfour\n", false},
		{"both, apart", "# T\n\nONE\ntwo\nthree\nfour\n", "# T\n\none\ntwo\nthree\nFOUR\n", "# T\n\nONE\ntwo\nthree\nFOUR\n", false},
		{"both, the same", "# T\n\none\nTWO\nthree\nfour\n", "# T\n\none\nTWO\nthree\nfour\n", "# T\n\none\nTWO\nthree\nfour\n", false},
		{"appended on one, deleted on other", "# T\n\none\ntwo\nthree\nfour\nfive\n", "# T\n\ntwo\nthree\nfour\n", "# T\n\ntwo\nthree\nfour\nfive\n", false},
		{"conflict", "# T\n\none\nTWO-A\nthree\nfour\n", "# T\n\none\nTWO-B\nthree\nfour\n",
			"# T\n\none\n<<<<<<< ours\nTWO-A\n=======\nTWO-B\n>>>>>>> theirs\nthree\nfour\n", true},
		{"conflict at the end without a newline", "# T\n\none\ntwo\nthree\nA", "# T\n\none\ntwo\nthree\nB",
			"# T\n\none\ntwo\nthree\n<<<<<<< ours\nA\n=======\nB\n>>>>>>> theirs\n", true},
	}
	for _, tt := range tests {
		got, conflict, err := Merge(decisionPath, rec(baseFM, base), rec(baseFM, tt.a), rec(baseFM, tt.b))
		if err != nil || conflict != tt.conflict {
			t.Fatalf("%s: conflict %t, err %v; want conflict %t", tt.name, conflict, err, tt.conflict)
		}
		doc := assertParses(t, decisionPath, got)
		if string(doc.Body()) != tt.want {
			t.Errorf("%s: body %q, want %q", tt.name, doc.Body(), tt.want)
		}
		if strings.Contains(string(got[:len(got)-len(doc.Body())]), "<<<<<<<") {
			t.Errorf("%s: markers in the frontmatter:\n%s", tt.name, got)
		}
	}
}

func TestMergeCRLF(t *testing.T) {
	crlf := func(s string) []byte { return []byte(strings.ReplaceAll(s, "\n", "\r\n")) }
	base := crlf(string(rec(baseFM, "one\ntwo\n")))
	a := crlf(string(rec(strings.Replace(baseFM, "status: open", "status: resolved", 1), "one\ntwo\n")))
	b := crlf(string(rec(strings.Replace(baseFM, "s1, range: [1, 2]}\n", "s1, range: [1, 2]}\n  - {session_id: s2, range: [3, 4]}\n", 1), "ONE\ntwo\n")))
	want := crlf(string(rec(strings.Replace(strings.Replace(baseFM, "status: open", "status: resolved", 1), "s1, range: [1, 2]}\n", "s1, range: [1, 2]}\n  - {session_id: s2, range: [3, 4]}\n", 1), "ONE\ntwo\n")))
	got, conflict, err := Merge(decisionPath, base, a, b)
	if err != nil || conflict {
		t.Fatalf("conflict %t, err %v", conflict, err)
	}
	if string(got) != string(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// A conflict in a CRLF file has CRLF markers.
	got, conflict, _ = Merge(decisionPath, crlf(string(rec(baseFM, "x\n"))), crlf(string(rec(baseFM, "a\n"))), crlf(string(rec(baseFM, "b\n"))))
	if !conflict || !strings.Contains(string(got), "<<<<<<< ours\r\na\r\n=======\r\nb\r\n>>>>>>> theirs\r\n") {
		t.Errorf("conflict %t, got %q", conflict, got)
	}
}

func TestMergeUnreadableSideIsText(t *testing.T) {
	base := []byte("no frontmatter\nline\n")
	got, conflict, err := Merge(decisionPath, base, []byte("no frontmatter\nLINE A\n"), []byte("no frontmatter\nLINE B\n"))
	if err != nil || !conflict {
		t.Fatalf("conflict %t, err %v", conflict, err)
	}
	if !strings.Contains(string(got), "<<<<<<< ours\nLINE A\n=======\nLINE B\n>>>>>>> theirs\n") {
		t.Errorf("got %q", got)
	}
}

func assertParses(t *testing.T, path string, b []byte) *record.Document {
	t.Helper()
	doc, err := record.Parse(b)
	if err != nil {
		t.Fatalf("%s: merged record does not parse: %v\n%s", path, err, b)
	}
	return doc
}
