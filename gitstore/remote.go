package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// ErrNoRemote means the memory has no remote to sync with: none is
// configured and the base branch follows none.
var ErrNoRemote = errors.New("no remote")

// ErrAmbiguousRemote means the repository has remotes but none to choose
// (no origin, and the base branch follows none); it is an ErrNoRemote too.
var ErrAmbiguousRemote = errors.New("set yoimem.remote to choose one")

// ResolveRemote chooses the remote the memory branch is shared through:
// configured (yoimem.remote, or the command's argument) if set, which
// must be a named remote of the repository (a URL is not: the tracking
// refs need a name; the error names it, the caller says where it came
// from); else the remote the base branch comes from (origin for
// refs/remotes/origin/main, branch.main.remote for refs/heads/main); else
// origin, or the only remote there is. No remote is ErrNoRemote.
func ResolveRemote(ctx context.Context, r Repo, configured, base string) (string, error) {
	remotes, follows, err := remoteConfig(ctx, r)
	if err != nil {
		return "", err
	}
	if configured != "" {
		if !slices.Contains(remotes, configured) {
			return "", fmt.Errorf("%s: %w (the repository's remotes: %s)", quote.Value(configured), ErrNoRemote, remoteList(remotes))
		}
		return configured, nil
	}
	if name := baseRemote(remotes, follows, base); name != "" {
		return name, nil
	}
	switch {
	case slices.Contains(remotes, "origin"):
		return "origin", nil
	case len(remotes) == 1:
		return remotes[0], nil
	case len(remotes) == 0:
		return "", fmt.Errorf("%w: the repository has none", ErrNoRemote)
	}
	return "", fmt.Errorf("%w: the base branch follows none and there is no origin among %s (%w)", ErrNoRemote, remoteList(remotes), ErrAmbiguousRemote)
}

// baseRemote is the remote the base branch is, or follows (follows maps
// a local branch to its branch.<name>.remote): "" when none.
func baseRemote(remotes []string, follows map[string]string, base string) string {
	if rest, ok := strings.CutPrefix(base, "refs/remotes/"); ok {
		// A remote's name may hold slashes: the longest that prefixes wins.
		best := ""
		for _, name := range remotes {
			if strings.HasPrefix(rest, name+"/") && len(name) > len(best) {
				best = name
			}
		}
		return best
	}
	branch, ok := strings.CutPrefix(base, "refs/heads/")
	if !ok {
		return ""
	}
	name := follows[branch]
	if !slices.Contains(remotes, name) {
		return "" // "." (the repository itself) or a URL: not a named remote
	}
	return name
}

// remoteConfig reads, with one git process, the names of the remotes
// (those with a url, pushurl or fetch setting, as git remote lists them)
// and the remote each local branch follows (branch.<name>.remote).
func remoteConfig(ctx context.Context, r Repo) (remotes []string, follows map[string]string, err error) {
	out, err := r.Git.Run(ctx, "config", "-z", "--get-regexp", `^(remote\..+\.(url|pushurl|fetch)|branch\..+\.remote)$`)
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return nil, map[string]string{}, nil // no such setting: no remote
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list the remotes: %w", err)
	}
	follows = map[string]string{}
	for _, entry := range strings.Split(string(out), "\x00") {
		key, value, _ := strings.Cut(entry, "\n")
		if rest, ok := strings.CutPrefix(key, "remote."); ok {
			if i := strings.LastIndexByte(rest, '.'); i > 0 && !slices.Contains(remotes, rest[:i]) {
				remotes = append(remotes, rest[:i])
			}
		} else if rest, ok := strings.CutPrefix(key, "branch."); ok {
			follows[strings.TrimSuffix(rest, ".remote")] = value
		}
	}
	return remotes, follows, nil
}

func remoteList(remotes []string) string {
	if len(remotes) == 0 {
		return "none"
	}
	return strings.Join(remotes, ", ")
}

// RemoteURLs are the URL git fetches remote from (after
// url.<base>.insteadOf) and the one its configuration names (before).
func RemoteURLs(ctx context.Context, r Repo, remote string) (fetched, configured string, err error) {
	out, err := r.Git.Run(ctx, "remote", "get-url", "--", remote)
	if err != nil {
		return "", "", fmt.Errorf("the URL of remote %s: %w", quote.Value(remote), err)
	}
	fetched = strings.TrimSpace(string(out))
	if out, err = r.Git.Run(ctx, "config", "--get", "remote."+remote+".url"); err == nil {
		configured = strings.TrimSpace(string(out))
	}
	return fetched, configured, nil
}

