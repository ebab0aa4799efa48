package sharedperm

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		value   string
		noValue bool
		want    Perm
		err     string
	}{
		{noValue: true, want: Group},
		{value: "", want: Umask},
		{value: "umask", want: Umask},
		{value: "group", want: Group},
		{value: "all", want: Everybody},
		{value: "world", want: Everybody},
		{value: "everybody", want: Everybody},
		{value: "0", want: Umask},
		{value: "1", want: Group},
		{value: "2", want: Everybody},
		{value: "00", want: Umask},
		{value: "true", want: Group},
		{value: "Yes", want: Group},
		{value: "on", want: Group},
		{value: "false", want: Umask},
		{value: "off", want: Umask},
		{value: "no", want: Umask},
		{value: "0x10", want: Group},  // not octal: git's bool reading takes it as the number 16
		{value: "0640", want: -0o640}, // a mode: exactly it, the x bits dropped
		{value: "0660", want: -0o660},
		{value: "0777", want: -0o666}, // the x bits are git's to set, per file
		{value: "644", want: -0o644},
		{value: "0440", err: "owner of files must always have read and write"},
		{value: "Group", err: "not a valid value"}, // git compares the names case-sensitively
		{value: "maybe", err: "not a valid value"},
		{value: "8", want: Group}, // not octal, but a number: true
	}
	for _, tt := range tests {
		got, err := Parse(tt.value, tt.noValue)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", tt.value, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q, %v) = %#o, %v; want %#o", tt.value, tt.noValue, got, err, tt.want)
		}
	}
}

// The expected modes are git's (path.c calc_shared_perm, adjust_shared_perm)
// worked by hand for the modes files and directories are created with
// under the umasks 022 and 077.
func TestMode(t *testing.T) {
	dir := fs.ModeDir
	tests := []struct {
		perm Perm
		old  fs.FileMode
		want fs.FileMode
	}{
		{Umask, 0o400, 0o400},
		{Umask, dir | 0o700, dir | 0o700},
		{Group, 0o400, 0o440}, // an object (0444) under umask 077
		{Group, 0o444, 0o444}, // umask 022
		{Group, 0o600, 0o660}, // a ref
		{Group, 0o644, 0o664}, // a ref under umask 022: others keep read
		{Group, dir | 0o700, dir | 0o770 | fs.ModeSetgid},
		{Group, dir | 0o755, dir | 0o775 | fs.ModeSetgid},
		{Everybody, 0o400, 0o444},
		{Everybody, 0o600, 0o664},
		{Everybody, dir | 0o700, dir | 0o775 | fs.ModeSetgid},
		{-0o640, 0o400, 0o440},
		{-0o640, 0o644, 0o640}, // exactly the mode: others lose read
		{-0o640, 0o600, 0o640},
		{-0o640, dir | 0o700, dir | 0o750 | fs.ModeSetgid},
		{-0o600, dir | 0o755, dir | 0o700}, // no group access: no setgid
		{-0o604, dir | 0o700, dir | 0o705},
		{-0o660, 0o755, 0o770}, // an executable file gets x where it gets r
	}
	for _, tt := range tests {
		if got := tt.perm.mode(tt.old, true); got != tt.want {
			t.Errorf("%#o.mode(%v) = %v, want %v", int(tt.perm), tt.old, got, tt.want)
		}
	}
}

func group() (Perm, error) { return Group, nil }

// TestOpenAppend: a file created for appending, and the directories
// made for it, are the group's in a shared repository; an existing file
// is appended to without looking at the setting.
func TestOpenAppend(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "log.jsonl")
	f, err := OpenAppend(path, 0o644, group)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one\n")
	f.Close()
	for _, p := range []string{filepath.Join(root, "a"), filepath.Join(root, "a", "b"), path} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", p, fi.Mode())
		}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err = OpenAppend(path, 0o644, func() (Perm, error) { return Umask, errors.New("not read") })
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("two\n")
	f.Close()
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "one\ntwo\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("after a second append: %q, %v", b, fi.Mode())
	}
	// A bad setting stops the creation, naming it.
	_, err = OpenAppend(filepath.Join(root, "c", "x"), 0o644, func() (Perm, error) { return Parse("0400", false) })
	if err == nil || !strings.Contains(err.Error(), Key) {
		t.Errorf("OpenAppend with a bad setting = %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "c")); err == nil {
		t.Error("a directory was made under a bad setting")
	}
}

// TestWriteFile: unshared, a file is replaced with the mode given, as
// atomicfile does; shared, it is born as git's files are (the mode asked
// of open(2), the umask applying) and gets the shared bits: never more
// for others than the mode and the umask allow.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := Umask.WriteFile(path, []byte("a\n"), 0o640, true); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("unshared: %v, want 0640", fi.Mode())
	}
	if err := Group.WriteFile(path, []byte("b\n"), 0o600, false); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "b\n" || fi.Mode().Perm() != 0o660 {
		t.Errorf("shared: %q %v, want 0660", b, fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files left, want 1", len(entries))
	}
}
