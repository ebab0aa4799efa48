package gitstore

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestResolveRemote(t *testing.T) {
	tests := []struct {
		name       string
		remotes    []string
		config     [][2]string
		configured string
		base       string
		want       string
		wantErr    string // in the ErrNoRemote error
	}{
		{name: "configured", remotes: []string{"origin", "team"}, configured: "team", base: "refs/heads/main", want: "team"},
		{name: "configured but missing", remotes: []string{"origin", "team"}, configured: "gone", base: "refs/heads/main", wantErr: `"gone": no remote (the repository's remotes: origin, team)`},
		{name: "the base is a remote's branch", remotes: []string{"origin", "up", "upstream"}, base: "refs/remotes/upstream/main", want: "upstream"},
		{name: "the longest remote name that prefixes the base", remotes: []string{"origin", "team", "team/a"}, base: "refs/remotes/team/a/main", want: "team/a"},
		{name: "the base follows a remote", remotes: []string{"origin", "fork"}, config: [][2]string{{"branch.main.remote", "fork"}}, base: "refs/heads/main", want: "fork"},
		{name: "the base follows the repository itself", remotes: []string{"fork", "origin"}, config: [][2]string{{"branch.main.remote", "."}}, base: "refs/heads/main", want: "origin"},
		{name: "the only remote", remotes: []string{"fork"}, base: "refs/heads/main", want: "fork"},
		{name: "none", base: "refs/heads/main", wantErr: "has none"},
		{name: "several, no origin, the base follows none", remotes: []string{"a", "b"}, base: "refs/heads/main", wantErr: "set yoimem.remote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := newRepo(t)
			for _, r := range tt.remotes {
				runGit(t, dir, env, "remote", "add", r, "https://example.invalid/"+r)
			}
			for _, kv := range tt.config {
				runGit(t, dir, env, "config", kv[0], kv[1])
			}
			repo, err := Locate(context.Background(), Git{Dir: dir, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ResolveRemote(context.Background(), repo, tt.configured, tt.base)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrNoRemote) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want ErrNoRemote saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ResolveRemote = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestFetch: the remote's memory branch and notes, either, or neither:
// what it has is fetched into the tracking refs, what it lacks is not an
// error.
func TestFetch(t *testing.T) {
	tests := []struct {
		name               string
		push               []string
		wantBranch, wantNo bool
	}{
		{name: "branch and notes", push: []string{"yoimem/memory", "refs/notes/yoimem"}, wantBranch: true, wantNo: true},
		{name: "branch, no notes", push: []string{"yoimem/memory"}, wantBranch: true},
		{name: "notes, no branch", push: []string{"refs/notes/yoimem"}, wantNo: true},
		{name: "neither", push: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, env := memRepo(t)
			c := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1).Commit
			runGit(t, dir, env, "notes", "--ref", "yoimem", "add", "-m", "evidence", c)
			bareRemote(t, dir, env, append([]string{"main"}, tt.push...)...)
			tr := Tracking{Remote: "origin", Branch: m.Branch, Notes: "refs/notes/yoimem"}
			f, err := Fetch(context.Background(), m.Repo, m.Objects, tr)
			if err != nil {
				t.Fatal(err)
			}
			want := Fetched{}
			if tt.wantBranch {
				want.Branch = c
			}
			if tt.wantNo {
				want.Notes = runGit(t, dir, env, "rev-parse", "refs/notes/yoimem")
			}
			if f != want {
				t.Fatalf("Fetch = %+v, want %+v", f, want)
			}
			for ref, h := range map[string]string{tr.BranchRef(): want.Branch, tr.NotesRef(): want.Notes} {
				if got, _ := m.Objects.RefHash(ref); got != h {
					t.Errorf("%s = %q, want %q", ref, got, h)
				}
			}
			if tr.NotesRef() != "refs/notes/remotes/origin/yoimem" || tr.BranchRef() != "refs/remotes/origin/yoimem/memory" {
				t.Errorf("tracking refs %s %s", tr.BranchRef(), tr.NotesRef())
			}
		})
	}
}

// TestFetchAfterTheRemoteDeletedItsBranch: a memory branch the remote
// deleted (a forge deletes a merged pull request's branch) is not
// reported from the tracking ref an earlier fetch left.
func TestFetchAfterTheRemoteDeletedItsBranch(t *testing.T) {
	m, dir, env := memRepo(t)
	c := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1).Commit
	runGit(t, dir, env, "notes", "--ref", "yoimem", "add", "-m", "evidence", c)
	remote := bareRemote(t, dir, env, "main", "yoimem/memory", "refs/notes/yoimem")
	tr := Tracking{Remote: "origin", Branch: m.Branch, Notes: "refs/notes/yoimem"}
	if f, err := Fetch(context.Background(), m.Repo, m.Objects, tr); err != nil || f.Branch != c {
		t.Fatalf("first fetch: %+v, %v", f, err)
	}
	runGit(t, remote, env, "update-ref", "-d", "refs/heads/yoimem/memory")
	f, err := Fetch(context.Background(), m.Repo, m.Objects, tr)
	if err != nil {
		t.Fatal(err)
	}
	if f.Branch != "" || f.Notes == "" {
		t.Fatalf("Fetch = %+v, want no branch and the notes", f)
	}
	runGit(t, remote, env, "update-ref", "-d", "refs/notes/yoimem")
	if f, err = Fetch(context.Background(), m.Repo, m.Objects, tr); err != nil || f != (Fetched{}) {
		t.Fatalf("Fetch = %+v, %v; want neither", f, err)
	}
}

// TestUnattended: the environment of a sync nobody watches turns off
// every prompt git or ssh could wait on, over what the caller had, and
// leaves the rest.
func TestUnattended(t *testing.T) {
	in := []string{"PATH=/bin", "GIT_ASKPASS=/usr/bin/ksshaskpass", "SSH_ASKPASS=/usr/bin/ksshaskpass", "GIT_TERMINAL_PROMPT=1"}
	env := Unattended(in)
	last := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		last[k] = v // as os/exec: the last value of a name wins
	}
	want := map[string]string{"PATH": "/bin", "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "SSH_ASKPASS_REQUIRE": "never", "GCM_INTERACTIVE": "never"}
	for k, v := range want {
		if got, ok := last[k]; !ok || got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if in[1] != "GIT_ASKPASS=/usr/bin/ksshaskpass" || len(in) != 4 {
		t.Fatalf("the caller's environment changed: %q", in)
	}
}
