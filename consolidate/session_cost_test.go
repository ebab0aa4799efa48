package consolidate

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// TestSessionCostFollowsChanges: a change checked and applied over a
// memory of 10,000 records costs what the change touches, not a copy of
// the memory's listing: 100 updates and adds allocate a few megabytes in
// all, the slugs listed once included (rebuilding the snapshot after
// each change allocated 234 MiB).
func TestSessionCostFollowsChanges(t *testing.T) {
	files := map[string][]byte{"memory/summary.md": []byte(summary)}
	for i := 0; len(files) < 10000; i++ {
		files[fmt.Sprintf("memory/decisions/topic-number-%05d.md", i)] = []byte(decision("resolved", fmt.Sprintf("# Topic %d\nChosen.\n", i), "s0"))
	}
	s := newTestSession(t, func(in *Input) { in.Base = record.MapSnapshot(files) })
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 50; i++ {
		upd := Change{Kind: memlog.OpUpdate, Path: fmt.Sprintf("memory/decisions/topic-number-%05d.md", i*97), Content: []byte(decision("resolved", fmt.Sprintf("# Topic %d\nChosen, again.\n", i*97))), Staging: []string{"e1"}, Reason: "r"}
		add := Change{Kind: memlog.OpAdd, Path: fmt.Sprintf("memory/decisions/new-subject-%02d.md", i), Content: []byte("---\nstatus: open\n---\n# New\n"), Staging: []string{"e2"}, Reason: "r"}
		for _, c := range []Change{upd, add} {
			if _, err := s.Apply(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("100 changes over 10,000 records allocated %.1f MiB", float64(got)/(1<<20))
	if limit := uint64(32 << 20); got > limit {
		t.Fatalf("100 changes over 10,000 records allocated %d MiB, over %d MiB", got>>20, limit>>20)
	}
	if n := len(s.Ops()); n != 100 {
		t.Fatalf("%d operations, want 100", n)
	}
}
