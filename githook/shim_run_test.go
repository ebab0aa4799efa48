package githook

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The shims are run for real: git runs them through their #!/bin/sh line,
// and every POSIX shell found here runs them too. git and git-yoimem are
// fakes that record what they were given.

// recorder writes its arguments, one a line, and its stdin into $REC, then
// exits with the status in the variable named by its second line.
func recorder(prefix, exitVar string) string {
	return fmt.Sprintf(`#!/bin/sh
printf '%%s\n' "$@" >"$REC/%[1]s-args"
cat >"$REC/%[1]s-stdin"
exit "${%[2]s:-0}"
`, prefix, exitVar)
}

// shells returns how to run a hook: directly as git does, and with each
// POSIX shell that is installed.
func shells(t *testing.T) map[string][]string {
	m := map[string][]string{"exec": nil}
	for name, argv := range map[string][]string{
		"sh":         {"sh"},
		"dash":       {"dash"},
		"bash-posix": {"bash", "--posix"},
		"busybox":    {"busybox", "sh"},
	} {
		p, err := exec.LookPath(argv[0])
		if err != nil {
			t.Logf("%s not installed: not tested", argv[0])
			continue
		}
		m[name] = append([]string{p}, argv[1:]...)
	}
	return m
}

// sandbox is a hooks directory (with a space in its path), a PATH with
// the fake git, a record directory and a private TMPDIR.
type sandbox struct {
	hooks, bin, rec, tmp string
}

