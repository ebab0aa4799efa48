package lifeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// asExternal makes the test binary report TieToGit's answer, when git
// runs it as the dashed external git-lifeline.
const asExternal = "LIFELINE_TEST_EXTERNAL"

func TestMain(m *testing.M) {
	if os.Getenv(asExternal) == "1" {
		tied, gone := TieToGit(syscall.SIGTERM)
		os.Stdout.WriteString(map[bool]string{true: "tied", false: "untied"}[tied] + map[bool]string{true: " gone", false: ""}[gone] + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestTieOnlyToGit: run by git (as `git lifeline`), the process is tied;
// run by anything else (here go test, or sh), it is not.
func TestTieOnlyToGit(t *testing.T) {
	if tied, _ := TieToGit(syscall.SIGTERM); tied {
		t.Error("tied to a parent that is not git")
	}
	if runtime.GOOS != "linux" {
		t.Skip("ties exist on Linux only")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(dir, "git-lifeline")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), asExternal+"=1", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "lifeline"}, "tied"},
		{[]string{"sh", "-c", `"$0"; :`, filepath.Join(dir, "git-lifeline")}, "untied"},
	} {
		cmd := exec.Command(tt.argv[0], tt.argv[1:]...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != tt.want {
			t.Errorf("%q: %q, %v; want %q", tt.argv, out, err, tt.want)
		}
	}
}
