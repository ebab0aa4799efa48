package githook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// file is one entry of a hooks directory as the tests see it.
type file struct {
	content string
	mode    fs.FileMode // permission bits of a regular file
	link    string      // symlink target instead of content
	dir     bool
}

func exe(content string) file   { return file{content: content, mode: 0o755} }
func plain(content string) file { return file{content: content, mode: 0o644} }

const (
	foreignHook = "#!/bin/sh\n# the team's own hook\nexec make check\n"
	v0Shim      = "#!/bin/sh\n" + Marker + " v0\nexec git yoimem hook pre-commit\n"
	mentionsUs  = "#!/bin/sh\n# see below\n" + Marker + " v1\nexec true\n"
)

func shim(name string) file { return exe(Shim(name)) }

func writeTree(t *testing.T, dir string, tree map[string]file) {
	t.Helper()
	for name, f := range tree {
		p := filepath.Join(dir, name)
		var err error
		switch {
		case f.dir:
			err = os.MkdirAll(p, 0o755)
		case f.link != "":
			err = os.Symlink(f.link, p)
		default:
			if err = os.WriteFile(p, []byte(f.content), f.mode); err == nil {
				err = os.Chmod(p, f.mode) // umask
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func readTree(t *testing.T, dir string) map[string]file {
	t.Helper()
	tree := map[string]file{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return tree
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case fi.IsDir():
			tree[e.Name()] = file{dir: true}
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				t.Fatal(err)
			}
			tree[e.Name()] = file{link: target}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			tree[e.Name()] = file{content: string(b), mode: fi.Mode().Perm()}
		}
	}
	return tree
}

func diffTree(t *testing.T, got, want map[string]file) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: missing", name)
		case g != w:
			t.Errorf("%s:\n got %+v\nwant %+v", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected file %+v", name, got[name])
		}
	}
}

func actions(rs []ShimResult) map[string]Action {
	m := map[string]Action{}
	for _, r := range rs {
		m[r.Hook] = r.Action
	}
	return m
}

func copyTree(tree map[string]file) map[string]file {
	c := map[string]file{}
	for k, v := range tree {
		c[k] = v
	}
	return c
}

