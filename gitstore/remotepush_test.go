package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParsePorcelain(t *testing.T) {
	const ref = "refs/heads/yoimem/memory"
	line := func(flag, summary string) string { return flag + "\t" + ref + ":" + ref + "\t" + summary }
	tests := []struct {
		name string
		out  string
		want PushStatus
	}{
		{"new", line("*", "[new branch]"), Pushed},
		{"fast-forward", line(" ", "1a2b3c4..5d6e7f8"), Pushed},
		{"forced", line("+", "1a2b3c4...5d6e7f8 (forced update)"), Pushed},
		{"up to date", line("=", "[up to date]"), PushUpToDate},
		{"non-fast-forward, fetch first", line("!", "[rejected] (fetch first)"), Rejected},
		{"non-fast-forward", line("!", "[rejected] (non-fast-forward)"), Rejected},
		{"pre-receive hook declined", line("!", "[remote rejected] (pre-receive hook declined)"), Refused},
		{"protected branch", line("!", "[remote rejected] (protected branch hook declined)"), Refused},
		{"a hook's reason that says locked", line("!", "[remote rejected] (branch is locked)"), Refused},
		{"remote failure", line("!", "[remote failure] (remote failed to report status)"), Refused},
		{"lost the ref lock to another push", line("!", "[remote rejected] (failed to update ref)"), Rejected},
		{"lost the ref lock, older git", line("!", "[remote rejected] (failed to lock)"), Rejected},
		{"deleted", line("-", "[deleted]"), PushError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := "To ../remote.git\n" + tt.out + "\nDone\n"
			got := parsePorcelain(out)
			if len(got) != 1 || got[0].Ref != ref || got[0].Status != tt.want {
				t.Fatalf("parsePorcelain(%q) = %+v, want one %s of %s", out, got, tt.want, ref)
			}
		})
	}
	if got := parsePorcelain("To x\n" + line("*", "[new branch]") + "\n=\trefs/notes/yoimem:refs/notes/yoimem\t[up to date]\nDone\n"); len(got) != 2 || got[1].Ref != "refs/notes/yoimem" || got[1].Status != PushUpToDate {
		t.Fatalf("two refs: %+v", got)
	}
}

// TestPushRefsRefused: hooks that refuse a push, the remote's
// (pre-receive) and the repository's own (pre-push), are refusals the
// caller can tell from a remote it could not reach.
func TestPushRefsRefused(t *testing.T) {
	tests := []struct {
		name      string
		hook      func(t *testing.T, dir, remote string)
		refused   bool
		wantError error
	}{
		{name: "the remote's pre-receive hook declines", refused: true,
			hook: func(t *testing.T, dir, remote string) {
				writeFile(t, remote, "hooks/pre-receive", []byte("#!/bin/sh\necho no memory here >&2\nexit 1\n"), 0o755)
			}},
		{name: "the repository's pre-push hook declines", wantError: ErrPushDeclined,
			hook: func(t *testing.T, dir, remote string) {
				writeFile(t, dir, ".git/hooks/pre-push", []byte("#!/bin/sh\necho lint errors >&2\nexit 1\n"), 0o755)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, env := memRepo(t)
			commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
			remote := bareRemote(t, dir, env)
			tt.hook(t, dir, remote)
			pushed, err := PushRefs(context.Background(), m.Repo, "origin", []string{m.Ref()})
			if tt.wantError != nil {
				if !errors.Is(err, tt.wantError) {
					t.Fatalf("err = %v, want %v", err, tt.wantError)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := slices.IndexFunc(pushed, func(p PushedRef) bool { return p.Status == Refused }) >= 0; got != tt.refused {
				t.Fatalf("pushed %+v, refused %v, want %v", pushed, got, tt.refused)
			}
			if tt.refused && !slices.Equal(pushed[0].Remote, []string{"no memory here"}) {
				t.Fatalf("the remote said %q, want its hook's line", pushed[0].Remote)
			}
			if _, err := os.Stat(filepath.Join(remote, "refs", "heads", "yoimem", "memory")); err == nil {
				t.Fatal("the remote has the branch")
			}
		})
	}
}

func TestRemoteLines(t *testing.T) {
	many := strings.Repeat("remote: line\n", 30)
	tests := []struct {
		name, stderr string
		want         []string
	}{
		{"git's padding and erase", "remote: no memory here        \nremote: second\x1b[K\nerror: failed to push some refs to 'x'\n", []string{"no memory here", "second"}},
		{"control characters escaped", "remote: \x1b[31mred\x1b[0m\r\n", []string{`\033[31mred\033[0m`}},
		{"blank lines left out", "remote: \nremote:    \nremote: GH006: Protected branch update failed\n", []string{"GH006: Protected branch update failed"}},
		{"bounded", many, append(slices.Repeat([]string{"line"}, 20), "…")},
		{"none", "error: failed to push some refs\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := remoteLines(tt.stderr); !slices.Equal(got, tt.want) {
				t.Fatalf("remoteLines = %q, want %q", got, tt.want)
			}
		})
	}
}
