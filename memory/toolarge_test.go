package memory

import (
	"errors"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// limitedSnapshot is a snapshot whose reads refuse the files of tooBig,
// as the working tree's does past yoimem.lint.maxFileBytes.
func limitedSnapshot(files map[string][]byte, tooBig ...string) record.Snapshot {
	snap := record.MapSnapshot(files)
	read := snap.Read
	snap.Read = func(p string) ([]byte, error) {
		for _, b := range tooBig {
			if p == b {
				return nil, &record.TooLargeError{Path: p, Size: 1734112, Limit: 1 << 20, Setting: "yoimem.lint.maxFileBytes"}
			}
		}
		return read(p)
	}
	return snap
}

func isTooLarge(err error, path string) bool {
	var tl *record.TooLargeError
	return errors.As(err, &tl) && tl.Path == path && tl.Size == 1734112
}

// TestReadsOverTheLimit: a record over the size limit is never used cut,
// nor dropped without a word: a search names it as skipped with the
// reason, and what needs that one record (a slug, the context, #slug)
// fails with the refusal.
func TestReadsOverTheLimit(t *testing.T) {
	const big = "knowledge/big.md"
	files := map[string][]byte{
		"memory/summary.md":         []byte("---\nupdated_at: " + ts + "\n---\n# Summary\n"),
		big:                         []byte(knowledge("rule", "Big and retried", true, "retry\n")),
		"knowledge/retry-policy.md": []byte(knowledge("rule", "How to retry", true, "retry\n")),
	}
	snap := limitedSnapshot(files, big)

	res, err := Search(snap, ScopeKnowledge, Query{Text: "retry"}, Options{})
	if err != nil || slugs(res.Hits) != "retry-policy" {
		t.Fatalf("search = %v, %v", slugs(res.Hits), err)
	}
	skipped := res.Skipped
	if len(skipped) != 1 || skipped[0].Path != record.DisplayPath(big) || skipped[0].Reason != "1,734,112 bytes, over the limit of 1,048,576 (yoimem.lint.maxFileBytes)" {
		t.Errorf("skipped = %+v", skipped)
	}
	if _, err := Search(snap, ScopeKnowledge, Query{Slug: "big"}, Options{}); !isTooLarge(err, big) {
		t.Errorf("search by slug = %v, want the refusal by size", err)
	}

	if _, err := Context(snap, 0, nil); !isTooLarge(err, big) {
		t.Errorf("context with an invocable record over the limit = %v, want the refusal", err)
	}
	if _, err := Context(limitedSnapshot(files, record.SummaryPath), 0, nil); !isTooLarge(err, record.SummaryPath) {
		t.Errorf("context with a summary over the limit = %v, want the refusal", err)
	}

	if _, err := Expand(snap, []byte("see #retry-policy and #big")); !isTooLarge(err, big) {
		t.Errorf("expand = %v, want the refusal", err)
	}
	ex, err := Expand(snap, []byte("see #retry-policy"))
	if err != nil || len(ex.Expanded) != 1 {
		t.Errorf("expand = %+v, %v", ex, err)
	}
}
