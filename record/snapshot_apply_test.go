package record

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestApplyKeepsOrder: the snapshot after a change set lists its entries
// sorted by path, with puts replacing or adding and deletes removing,
// whatever mix of paths the change set holds.
func TestApplyKeepsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		files := map[string][]byte{}
		for i := 0; i < r.IntN(40); i++ {
			files[fmt.Sprintf("d%d/f%02d.md", r.IntN(3), r.IntN(30))] = []byte("x")
		}
		base := MapSnapshot(files)
		var cs ChangeSet
		want := map[string]bool{}
		for p := range files {
			want[p] = true
		}
		for i := 0; i < r.IntN(10); i++ {
			p := fmt.Sprintf("d%d/f%02d.md", r.IntN(4), r.IntN(30))
			if r.IntN(3) == 0 {
				_ = cs.Put(Change{Op: OpDelete, Path: p})
				delete(want, p)
			} else {
				_ = cs.Put(Change{Path: p, Content: []byte("y")})
				want[p] = true
			}
		}
		// A later change to a path replaces an earlier one in the set.
		for _, c := range cs.Changes() {
			if c.Op == OpDelete {
				delete(want, c.Path)
			} else {
				want[c.Path] = true
			}
		}
		after := base.Apply(&cs)
		var got []string
		for _, e := range after.Entries {
			got = append(got, e.Path)
		}
		wantList := slices.Sorted(func(yield func(string) bool) {
			for p := range want {
				if !yield(p) {
					return
				}
			}
		})
		if !slices.Equal(got, wantList) {
			t.Fatalf("round %d: entries %v, want %v", round, got, wantList)
		}
		for _, p := range wantList {
			if _, ok := after.Lookup(p); !ok {
				t.Fatalf("round %d: Lookup(%s) fails", round, p)
			}
		}
	}
}

// BenchmarkApplyOneChange: one change over 10,000 records, as a
// consolidation session applies each of its changes.
func BenchmarkApplyOneChange(b *testing.B) {
	files := map[string][]byte{}
	for i := 0; i < 10000; i++ {
		files[fmt.Sprintf("knowledge/k%05d.md", i)] = []byte("x")
	}
	base := MapSnapshot(files)
	var cs ChangeSet
	_ = cs.Put(Change{Path: "knowledge/k05000.md", Content: []byte("y")})
	_ = cs.Put(Change{Path: "memory/decisions/new.md", Content: []byte("y")})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = base.Apply(&cs)
	}
}

// TestApplyUnsortedBase: a base whose entries are not sorted still gives
// a sorted result.
func TestApplyUnsortedBase(t *testing.T) {
	base := Snapshot{Entries: []Entry{{Path: "b.md"}, {Path: "a.md"}, {Path: "d.md"}}}
	var cs ChangeSet
	_ = cs.Put(Change{Path: "c.md", Content: []byte("c")})
	_ = cs.Put(Change{Op: OpDelete, Path: "d.md"})
	var got []string
	for _, e := range base.Apply(&cs).Entries {
		got = append(got, e.Path)
	}
	if !slices.Equal(got, []string{"a.md", "b.md", "c.md"}) {
		t.Fatalf("entries %v", got)
	}
}
