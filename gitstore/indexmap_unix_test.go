//go:build unix

package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestIndexCutShortWhileMapped: an index file cut short under the
// hook's mapping (git renames a new index over the old one; another tool
// might write it in place) is an error that sends the hook to git, not a
// SIGBUS that kills it.
func TestIndexCutShortWhileMapped(t *testing.T) {
	file := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(file, make([]byte, 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	b, release, err := mapIndex(file)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(file, 0); err != nil {
		t.Fatal(err)
	}
	var sum byte
	err = whileMapped(file, func() error {
		for i := 0; i < len(b); i += 4096 {
			sum += b[i]
		}
		return nil
	})
	if !errors.Is(err, errIndexFormat) {
		t.Fatalf("reading the cut mapping: %v (sum %d), want errIndexFormat", err, sum)
	}
}

// TestWhileMappedKeepsOtherPanics: only memory faults become errors; a
// bug's panic is not hidden.
func TestWhileMappedKeepsOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "bug" {
			t.Fatalf("recovered %v, want the panic passed on", r)
		}
	}()
	_ = whileMapped("index", func() error { panic("bug") })
}
