package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// PushStatus is how a remote took one pushed ref.
type PushStatus string

// Push statuses, from git push --porcelain's flags.
const (
	Pushed       PushStatus = "pushed"     // fast-forwarded or created
	PushUpToDate PushStatus = "up_to_date" // the remote already had it
	Rejected     PushStatus = "rejected"   // not a fast-forward: the remote moved meanwhile
	Refused      PushStatus = "refused"    // the remote refused it (its hooks, protection rules)
	PushError    PushStatus = "error"      // git could not push it
)

// ErrPushDeclined is a push the repository's own pre-push hook refused:
// git sent nothing.
var ErrPushDeclined = errors.New("the pre-push hook declined the push")

// PushedRef is one ref of a push and what became of it.
type PushedRef struct {
	Ref     string     // the remote's ref
	Status  PushStatus //
	Summary string     // git's summary (old..new, [rejected], the reason)
	// Remote is what the remote said on the push (its "remote:" lines,
	// control characters escaped), kept for a ref it Refused: a hook's
	// or a forge's reason.
	Remote []string
}

// PushRefs pushes each local ref to the same name on remote, never
// forced: a ref the remote moved meanwhile is Rejected, not overwritten.
// Hooks run as for any push (the pre-push hook checks memory commits).
// The error is non-nil when git failed for another reason than refs
// being rejected (a hook refused, the remote is unreachable).
func PushRefs(ctx context.Context, r Repo, remote string, refs []string) ([]PushedRef, error) {
	args := []string{"push", "--porcelain", "--no-follow-tags", "--", remote}
	for _, ref := range refs {
		args = append(args, ref+":"+ref)
	}
	g := r.Git
	g.Env = untranslated(g.Env)
	out, err := g.Run(ctx, args...)
	res := parsePorcelain(string(out))
	if err != nil {
		var ge *Error
		switch {
		case errors.As(err, &ge) && ge.ExitCode == 1 && declinedHere(string(out), res):
			return res, fmt.Errorf("push %s to %s: %w: %s", strings.Join(refs, ", "), quote.Value(remote), ErrPushDeclined, strings.TrimSpace(ge.Stderr))
		case !errors.As(err, &ge) || !anyRejected(res) || ge.ExitCode != 1:
			return res, fmt.Errorf("push %s to %s: %w", strings.Join(refs, ", "), quote.Value(remote), err)
		}
		said := remoteLines(ge.Stderr)
		for i := range res {
			if res[i].Status == Refused {
				res[i].Remote = said
			}
		}
	}
	return res, nil
}

// maxRemoteLines bounds what is kept of a remote's message.
const maxRemoteLines = 20

// remoteLines are the "remote: " lines of git push's stderr, without the
// prefix and git's padding, control characters escaped (a remote's text
// reaches the terminal), at most maxRemoteLines of at most 1,024 bytes.
func remoteLines(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		msg, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "remote: ")
		if !ok {
			continue
		}
		msg = strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(msg, " "), "\x1b[K"))
		if msg == "" {
			continue
		}
		if len(out) == maxRemoteLines {
			out = append(out, "…")
			break
		}
		out = append(out, quote.Line(quote.Controls(msg)))
	}
	return out
}

// parsePorcelain reads git push --porcelain's ref lines:
// "<flag>\t<from>:<to>\t<summary>".
func parsePorcelain(out string) []PushedRef {
	var res []PushedRef
	for _, line := range strings.Split(out, "\n") {
		if len(line) < 2 || line[1] != '\t' {
			continue
		}
		parts := strings.SplitN(line[2:], "\t", 2)
		_, to, ok := strings.Cut(parts[0], ":")
		if !ok {
			continue
		}
		pr := PushedRef{Ref: to}
		if len(parts) == 2 {
			pr.Summary = parts[1]
		}
		switch line[0] {
		case ' ', '*', '+':
			pr.Status = Pushed
		case '=':
			pr.Status = PushUpToDate
		case '!':
			pr.Status = Rejected
			if strings.HasPrefix(pr.Summary, "[remote ") && !lockRace(pr.Summary) {
				pr.Status = Refused // [remote rejected] or [remote failure]
			}
		default:
			pr.Status = PushError
		}
		res = append(res, pr)
	}
	return res
}

// lockRace: the remote could not take its ref lock because another push
// held it (receive-pack's "failed to update ref", "failed to lock" before
// git 2.8): a push lost to another, as a non-fast-forward is, and worth
// a retry. Other reasons (a hook's, a rule's) are refusals, even one
// that says "locked".
func lockRace(summary string) bool {
	return strings.HasSuffix(summary, "(failed to update ref)") || strings.HasSuffix(summary, "(failed to lock)")
}

// declinedHere: git push failed before it reached the remote ("To …"
// is not printed) and named no ref: the pre-push hook said no. An
// unreachable remote fails with 128, not 1.
func declinedHere(out string, res []PushedRef) bool {
	return len(res) == 0 && !strings.HasPrefix(out, "To ") && !strings.Contains(out, "\nTo ")
}

func anyRejected(res []PushedRef) bool {
	for _, r := range res {
		if r.Status == Rejected || r.Status == Refused {
			return true
		}
	}
	return false
}
