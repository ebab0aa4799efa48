package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNoRef means a ref does not exist (or is a symbolic ref to nothing,
// as HEAD is on an unborn branch).
var ErrNoRef = errors.New("no such ref")

// ErrBrokenRef means a ref exists but does not lead to a commit.
var ErrBrokenRef = errors.New("broken ref")

// CommitOfRef returns the commit a full ref name points at. A ref that
// does not exist is ErrNoRef. One that exists but holds no object name,
// names an object the repository does not have, or names something other
// than a commit is an ErrBrokenRef that says which: a corrupt ref must not
// pass for a missing one.
func CommitOfRef(ctx context.Context, r Repo, ref string) (string, error) {
	if out, err := r.Git.Run(ctx, "rev-parse", "-q", "--verify", ref+"^{commit}"); err == nil {
		return strings.TrimSpace(string(out)), nil
	} else if ctx.Err() != nil {
		return "", fmt.Errorf("read %s: %w", ref, ctx.Err())
	}
	// The messages are told apart, so they must be untranslated.
	g := r.Git
	g.Env = untranslated(g.Env)
	out, err := g.Run(ctx, "for-each-ref", "--format=%(refname)%00%(objectname)%00%(objecttype)", ref)
	var ge *Error
	if errors.As(err, &ge) {
		if strings.Contains(ge.Stderr, "missing object") {
			return "", fmt.Errorf("%s points at %s, which is not in the repository: %w", ref, objectNameIn(ge.Stderr), ErrBrokenRef)
		}
		return "", fmt.Errorf("read %s: %s", ref, ge.Message())
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", ref, err)
	}
	for _, line := range bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n")) {
		f := bytes.Split(line, []byte{0})
		if len(f) != 3 || string(f[0]) != ref {
			continue
		}
		return "", fmt.Errorf("%s points at a %s (%.12s), not a commit: %w", ref, f[2], f[1], ErrBrokenRef)
	}
	// Listed nothing: missing, unless git skipped it as broken (a warning
	// on stderr, which Run keeps only when git fails).
	if broken(ctx, g, ref) {
		return "", fmt.Errorf("%s is broken: it does not hold an object name: %w", ref, ErrBrokenRef)
	}
	return "", fmt.Errorf("%s: %w", ref, ErrNoRef)
}

// broken reports whether git warns that ref is broken when listing it.
func broken(ctx context.Context, g Git, ref string) bool {
	_, err := g.Run(ctx, "rev-parse", "--verify", ref)
	var ge *Error
	return errors.As(err, &ge) && strings.Contains(ge.Stderr, "broken")
}

// objectNameIn finds the hex object name in git's message.
func objectNameIn(msg string) string {
	for _, w := range strings.Fields(msg) {
		if len(w) >= 40 && strings.Trim(w, "0123456789abcdef") == "" {
			return w
		}
	}
	return "an object"
}

// Message is what git said on stderr (without "fatal: "), or how it
// failed: unlike Error, it leaves out the command line, which is ours and
// means nothing to the person reading.
func (e *Error) Message() string {
	if msg := strings.TrimSpace(e.Stderr); msg != "" {
		return strings.TrimPrefix(msg, "fatal: ")
	}
	return e.Err.Error()
}
