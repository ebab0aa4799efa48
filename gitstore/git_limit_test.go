//go:build linux

package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// floodEnv makes the test binary run one Git.Run against a "git" that
// prints without end, for TestGitOutputBounded to measure.
const floodEnv = "GITSTORE_TEST_FLOOD"

// TestGitOutputBounded: a git command that prints without end (on stdout
// or stderr) is read up to a limit, then stopped, with an error naming the
// limit; the reading process stays small.
func TestGitOutputBounded(t *testing.T) {
	if which := os.Getenv(floodEnv); which != "" {
		fake := filepath.Join(t.TempDir(), "git")
		script := "#!/bin/sh\nexec cat /dev/zero\n"
		if which == "stderr" {
			script = "#!/bin/sh\nhead -c 1073741824 /dev/zero >&2\necho done\n"
		}
		if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := Git{Path: fake}.Run(context.Background(), "log")
		fmt.Printf("%d bytes; error: %v\n", len(out), err)
		os.Exit(0)
	}
	for _, which := range []string{"stdout", "stderr"} {
		t.Run(which, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestGitOutputBounded$")
			cmd.Env = append(os.Environ(), floodEnv+"="+which)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start := time.Now()
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			rss := fixture.PeakRSS(cmd)
			t.Logf("git printing without end on %s: %s; peak RSS %s bytes in %v", which, strings.TrimSpace(out.String()), quote.Thousands(rss), time.Since(start).Round(time.Millisecond))
			switch which {
			case "stdout":
				if !strings.Contains(out.String(), "printed more than 67,108,864 bytes") {
					t.Errorf("want an error naming the limit:\n%s", out.String())
				}
			case "stderr":
				if !strings.HasPrefix(out.String(), "5 bytes; error: <nil>") {
					t.Errorf("stderr is not what the caller reads; want git's stdout:\n%s", out.String())
				}
			}
			if rss <= 0 || rss > 256<<20 {
				t.Errorf("peak RSS %s bytes, want under 256 MiB", quote.Thousands(rss))
			}
		})
	}
}

// TestGitStderrKept: the error of a failed command keeps the start and the
// end of what git printed on stderr, however much it was.
func TestGitStderrKept(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "git")
	script := "#!/bin/sh\necho 'fatal: first line' >&2\nhead -c 10000000 /dev/zero | tr '\\0' x >&2\necho >&2\necho 'last line' >&2\nexit 128\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Git{Path: fake}.Run(context.Background(), "log")
	var ge *Error
	if !errors.As(err, &ge) || ge.ExitCode != 128 {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(ge.Stderr, "fatal: first line") || !strings.Contains(ge.Stderr, "last line") || !strings.Contains(ge.Stderr, "bytes left out") || len(ge.Stderr) > 100<<10 {
		t.Errorf("stderr kept: %d bytes, %.200q", len(ge.Stderr), ge.Stderr)
	}
}

// TestOutputLimitMessage: the error names the git command, not the
// command line git-yoimem built (its options, formats and refs are ours,
// and nothing the user can act on).
func TestOutputLimitMessage(t *testing.T) {
	e := &OutputLimitError{Args: []string{"-c", "core.quotePath=false", "log", "-z", "--grep=^Yoimem-Run:", "--format=%H%x00%aI%x00%B", "refs/heads/yoimem/memory", "--"}, Limit: 64 << 20}
	want := "git log printed more than 67,108,864 bytes, the most git-yoimem reads from a git command; it was stopped"
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
