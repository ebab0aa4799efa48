package record

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOverlayMatchesApply: an overlay built change set by change set
// answers Lookup, ReadFile, Scan and Snapshot as the base with every
// change set applied in turn does, on random snapshots and change sets;
// an overlay is not changed by the ones built on it.
func TestOverlayMatchesApply(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	path := func() string { return fmt.Sprintf("d%d/f%02d.md", r.IntN(4), r.IntN(20)) }
	for round := 0; round < 300; round++ {
		files := map[string][]byte{}
		for i := 0; i < r.IntN(40); i++ {
			files[path()] = []byte("base " + path())
		}
		base := MapSnapshot(files)
		if round%5 == 0 { // a base out of path order
			slices.Reverse(base.Entries)
		}
		ov := NewOverlay(base)
		want := base.Apply(&ChangeSet{})
		var history []*Overlay
		var wants []Snapshot
		for step := 0; step < 1+r.IntN(6); step++ {
			var cs ChangeSet
			for i := 0; i < r.IntN(6); i++ {
				if r.IntN(3) == 0 {
					_ = cs.Put(Change{Op: OpDelete, Path: path()})
				} else {
					_ = cs.Put(Change{Path: path(), Content: []byte(fmt.Sprintf("step %d.%d", step, i))})
				}
			}
			history, wants = append(history, ov), append(wants, want)
			ov, want = ov.With(&cs), want.Apply(&cs)
			checkOverlay(t, fmt.Sprintf("round %d step %d", round, step), ov, want)
		}
		for i := range history {
			checkOverlay(t, fmt.Sprintf("round %d, overlay %d after later ones", round, i), history[i], wants[i])
		}
	}
}

func checkOverlay(t *testing.T, name string, ov *Overlay, want Snapshot) {
	t.Helper()
	got := ov.Snapshot()
	if !slices.Equal(got.Entries, want.Entries) {
		t.Fatalf("%s: Snapshot entries %v, want %v", name, got.Entries, want.Entries)
	}
	for d := -1; d < 5; d++ {
		prefix := fmt.Sprintf("d%d/", d)
		if d < 0 {
			prefix = ""
		}
		var scanned, listed []Entry
		ov.Scan(prefix, func(e Entry) bool { scanned = append(scanned, e); return true })
		for _, e := range want.Entries {
			if strings.HasPrefix(e.Path, prefix) {
				listed = append(listed, e)
			}
		}
		if !slices.Equal(scanned, listed) {
			t.Fatalf("%s: Scan(%q) = %v, want %v", name, prefix, scanned, listed)
		}
	}
	for d := 0; d < 5; d++ {
		for f := 0; f < 20; f++ {
			p := fmt.Sprintf("d%d/f%02d.md", d, f)
			ge, gok := ov.Lookup(p)
			we, wok := want.Lookup(p)
			if ge != we || gok != wok {
				t.Fatalf("%s: Lookup(%s) = %v %v, want %v %v", name, p, ge, gok, we, wok)
			}
			gb, gerr := ov.ReadFile(p)
			wb, werr := want.Read(p)
			if string(gb) != string(wb) || (gerr == nil) != (werr == nil) || errors.Is(gerr, ErrNotExist) != errors.Is(werr, ErrNotExist) {
				t.Fatalf("%s: ReadFile(%s) = %q %v, want %q %v", name, p, gb, gerr, wb, werr)
			}
		}
	}
}

// TestOverlayStopsScan: Scan stops when fn says so.
func TestOverlayStopsScan(t *testing.T) {
	ov := NewOverlay(MapSnapshot(map[string][]byte{"a.md": nil, "b.md": nil}))
	var cs ChangeSet
	_ = cs.Put(Change{Path: "c.md", Content: []byte("c")})
	ov = ov.With(&cs)
	var seen []string
	ov.Scan("", func(e Entry) bool { seen = append(seen, e.Path); return len(seen) < 2 })
	if !slices.Equal(seen, []string{"a.md", "b.md"}) {
		t.Fatalf("Scan visited %v, want it to stop after b.md", seen)
	}
}

// TestOverlayMemo: a value derived from the base is built once for all
// the overlays over it, and again for another base.
func TestOverlayMemo(t *testing.T) {
	builds := 0
	build := func(base Snapshot) any { builds++; return len(base.Entries) }
	ov := NewOverlay(MapSnapshot(map[string][]byte{"a.md": nil, "b.md": nil}))
	var cs ChangeSet
	_ = cs.Put(Change{Path: "c.md", Content: []byte("c")})
	later := ov.With(&cs).With(&cs)
	for _, o := range []*Overlay{ov, later, ov.With(&cs)} {
		if got := o.Memo("n", build); got != 2 {
			t.Fatalf("Memo = %v, want the base's 2 entries", got)
		}
	}
	if builds != 1 {
		t.Fatalf("built %d times, want once", builds)
	}
	if got := NewOverlay(MapSnapshot(nil)).Memo("n", build); got != 0 || builds != 2 {
		t.Fatalf("another base: Memo = %v after %d builds, want 0 after 2", got, builds)
	}
}