func newSandbox(t *testing.T, withYoimem bool) sandbox {
	t.Helper()
	root := t.TempDir()
	s := sandbox{
		hooks: filepath.Join(root, "repo with space", ".git", "hooks"),
		bin:   filepath.Join(root, "bin"),
		rec:   filepath.Join(root, "rec"),
		tmp:   filepath.Join(root, "tmp"),
	}
	for _, d := range []string{s.bin, s.rec, s.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// only what the shims and the fakes use, so that no real git or
	// git-yoimem can be found
	for _, tool := range []string{"cat", "mktemp", "rm"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(s.bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	// The shim runs git-yoimem directly (one process fewer than "git
	// yoimem"); the recorder stands in for it, under the name "git".
	writeExe(t, filepath.Join(s.bin, "git"), "#!/bin/sh\necho 'the shim must not go through git' >&2\nexit 99\n")
	if withYoimem {
		writeExe(t, filepath.Join(s.bin, "git-yoimem"), recorder("git", "GIT_EXIT"))
	}
	if _, err := Install(s.hooks, Options{}); err != nil {
		t.Fatal(err)
	}
	return s
}

func writeExe(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// recorded returns what a fake recorded, and whether it ran at all.
func (s sandbox) recorded(t *testing.T, prefix string) (args, stdin string, ran bool) {
	t.Helper()
	a, err := os.ReadFile(filepath.Join(s.rec, prefix+"-args"))
	if errors.Is(err, os.ErrNotExist) {
		return "", "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(filepath.Join(s.rec, prefix+"-stdin"))
	if err != nil {
		t.Fatal(err)
	}
	return string(a), string(in), true
}

func refLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "refs/heads/b%d %040x refs/heads/b%d %040d\n", i, i+1, i, 0)
	}
	return b.String()
}

func TestShimRuns(t *testing.T) {
	const url = "/srv/git/with space/bare.git"
	pushArgs := "hook\npre-push\norigin\n" + url + "\n"
	tests := []struct {
		name     string
		hook     string
		args     []string
		stdin    string
		noYoimem bool   // git-yoimem is not on PATH
		prev     string // mode of a chained previous hook: "", "exec", "plain"
		prevExit string
		gitExit  string
		wantCode int
		wantGit  string // args the fake git got; "" = it must not run
		wantPrev bool   // the previous hook ran
		wantErr  string // in stderr
	}{
		{name: "pre-push passes args and stdin", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(3), wantGit: pushArgs},
		{name: "pre-push with empty stdin", hook: "pre-push", args: []string{"origin", url}, wantGit: pushArgs},
		{name: "pre-push exit status is ours", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(1), gitExit: "1", wantCode: 1, wantGit: pushArgs},
		{name: "pre-push chained: both read the same stdin", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(4), prev: "exec", wantGit: pushArgs, wantPrev: true},
		{name: "pre-push chained: large stdin", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(20000), prev: "exec", wantGit: pushArgs, wantPrev: true},
		{name: "pre-push chained: failing previous hook stops ours", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(2), prev: "exec", prevExit: "7", wantCode: 7, wantPrev: true},
		{name: "pre-push chained: our failure after the previous hook", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(2), prev: "exec", gitExit: "1", wantCode: 1, wantGit: pushArgs, wantPrev: true},
		{name: "pre-push: non-executable previous hook is skipped, as git would", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(2), prev: "plain", wantGit: pushArgs},
		{name: "pre-push: git-yoimem missing", hook: "pre-push", args: []string{"origin", url}, stdin: refLines(1), prev: "exec", noYoimem: true, wantCode: 2,
			wantErr: "git-yoimem: not found on PATH; the pre-push hook needs it (install it, or delete this hook: "},
		{name: "pre-commit", hook: "pre-commit", wantGit: "hook\npre-commit\n"},
		{name: "pre-commit chained", hook: "pre-commit", prev: "exec", wantGit: "hook\npre-commit\n", wantPrev: true},
		{name: "pre-commit chained: failing previous hook stops ours", hook: "pre-commit", prev: "exec", prevExit: "3", wantCode: 3, wantPrev: true},
		{name: "pre-commit exit status is ours", hook: "pre-commit", gitExit: "1", wantCode: 1, wantGit: "hook\npre-commit\n"},
		{name: "pre-commit: git-yoimem missing", hook: "pre-commit", noYoimem: true, wantCode: 2,
			wantErr: "git-yoimem: not found on PATH; the pre-commit hook needs it (install it, or delete this hook: "},
	}
	for shell, argv := range shells(t) {
		for _, tt := range tests {
			t.Run(shell+"/"+tt.name, func(t *testing.T) {
				s := newSandbox(t, !tt.noYoimem)
				hook := filepath.Join(s.hooks, tt.hook)
				switch tt.prev {
				case "exec":
					writeExe(t, hook+PrevSuffix, recorder("prev", "PREV_EXIT"))
				case "plain":
					if err := os.WriteFile(hook+PrevSuffix, []byte(recorder("prev", "PREV_EXIT")), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				cmd := exec.Command(hook, tt.args...)
				if argv != nil {
					cmd = exec.Command(argv[0], append(append(argv[1:len(argv):len(argv)], hook), tt.args...)...)
				}
				cmd.Dir = filepath.Dir(filepath.Dir(s.hooks))
				cmd.Env = []string{"PATH=" + s.bin, "REC=" + s.rec, "TMPDIR=" + s.tmp, "GIT_EXIT=" + tt.gitExit, "PREV_EXIT=" + tt.prevExit}
				cmd.Stdin = strings.NewReader(tt.stdin)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != tt.wantCode {
					t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
				}
				if tt.wantErr != "" && !strings.Contains(stderr.String(), tt.wantErr) {
					t.Errorf("stderr %q does not contain %q", stderr.String(), tt.wantErr)
				}
				gitArgs, gitStdin, gitRan := s.recorded(t, "git")
				switch {
				case tt.wantGit == "" && gitRan:
					t.Errorf("git ran with %q", gitArgs)
				case tt.wantGit != "" && !gitRan:
					t.Errorf("git did not run; stderr:\n%s", stderr.String())
				case gitRan && gitArgs != tt.wantGit:
					t.Errorf("git args %q, want %q", gitArgs, tt.wantGit)
				case gitRan && gitStdin != tt.stdin:
					t.Errorf("git stdin: %d bytes, want %d", len(gitStdin), len(tt.stdin))
				}
				wantPrevArgs := "\n" // printf '%s\n' with no arguments
				if len(tt.args) > 0 {
					wantPrevArgs = strings.Join(tt.args, "\n") + "\n"
				}
				prevArgs, prevStdin, prevRan := s.recorded(t, "prev")
				switch {
				case prevRan != tt.wantPrev:
					t.Errorf("previous hook ran: %v, want %v", prevRan, tt.wantPrev)
				case prevRan && prevArgs != wantPrevArgs:
					t.Errorf("previous hook args %q, want %q", prevArgs, tt.args)
				case prevRan && tt.hook == "pre-push" && prevStdin != tt.stdin:
					t.Errorf("previous hook stdin: %d bytes, want %d", len(prevStdin), len(tt.stdin))
				}
				if left, _ := os.ReadDir(s.tmp); len(left) > 0 {
					t.Errorf("temporary files left in TMPDIR: %v", left)
				}
			})
		}
	}
}
