package forge

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The printed command, run by sh, gives the tool the request's fields
// and the description byte for byte, whatever the title and the file's
// path hold.
func TestManualCommandRuns(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	body := bodies()["syntax"]
	tests := []struct {
		name string
		host Host
		want func(file string) []string
	}{
		{"gh", Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}, func(file string) []string {
			return []string{"gh", "pr", "create", "--repo", "github.com/o/r", "--head", head, "--base", base, "--title=-it's $(odd) `x`", "--body-file", file}
		}},
		{"glab", Host{GitLab, "code.corp", "g/r", "https://code.corp/g/r"}, func(string) []string {
			return []string{"glab", "mr", "create", "--repo", "https://code.corp/g/r", "--source-branch", head, "--target-branch", base,
				"--title=-it's $(odd) `x`", "--yes", "--description=" + strings.TrimRight(string(body), "\n")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandin(t, tt.host.CLI())
			s.answer(tt.host.CLI()+"-pr-create", "", "", 0)
			s.answer(tt.host.CLI()+"-mr-create", "", "", 0)
			dir := filepath.Join(t.TempDir(), "a dir's $(name)")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			r := Request{Head: head, Base: base, Title: "-it's $(odd) `x`", Body: body, BodyFile: filepath.Join(dir, "pr.md")}
			if err := writeBody(r.BodyFile, body); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(sh, "-c", ManualCommand(tt.host, r))
			cmd.Env = append(s.env(), "PATH="+s.bin+string(os.PathListSeparator)+os.Getenv("PATH")) // and cat
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", ManualCommand(tt.host, r), err, out)
			}
			s.wantCalls([][]string{tt.want(r.BodyFile)}, map[int][]byte{0: {}})
		})
	}
}

func TestManualCommandUnknownHost(t *testing.T) {
	if got := ManualCommand(Host{Name: "git.example.net", Path: "o/r"}, Request{Head: head, Base: base, Title: title, BodyFile: "/x"}); got != "" {
		t.Errorf("ManualCommand = %q, want none", got)
	}
}