// Unattended returns a copy of env (nil: the process's) for git commands
// that reach a remote with nobody there to answer (consolidation started
// by a hook or an agent): git's terminal prompt is off; no askpass
// program runs (an empty GIT_ASKPASS also passes over core.askPass), nor
// ssh's (an empty SSH_ASKPASS, and SSH_ASKPASS_REQUIRE since OpenSSH
// 8.4); Git Credential Manager opens no dialog. Credential helpers, which answer by
// themselves, still run; a remote that wants more fails the command.
func Unattended(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(env[:len(env):len(env)], "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "SSH_ASKPASS_REQUIRE=never", "GCM_INTERACTIVE=never")
}

// Tracking names the refs of a remote's memory that fetch writes here.
type Tracking struct {
	Remote string
	Branch string // the memory branch's short name, e.g. yoimem/memory
	Notes  string // the notes ref, e.g. refs/notes/yoimem
}

// BranchRef is where the remote's memory branch is kept here:
// refs/remotes/<remote>/<branch>, as git's default refspec would.
func (t Tracking) BranchRef() string { return "refs/remotes/" + t.Remote + "/" + t.Branch }

// NotesRef is where the remote's notes are kept here: under
// refs/notes/remotes/<remote>/, beside our own notes ref, so that
// git log --notes=remotes/origin/yoimem shows them.
func (t Tracking) NotesRef() string {
	return "refs/notes/remotes/" + t.Remote + "/" + strings.TrimPrefix(t.Notes, "refs/notes/")
}

// Fetched is what a fetch found on the remote: the tips of its memory
// branch and notes ("" when it has none).
type Fetched struct {
	Branch, Notes string
}

// Fetch brings the remote's memory branch and notes into the tracking
// refs, forced as git's default refspecs are. A ref the remote does not
// have is not an error: it is not fetched, and its tracking ref is left
// as it was. No tags, no FETCH_HEAD, no submodules: only these refs move.
func Fetch(ctx context.Context, r Repo, objs *Objects, t Tracking) (Fetched, error) {
	specs := []string{"+refs/heads/" + t.Branch + ":" + t.BranchRef(), "+" + t.Notes + ":" + t.NotesRef()}
	err := fetchSpecs(ctx, r, t.Remote, specs)
	var ge *Error
	have := map[string]bool{"refs/heads/" + t.Branch: true, t.Notes: true}
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "couldn't find remote ref") {
		// One of them is missing there (a first push, no notes yet, a
		// branch a forge deleted): ask which the remote has, fetch those.
		var lerr error
		if have, lerr = lsRemote(ctx, r, t.Remote, "refs/heads/"+t.Branch, t.Notes); lerr != nil {
			return Fetched{}, lerr
		}
		var keep []string
		for _, s := range specs {
			src, _, _ := strings.Cut(strings.TrimPrefix(s, "+"), ":")
			if have[src] {
				keep = append(keep, s)
			}
		}
		err = nil
		if len(keep) > 0 {
			err = fetchSpecs(ctx, r, t.Remote, keep)
		}
	}
	if err != nil {
		return Fetched{}, fmt.Errorf("fetch %s from %s: %w", t.Branch, quote.Value(t.Remote), err)
	}
	// A tracking ref an earlier fetch left is not what the remote has.
	var f Fetched
	if have["refs/heads/"+t.Branch] {
		if f.Branch, err = objs.RefHash(t.BranchRef()); err != nil {
			return Fetched{}, err
		}
	}
	if have[t.Notes] {
		if f.Notes, err = objs.RefHash(t.NotesRef()); err != nil {
			return Fetched{}, err
		}
	}
	return f, nil
}

func fetchSpecs(ctx context.Context, r Repo, remote string, specs []string) error {
	g := r.Git
	g.Env = untranslated(g.Env) // "couldn't find remote ref" is read
	args := append([]string{"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--", remote}, specs...)
	_, err := g.Run(ctx, args...)
	return err
}

// lsRemote asks which of refs the remote has.
func lsRemote(ctx context.Context, r Repo, remote string, refs ...string) (map[string]bool, error) {
	out, err := r.Git.Run(ctx, append([]string{"ls-remote", "--", remote}, refs...)...)
	if err != nil {
		return nil, fmt.Errorf("list the refs of %s: %w", quote.Value(remote), err)
	}
	have := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if _, ref, ok := strings.Cut(line, "\t"); ok {
			have[ref] = true
		}
	}
	return have, nil
}

// RecordPushed sets t's tracking refs to what a push left on the remote:
// the memory branch's and the notes' tips as pushed ("" : not pushed), as
// a fetch would have. git push moves a tracking ref only when the remote's
// fetch refspec maps the pushed ref: a --single-branch or --depth clone's
// maps main alone, and none maps notes. A tracking ref that moved
// meanwhile (a fetch) keeps what the fetch wrote.
func RecordPushed(ctx context.Context, r Repo, objs *Objects, t Tracking, branch, notes string, who Signature) error {
	for _, p := range [][2]string{{t.BranchRef(), branch}, {t.NotesRef(), notes}} {
		ref, h := p[0], p[1]
		if h == "" {
			continue
		}
		cur, err := objs.RefHash(ref)
		if err != nil {
			return err
		}
		if cur == h {
			continue
		}
		if err := swapRef(ctx, r, objs, ref, h, cur, "yoimem: push", who); err != nil && !errors.Is(err, errRefMoved) {
			return fmt.Errorf("record the push in %s: %w", ref, err)
		}
	}
	return nil
}
