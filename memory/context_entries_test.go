package memory

import (
	"errors"
	"reflect"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestContextEntries: Context on the narrowed listing answers as on the
// whole one, a record over the size limit included (an error, never left
// out), and each record is examined once.
func TestContextEntries(t *testing.T) {
	big := &record.TooLargeError{Path: "knowledge/huge.md", Size: 2 << 20, Limit: 1 << 20, Setting: "yoimem.lint.maxFileBytes"}
	for _, tc := range []struct {
		name     string
		tooLarge bool
	}{{"records", false}, {"one over the size limit", true}} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{
				record.SummaryPath:              "---\nupdated: 2026-12-01\n---\nThe summary.\n",
				"knowledge/a.md":                "---\ndescription: when a\nmodel_invokation: true\n---\nA\n",
				"knowledge/b.md":                "---\ndescription: when b\n---\nB\n",
				"knowledge/c.md":                "---\ndescription: \"\"\nmodel_invokation: true\n---\nC\n",
				"knowledge/Bad.md":              "---\ndescription: bad slug\nmodel_invokation: true\n---\nD\n",
				"memory/decisions/d.md":         "---\ndescription: a decision\nmodel_invokation: true\n---\nE\n",
				"knowledge/huge.md":             "---\ndescription: huge\nmodel_invokation: true\n---\nF\n",
				"knowledge/nested/deeper.md":    "---\ndescription: nested\nmodel_invokation: true\n---\nG\n",
				"knowledge/z-last-invocable.md": "---\ndescription: when z\nmodel_invokation: true\n---\nZ\n",
			}
			snap := record.Snapshot{Read: func(p string) ([]byte, error) {
				if c, ok := files[p]; ok {
					return []byte(c), nil
				}
				return nil, record.ErrNotExist
			}}
			for p := range files {
				snap.Entries = append(snap.Entries, record.Entry{Path: p, Mode: record.ModeRegular})
			}
			snap.Sort()
			calls := map[string]int{}
			examine := func(e record.Entry) (Examined, error) {
				calls[e.Path]++
				if tc.tooLarge && e.Path == big.Path {
					return Examined{}, big
				}
				c, err := snap.Read(e.Path)
				if err != nil {
					return Examined{}, err
				}
				return Examine(e.Path, c), nil
			}
			want, wantErr := Context(snap, 0, examine)
			clear(calls)
			narrowed, ex := ContextEntries(snap, examine)
			for range 2 {
				got, err := Context(narrowed, 0, ex)
				if !errors.Is(err, wantErr) || (wantErr != nil) != tc.tooLarge {
					t.Fatalf("err = %v, want %v", err, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("Context on the narrowed listing =\n%+v\nwant\n%+v", got, want)
				}
			}
			for p, n := range calls {
				if n != 1 {
					t.Errorf("%s examined %d times, want once", p, n)
				}
			}
			if len(narrowed.Entries) >= len(snap.Entries) {
				t.Errorf("narrowed to %d of %d entries", len(narrowed.Entries), len(snap.Entries))
			}
		})
	}
}
