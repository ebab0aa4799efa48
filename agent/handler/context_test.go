package handler

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// memSnapshot is a snapshot of files held in memory.
func memSnapshot(files map[string]string) record.Snapshot {
	var snap record.Snapshot
	for p, c := range files {
		snap.Entries = append(snap.Entries, record.Entry{Path: p, Mode: record.ModeRegular, Size: int64(len(c))})
	}
	sort.Slice(snap.Entries, func(i, j int) bool { return snap.Entries[i].Path < snap.Entries[j].Path })
	snap.Read = func(p string) ([]byte, error) {
		c, ok := files[p]
		if !ok {
			return nil, record.ErrNotExist
		}
		return []byte(c), nil
	}
	return snap
}

// TestAlwaysOnExaminesEachRecordOnce: SessionStart's context, however
// many rounds fitting it to the cap takes (and when the summary alone is
// over it), examines each record once, and answers exactly what
// memory.Context answers on the whole listing.
func TestAlwaysOnExaminesEachRecordOnce(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		summary               int // lines of summary
		invocable, plain      int
		budget, limit         int
		wantCut, wantIncluded bool
	}{
		{name: "everything fits", summary: 3, invocable: 5, plain: 20, budget: 24000, limit: 10000, wantIncluded: true},
		{name: "descriptions over the cap", summary: 3, invocable: 200, plain: 50, budget: 24000, limit: 3000, wantIncluded: true},
		{name: "summary alone over the cap", summary: 400, invocable: 50, plain: 50, budget: 24000, limit: 2000, wantCut: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{record.SummaryPath: summary(strings.Repeat("The summary says something useful here.\n", tc.summary))}
			for i := range tc.invocable {
				files[fmt.Sprintf("knowledge/inv-%03d.md", i)] = knowledge(fmt.Sprintf("when you touch part %d of the retry loop", i), "body")
			}
			for i := range tc.plain {
				files[fmt.Sprintf("knowledge/plain-%03d.md", i)] = "---\ndescription: not invocable\n---\nbody\n"
			}
			files["knowledge/Bad_Slug.md"] = knowledge("a bad slug", "body")
			snap := memSnapshot(files)
			calls := map[string]int{}
			examine := func(e record.Entry) (memory.Examined, error) {
				calls[e.Path]++
				c, err := snap.Read(e.Path)
				if err != nil {
					return memory.Examined{}, err
				}
				return memory.Examine(e.Path, c), nil
			}
			res, cut, err := alwaysOn(snap, min(tc.budget, tc.limit), examine)
			if err != nil {
				t.Fatal(err)
			}
			for p, n := range calls {
				if n > 1 {
					t.Errorf("%s examined %d times", p, n)
				}
			}
			if (cut != nil) != tc.wantCut {
				t.Fatalf("cut = %v, want a cut: %v", cut, tc.wantCut)
			}
			// the reference: memory.Context on the whole listing, as before
			var want memory.ContextResult
			if tc.wantCut {
				want, err = memory.Context(snap, 0, nil)
			} else {
				want, err = memory.Context(snap, min(tc.budget, tc.limit), nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res, want) {
				t.Errorf("alwaysOn =\n%+v\nwant\n%+v", res, want)
			}
			if tc.wantIncluded && len(res.Included) == 0 {
				t.Error("no description included")
			}
		})
	}
}
