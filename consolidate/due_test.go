package consolidate

import (
	"os"
	"path/filepath"
	"testing"
)

func writeTestFile(t *testing.T, dir, name string, size int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDue counts staging entries (<id>.json) only: not the lock, its
// guard, an extract's temporary file, a directory or a symlink.
func TestDue(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "0194d29f-0c00-7000-8000-000000000001.json", 100)
	writeTestFile(t, dir, "0194d29f-0c00-7000-8000-000000000002.json", 300)
	writeTestFile(t, dir, LockName, 5000)
	writeTestFile(t, dir, guardName, 0)
	writeTestFile(t, dir, ".0194d29f-0c00-7000-8000-000000000003.json.tmp-123", 5000)
	writeTestFile(t, dir, "notes.txt", 5000)
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		files int
		bytes int64
		due   bool
	}{
		{"count reached", 2, 1 << 20, true},
		{"bytes reached", 10, 400, true},
		{"neither", 3, 401, false},
		{"count off", 0, 401, false},
		{"bytes off", 3, 0, false},
		{"both off", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Due(dir, tt.files, tt.bytes)
			if err != nil {
				t.Fatal(err)
			}
			if b.Files != 2 || b.Bytes != 400 || b.Due != tt.due {
				t.Fatalf("Due(%d, %d) = %+v, want 2 files, 400 bytes, due %v", tt.files, tt.bytes, b, tt.due)
			}
		})
	}
}

func TestDueEmpty(t *testing.T) {
	for name, dir := range map[string]string{"missing": filepath.Join(t.TempDir(), "nope"), "empty": t.TempDir()} {
		b, err := Due(dir, 1, 1)
		if err != nil || b.Due || b.Files != 0 {
			t.Errorf("%s: Due = %+v, %v; want nothing due", name, b, err)
		}
	}
	file := filepath.Join(t.TempDir(), "f")
	writeTestFile(t, filepath.Dir(file), "f", 1)
	if _, err := Due(file, 1, 1); err == nil {
		t.Error("Due of a file that is not a directory: no error")
	}
}