func TestInstall(t *testing.T) {
	tests := []struct {
		name    string
		before  map[string]file
		noDir   bool // the hooks directory does not exist yet
		chain   bool
		want    map[string]Action
		wantErr error
		errList []string // hook files named by the error
		after   map[string]file
	}{
		{
			name:   "empty dir",
			before: map[string]file{},
			want:   map[string]Action{"pre-commit": Installed, "pre-push": Installed},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
		{
			name:  "missing dir is created",
			noDir: true,
			want:  map[string]Action{"pre-commit": Installed, "pre-push": Installed},
			after: map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
		{
			name:   "samples are left alone",
			before: map[string]file{"pre-commit.sample": exe("#!/bin/sh\n"), "pre-push.sample": exe("#!/bin/sh\n")},
			want:   map[string]Action{"pre-commit": Installed, "pre-push": Installed},
			after: map[string]file{
				"pre-commit.sample": exe("#!/bin/sh\n"), "pre-push.sample": exe("#!/bin/sh\n"),
				"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push"),
			},
		},
		{
			name:   "current shims are unchanged",
			before: map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
			want:   map[string]Action{"pre-commit": Unchanged, "pre-push": Unchanged},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
		{
			name:   "older shim is upgraded",
			before: map[string]file{"pre-commit": exe(v0Shim)},
			want:   map[string]Action{"pre-commit": Upgraded, "pre-push": Installed},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
		{
			name:   "edited shim with CRLF is still ours",
			before: map[string]file{"pre-push": exe("#!/bin/sh\r\n" + Marker + " v1\r\nexec true\r\n")},
			want:   map[string]Action{"pre-commit": Installed, "pre-push": Upgraded},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
		{
			name:   "non-executable shim is rewritten executable",
			before: map[string]file{"pre-commit": plain(Shim("pre-commit")), "pre-push": shim("pre-push")},
			want:   map[string]Action{"pre-commit": Upgraded, "pre-push": Unchanged},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
		{
			name:    "foreign hook refused, nothing written",
			before:  map[string]file{"pre-commit": exe(foreignHook)},
			wantErr: ErrForeignHook,
			errList: []string{"pre-commit"},
			after:   map[string]file{"pre-commit": exe(foreignHook)},
		},
		{
			name:    "every foreign hook is named",
			before:  map[string]file{"pre-commit": exe(foreignHook), "pre-push": exe(foreignHook + "# push\n")},
			wantErr: ErrForeignHook,
			errList: []string{"pre-commit", "pre-push"},
			after:   map[string]file{"pre-commit": exe(foreignHook), "pre-push": exe(foreignHook + "# push\n")},
		},
		{
			name:    "older shim is not upgraded when another hook is foreign",
			before:  map[string]file{"pre-commit": exe(v0Shim), "pre-push": exe(foreignHook)},
			wantErr: ErrForeignHook,
			errList: []string{"pre-push"},
			after:   map[string]file{"pre-commit": exe(v0Shim), "pre-push": exe(foreignHook)},
		},
		{
			name:    "non-executable foreign hook is foreign",
			before:  map[string]file{"pre-push": plain(foreignHook)},
			wantErr: ErrForeignHook,
			errList: []string{"pre-push"},
			after:   map[string]file{"pre-push": plain(foreignHook)},
		},
		{
			name:    "empty file is foreign",
			before:  map[string]file{"pre-commit": exe("")},
			wantErr: ErrForeignHook,
			errList: []string{"pre-commit"},
			after:   map[string]file{"pre-commit": exe("")},
		},
		{
			name:    "marker below the second line is not ours",
			before:  map[string]file{"pre-commit": exe(mentionsUs)},
			wantErr: ErrForeignHook,
			errList: []string{"pre-commit"},
			after:   map[string]file{"pre-commit": exe(mentionsUs)},
		},
		{
			name:    "symlink is foreign even to a shim",
			before:  map[string]file{"real": shim("pre-commit"), "pre-commit": {link: "real"}},
			wantErr: ErrForeignHook,
			errList: []string{"pre-commit"},
			after:   map[string]file{"real": shim("pre-commit"), "pre-commit": {link: "real"}},
		},
		{
			name:    "directory is foreign",
			before:  map[string]file{"pre-push": {dir: true}},
			wantErr: ErrForeignHook,
			errList: []string{"pre-push"},
			after:   map[string]file{"pre-push": {dir: true}},
		},
		{
			name:   "chain keeps the foreign hook as .yoimem-prev",
			before: map[string]file{"pre-commit": exe(foreignHook)},
			chain:  true,
			want:   map[string]Action{"pre-commit": Chained, "pre-push": Installed},
			after: map[string]file{
				"pre-commit": shim("pre-commit"), "pre-commit.yoimem-prev": exe(foreignHook),
				"pre-push": shim("pre-push"),
			},
		},
		{
			name:   "chain keeps a non-executable hook as it is",
			before: map[string]file{"pre-push": plain(foreignHook)},
			chain:  true,
			want:   map[string]Action{"pre-commit": Installed, "pre-push": Chained},
			after: map[string]file{
				"pre-commit": shim("pre-commit"),
				"pre-push":   shim("pre-push"), "pre-push.yoimem-prev": plain(foreignHook),
			},
		},
		{
			name:   "chain moves a symlink, not its target",
			before: map[string]file{"real": exe(foreignHook), "pre-commit": {link: "real"}},
			chain:  true,
			want:   map[string]Action{"pre-commit": Chained, "pre-push": Installed},
			after: map[string]file{
				"real": exe(foreignHook), "pre-commit.yoimem-prev": {link: "real"},
				"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push"),
			},
		},
		{
			name:    "chain refuses to overwrite a foreign .yoimem-prev",
			before:  map[string]file{"pre-commit": exe(foreignHook), "pre-commit.yoimem-prev": exe("#!/bin/sh\necho older\n")},
			chain:   true,
			wantErr: ErrPrevExists,
			errList: []string{"pre-commit.yoimem-prev"},
			after:   map[string]file{"pre-commit": exe(foreignHook), "pre-commit.yoimem-prev": exe("#!/bin/sh\necho older\n")},
		},
		{
			name:   "chain replaces a stray shim under .yoimem-prev",
			before: map[string]file{"pre-commit": exe(foreignHook), "pre-commit.yoimem-prev": exe(v0Shim)},
			chain:  true,
			want:   map[string]Action{"pre-commit": Chained, "pre-push": Installed},
			after: map[string]file{
				"pre-commit": shim("pre-commit"), "pre-commit.yoimem-prev": exe(foreignHook),
				"pre-push": shim("pre-push"),
			},
		},
		{
			name:   "already chained is unchanged",
			before: map[string]file{"pre-commit": shim("pre-commit"), "pre-commit.yoimem-prev": exe(foreignHook), "pre-push": shim("pre-push")},
			chain:  true,
			want:   map[string]Action{"pre-commit": Unchanged, "pre-push": Unchanged},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-commit.yoimem-prev": exe(foreignHook), "pre-push": shim("pre-push")},
		},
		{
			name:   "chain with nothing foreign just installs",
			before: map[string]file{},
			chain:  true,
			want:   map[string]Action{"pre-commit": Installed, "pre-push": Installed},
			after:  map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks")
			if !tt.noDir {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				writeTree(t, dir, tt.before)
			}
			results, err := Install(dir, Options{Chain: tt.chain})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if results != nil {
					t.Errorf("results on refusal: %v", results)
				}
				var paths []string
				var fe *ForeignHookError
				var pe *PrevExistsError
				switch {
				case errors.As(err, &fe):
					paths = fe.Paths
				case errors.As(err, &pe):
					paths = pe.Paths
				}
				var want []string
				for _, n := range tt.errList {
					want = append(want, filepath.Join(dir, n))
				}
				if !reflect.DeepEqual(paths, want) {
					t.Errorf("error paths = %v, want %v", paths, want)
				}
				for _, p := range want {
					if !strings.Contains(err.Error(), p) {
						t.Errorf("error %q does not name %s", err, p)
					}
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if got := actions(results); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("actions = %v, want %v", got, tt.want)
				}
				for _, r := range results {
					if r.Path != filepath.Join(dir, r.Hook) {
						t.Errorf("%s: path %s", r.Hook, r.Path)
					}
				}
			}
			diffTree(t, readTree(t, dir), tt.after)
		})
	}
}

func TestUninstall(t *testing.T) {
	tests := []struct {
		name   string
		before map[string]file
		noDir  bool
		want   map[string]Action
		after  map[string]file
	}{
		{
			name:   "nothing installed",
			before: map[string]file{"pre-commit.sample": exe("#!/bin/sh\n")},
			want:   map[string]Action{},
			after:  map[string]file{"pre-commit.sample": exe("#!/bin/sh\n")},
		},
		{
			name:  "missing dir",
			noDir: true,
			want:  map[string]Action{},
			after: map[string]file{},
		},
		{
			name:   "shims are removed",
			before: map[string]file{"pre-commit": shim("pre-commit"), "pre-push": shim("pre-push")},
			want:   map[string]Action{"pre-commit": Removed, "pre-push": Removed},
			after:  map[string]file{},
		},
		{
			name:   "older and non-executable shims are removed",
			before: map[string]file{"pre-commit": exe(v0Shim), "pre-push": plain(Shim("pre-push"))},
			want:   map[string]Action{"pre-commit": Removed, "pre-push": Removed},
			after:  map[string]file{},
		},
		{
			name:   "chained hook is restored",
			before: map[string]file{"pre-commit": shim("pre-commit"), "pre-commit.yoimem-prev": exe(foreignHook), "pre-push": shim("pre-push")},
			want:   map[string]Action{"pre-commit": Restored, "pre-push": Removed},
			after:  map[string]file{"pre-commit": exe(foreignHook)},
		},
		{
			name:   "chained hook whose shim was deleted is restored",
			before: map[string]file{"pre-push.yoimem-prev": plain(foreignHook)},
			want:   map[string]Action{"pre-push": Restored},
			after:  map[string]file{"pre-push": plain(foreignHook)},
		},
		{
			name:   "foreign hook is kept",
			before: map[string]file{"pre-commit": exe(foreignHook), "pre-push": shim("pre-push")},
			want:   map[string]Action{"pre-commit": Kept, "pre-push": Removed},
			after:  map[string]file{"pre-commit": exe(foreignHook)},
		},
		{
			name:   "foreign hook in front of a chained one: both kept",
			before: map[string]file{"pre-commit": exe(foreignHook), "pre-commit.yoimem-prev": exe(mentionsUs)},
			want:   map[string]Action{"pre-commit": Kept},
			after:  map[string]file{"pre-commit": exe(foreignHook), "pre-commit.yoimem-prev": exe(mentionsUs)},
		},
		{
			name:   "symlink to a shim is kept",
			before: map[string]file{"real": shim("pre-commit"), "pre-commit": {link: "real"}},
			want:   map[string]Action{"pre-commit": Kept},
			after:  map[string]file{"real": shim("pre-commit"), "pre-commit": {link: "real"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks")
			if !tt.noDir {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				writeTree(t, dir, tt.before)
			}
			results, err := Uninstall(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := actions(results); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("actions = %v, want %v", got, tt.want)
			}
			diffTree(t, readTree(t, dir), tt.after)
			if tt.noDir {
				if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Uninstall created %s", dir)
				}
			}
			// again: only foreign hooks are reported, nothing changes
			results, err = Uninstall(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if r.Action != Kept {
					t.Errorf("second uninstall: %s %s", r.Action, r.Hook)
				}
			}
			diffTree(t, readTree(t, dir), tt.after)
		})
	}
}

// TestRoundTrip: install (chaining whatever is there), install again, and
// uninstall twice leave the hooks directory exactly as it was.
func TestRoundTrip(t *testing.T) {
	starts := map[string]map[string]file{
		"empty":                {},
		"samples":              {"pre-commit.sample": exe("#!/bin/sh\n"), "pre-push.sample": exe("#!/bin/sh\nexit 1\n")},
		"foreign pre-commit":   {"pre-commit": exe(foreignHook)},
		"both foreign":         {"pre-commit": exe(foreignHook), "pre-push": plain("#!/usr/bin/env bash\nread -r x\n")},
		"foreign symlink":      {"shared": exe(foreignHook), "pre-push": {link: "shared"}},
		"foreign empty hook":   {"pre-commit": plain("")},
		"unrelated prev files": {"post-commit.yoimem-prev": exe(foreignHook)},
	}
	for name, start := range starts {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeTree(t, dir, start)
			if _, err := Install(dir, Options{Chain: true}); err != nil {
				t.Fatal(err)
			}
			installed := readTree(t, dir)
			results, err := Install(dir, Options{Chain: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if r.Action != Unchanged {
					t.Errorf("second install: %s %s", r.Action, r.Hook)
				}
			}
			// and without --chain too: the chained state is ours now
			if _, err := Install(dir, Options{}); err != nil {
				t.Fatalf("install without chain after chaining: %v", err)
			}
			diffTree(t, readTree(t, dir), installed)
			for range 2 {
				if _, err := Uninstall(dir); err != nil {
					t.Fatal(err)
				}
				diffTree(t, readTree(t, dir), copyTree(start))
			}
		})
	}
}

func TestShimText(t *testing.T) {
	for _, name := range Names() {
		s := Shim(name)
		lines := strings.Split(s, "\n")
		checks := []struct {
			what string
			ok   bool
		}{
			{"shebang first", lines[0] == "#!/bin/sh"},
			{"marker line with version second", strings.HasPrefix(lines[1], Marker+" v2 — managed by 'git yoimem install'")},
			{"PATH check names the hook", strings.Contains(s, `command -v git-yoimem >/dev/null 2>&1 || { echo "git-yoimem: not found on PATH; the `+name+` hook needs it`)},
			{"ends with exec of the hook", strings.HasSuffix(s, "\nexec git-yoimem hook "+name+" \"$@\"\n")},
			{"recognised as ours", isShim([]byte(s))},
			{"stdin copy only for pre-push", strings.Contains(s, "mktemp") == (name == "pre-push")},
		}
		for _, c := range checks {
			if !c.ok {
				t.Errorf("%s shim: %s:\n%s", name, c.what, s)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	fe := &ForeignHookError{Paths: []string{"/r/.git/hooks/pre-commit", "/r/.git/hooks/pre-push"}}
	var err error = fe
	if !errors.Is(err, ErrForeignHook) || errors.Is(err, ErrPrevExists) {
		t.Errorf("errors.Is wrong for %v", err)
	}
	if got, want := err.Error(), "a hook that git-yoimem did not write is in the way: /r/.git/hooks/pre-commit, /r/.git/hooks/pre-push"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	pe := &PrevExistsError{Paths: []string{"/r/.git/hooks/pre-push.yoimem-prev"}}
	err = pe
	if !errors.Is(err, ErrPrevExists) || errors.Is(err, ErrForeignHook) {
		t.Errorf("errors.Is wrong for %v", err)
	}
	if !strings.HasSuffix(err.Error(), ": /r/.git/hooks/pre-push.yoimem-prev") {
		t.Errorf("Error() = %q", err)
	}
}
