// Package memsync shares the memory branch through a remote (docs/sync.md):
// Pull fetches the remote's memory branch and notes and brings them in —
// a fast-forward, or our unpushed memory commits replayed onto theirs,
// records changed on both sides merged by recmerge and the result linted —
// and Push pulls, then pushes the branch and the notes, pulling again when
// the remote moved meanwhile. Nothing is ever force-pushed: a change that
// does not merge leaves the local branch as it was, reported, for a
// person to resolve.
package memsync

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/recmerge"
	"github.com/yoimem/git-yoimem/record"
)

// Options is a sync's memory branch, notes and remote.
type Options struct {
	Branch *gitstore.MemoryBranch
	Notes  *gitstore.Notes
	Remote string
	// Lint judges the records a replay merged (no new lint error may
	// come of a merge); MaxRead bounds each blob read.
	Lint    lint.Options
	MaxRead int64
	Who     gitstore.Signature
}

// Report is what a sync did, for printing (snake_case JSON).
type Report struct {
	Remote  string `json:"remote"`
	Tracked string `json:"tracked"` // the remote's branch as fetched here, e.g. origin/yoimem/memory
	// Outcome is how the local branch took the remote's (gitstore.Integration).
	Outcome   gitstore.Integration `json:"outcome"`
	Before    string               `json:"before,omitempty"`
	After     string               `json:"after,omitempty"`
	Replayed  []Rewritten          `json:"replayed,omitempty"`
	Merged    []string             `json:"merged,omitempty"`
	Kept      []string             `json:"kept,omitempty"`
	Conflicts []Conflict           `json:"conflicts,omitempty"`
	// NotesMoved are the notes moved to replayed commits; NotesAdded the
	// remote's notes brought in; NotesDiffering objects both annotated
	// differently (ours kept).
	NotesMoved     int      `json:"notes_moved,omitempty"`
	NotesAdded     int      `json:"notes_added,omitempty"`
	NotesDiffering []string `json:"notes_differing,omitempty"`
	// Pushed is what the remote did with each ref of the last push.
	Pushed   []PushedRef `json:"pushed,omitempty"`
	Attempts int         `json:"attempts,omitempty"`
}

// Rewritten is a local commit and its replayed copy.
type Rewritten struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// Conflict is a change sync could not bring in; paths print as .yoi/….
type Conflict struct {
	Commit string `json:"commit,omitempty"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// PushedRef is one pushed ref and what the remote did with it.
type PushedRef struct {
	Ref     string `json:"ref"`
	Status  string `json:"status"`
	Summary string `json:"summary,omitempty"`
	// Remote is what the remote said when it refused the ref.
	Remote []string `json:"remote,omitempty"`
}

// Conflicted reports whether the sync left changes for a person.
func (r Report) Conflicted() bool { return r.Outcome == gitstore.Conflicted }

// FetchError is a fetch that failed: consolidation warns and goes on
// with the local memory.
type FetchError struct{ Err error }

func (e *FetchError) Error() string { return e.Err.Error() }
func (e *FetchError) Unwrap() error { return e.Err }

func (o Options) tracking() gitstore.Tracking {
	return gitstore.Tracking{Remote: o.Remote, Branch: o.Branch.Branch, Notes: o.Notes.Ref}
}

// Pull fetches the remote's memory branch and notes and brings them into
// the local ones. A failed fetch is a *FetchError.
func Pull(ctx context.Context, o Options) (_ Report, err error) {
	defer func() { err = interrupted(ctx, err) }()
	t := o.tracking()
	rep := Report{Remote: o.Remote, Tracked: strings.TrimPrefix(t.BranchRef(), "refs/remotes/")}
	f, err := gitstore.Fetch(ctx, o.Branch.Repo, o.Branch.Objects, t)
	if err != nil {
		return rep, &FetchError{Err: err}
	}
	res, err := o.Branch.Integrate(ctx, gitstore.IntegrateRequest{
		Theirs: f.Branch, From: rep.Tracked, Merge: recmerge.Merge, MaxRead: o.MaxRead,
		Check: o.check, Who: o.Who,
	})
	rep.fill(res, o.Branch.Prefix)
	if err != nil || res.Outcome == gitstore.Conflicted {
		return rep, err // a conflict moves nothing, the notes included
	}
	if (res.Outcome == gitstore.Replayed || res.Outcome == gitstore.Superseded) && len(res.Replayed) > 0 { // only copies the branch now holds
		pairs := make([]gitstore.Rewritten, len(res.Replayed))
		copy(pairs, res.Replayed)
		if rep.NotesMoved, err = o.Notes.Move(ctx, pairs, "yoimem: sync: notes of replayed commits", o.Who); err != nil {
			return rep, fmt.Errorf("move the notes of the replayed commits: %w", err)
		}
	}
	nm, err := o.Notes.Merge(ctx, f.Notes, "yoimem: sync: notes from "+strings.TrimPrefix(t.NotesRef(), "refs/notes/"), o.Who)
	if err != nil {
		return rep, fmt.Errorf("merge the notes of %s: %w", o.Remote, err)
	}
	rep.NotesAdded, rep.NotesDiffering = nm.Added, nm.Differing
	return rep, nil
}

// interrupted is err as an interrupt (context.Canceled) when ctx was
// canceled: a git that the cancel killed says only "signal: killed", and
// an interrupt exits 130, not as a remote that could not be reached.
func interrupted(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.Canceled) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %v", context.Canceled, err)
	}
	return err
}

// maxPushAttempts bounds how often Push pulls again because the remote
// moved between its fetch and its push.
const maxPushAttempts = 5

// ErrNothingToPush means there is no memory branch here or on the remote.
var ErrNothingToPush = errors.New("no memory branch here or on the remote")

// Push pulls, then pushes the memory branch and the notes, without force:
// when another clone pushed meanwhile, it pulls again and retries. A sync
// that conflicts pushes nothing. Without a local memory branch it only
// pulls (the remote's becomes ours); with none on either side it is
// ErrNothingToPush.
func Push(ctx context.Context, o Options) (_ Report, err error) {
	defer func() { err = interrupted(ctx, err) }()
	tip, err := o.Branch.Objects.RefHash(o.Branch.Ref())
	if err != nil {
		return Report{}, err
	}
	if tip == "" {
		rep, err := Pull(ctx, o)
		if err == nil && rep.After == "" {
			err = fmt.Errorf("%s, %s: %w", o.Branch.Branch, o.Remote, ErrNothingToPush)
		}
		return rep, err
	}
	var rep Report
	for attempt := 1; attempt <= maxPushAttempts; attempt++ {
		var err error
		rep, err = Pull(ctx, o)
		rep.Attempts = attempt
		if err != nil || rep.Conflicted() {
			return rep, err
		}
		refs, sent, err := o.pushRefs()
		if err != nil || len(refs) == 0 {
			return rep, err
		}
		pushed, err := gitstore.PushRefs(ctx, o.Branch.Repo, o.Remote, refs)
		rep.Pushed = pushedRefs(pushed)
		if err != nil {
			return rep, err
		}
		if err := o.recordPushed(ctx, pushed, sent); err != nil {
			return rep, err
		}
		if refused := firstWith(pushed, gitstore.Refused); refused != nil {
			return rep, &RefusedError{Remote: o.Remote, Ref: refused.Ref, Summary: refused.Summary, Said: refused.Remote}
		}
		if firstWith(pushed, gitstore.Rejected) == nil {
			return rep, nil
		}
	}
	return rep, fmt.Errorf("%s kept moving: %d pushes were rejected because another clone pushed first; run git yoimem push again", o.Remote, maxPushAttempts)
}

// pushRefs are the local refs to push: the memory branch, and the notes
// when there are any; sent is each one's tip as read before the push.
func (o Options) pushRefs() (refs []string, sent map[string]string, err error) {
	sent = map[string]string{}
	for _, ref := range []string{o.Branch.Ref(), o.Notes.Ref} {
		h, err := o.Branch.Objects.RefHash(ref)
		if err != nil {
			return nil, nil, err
		}
		if h != "" {
			refs = append(refs, ref)
			sent[ref] = h
		}
	}
	return refs, sent, nil
}

// recordPushed moves the tracking refs to what the remote now has of the
// refs it took (pushed, or up to date), as a fetch would: git push moves
// them only where the remote's fetch refspec maps the ref. A local ref
// that moved during the push is left for the next fetch.
func (o Options) recordPushed(ctx context.Context, pushed []gitstore.PushedRef, sent map[string]string) error {
	got := map[string]string{}
	for _, p := range pushed {
		if p.Status != gitstore.Pushed && p.Status != gitstore.PushUpToDate {
			continue
		}
		now, err := o.Branch.Objects.RefHash(p.Ref)
		if err != nil {
			return err
		}
		if now == sent[p.Ref] {
			got[p.Ref] = now
		}
	}
	return gitstore.RecordPushed(ctx, o.Branch.Repo, o.Branch.Objects, o.tracking(), got[o.Branch.Ref()], got[o.Notes.Ref], o.Who)
}

func firstWith(refs []gitstore.PushedRef, s gitstore.PushStatus) *gitstore.PushedRef {
	for i := range refs {
		if refs[i].Status == s {
			return &refs[i]
		}
	}
	return nil
}

func pushedRefs(refs []gitstore.PushedRef) []PushedRef {
	out := make([]PushedRef, 0, len(refs))
	for _, r := range refs {
		out = append(out, PushedRef{Ref: r.Ref, Status: string(r.Status), Summary: r.Summary, Remote: r.Remote})
	}
	return out
}

func (r *Report) fill(res gitstore.IntegrateResult, prefix string) {
	r.Outcome, r.Before, r.After = res.Outcome, res.Before, res.After
	r.Replayed = nil
	for _, rw := range res.Replayed {
		r.Replayed = append(r.Replayed, Rewritten{Old: rw.Old, New: rw.New})
	}
	r.Merged, r.Kept = displayPaths(res.Merged, prefix), displayPaths(res.Kept, prefix)
	r.Conflicts = nil
	for _, c := range res.Conflicts {
		r.Conflicts = append(r.Conflicts, Conflict{Commit: c.Commit, Path: displayPath(c.Path, prefix), Reason: c.Reason})
	}
}

// displayPath prints a top-level path under the workspace as .yoi/…;
// others as they are.
func displayPath(p, prefix string) string {
	if rel, ok := strings.CutPrefix(p, prefix+"/"); ok {
		return record.DisplayPath(rel)
	}
	return p
}

func displayPaths(ps []string, prefix string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, displayPath(p, prefix))
	}
	return out
}

// check lints the replayed tip's records that the replay changed: an
// error there that our own tip does not have (two changes that are valid
// apart but not together) is a conflict for a person.
func (o Options) check(ctx context.Context, tip string, changed, deleted []string) ([]gitstore.Conflict, error) {
	prefix := o.Branch.Prefix
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if r, ok := strings.CutPrefix(p, prefix+"/"); ok {
				out = append(out, r)
			}
		}
		return out
	}
	ch, del := rel(changed), rel(deleted)
	if len(ch)+len(del) == 0 {
		return nil, nil
	}
	after, err := o.errorFindings(ctx, tip, ch, del)
	if err != nil {
		return nil, err
	}
	if len(after) == 0 {
		return nil, nil
	}
	ours, err := o.Branch.Objects.RefHash(o.Branch.Ref())
	if err != nil {
		return nil, err
	}
	before, err := o.errorsAt(ctx, ours, ch, del)
	if err != nil {
		return nil, err
	}
	var out []gitstore.Conflict
	for _, f := range after {
		if !before[key(f)] {
			out = append(out, gitstore.Conflict{Path: prefix + "/" + f.Path, Reason: fmt.Sprintf("the merged records fail lint: %s %s: %s", f.Severity, f.Rule, f.Message)})
		}
	}
	return out, nil
}

// errorsAt lints the paths at commit rev and returns the errors (by key
// for a set of the tip's own).
func (o Options) errorsAt(ctx context.Context, rev string, changed, deleted []string) (map[string]bool, error) {
	set := map[string]bool{}
	fs, err := o.errorFindings(ctx, rev, changed, deleted)
	for _, f := range fs {
		set[key(f)] = true
	}
	return set, err
}

func (o Options) errorFindings(ctx context.Context, rev string, changed, deleted []string) ([]lint.Finding, error) {
	snap, err := gitstore.RevisionSnapshot(ctx, o.Branch.Repo, o.Branch.Objects, rev, o.Branch.Prefix, o.MaxRead)
	if err != nil {
		return nil, err
	}
	rep := lint.Changed(snap, changed, deleted, o.Lint)
	var out []lint.Finding
	for _, f := range rep.Findings {
		if f.Severity == lint.Error {
			out = append(out, f)
		}
	}
	return out, nil
}

func key(f lint.Finding) string { return f.Path + "\x00" + f.Rule + "\x00" + f.Message }

// RefusedError is a push the remote refused (its hooks, a protected
// branch): nothing of it moved there.
type RefusedError struct {
	Remote, Ref, Summary string
	Said                 []string // the remote's reason, its "remote:" lines
}

func (e *RefusedError) Error() string {
	msg := fmt.Sprintf("%s refused %s: %s", e.Remote, e.Ref, e.Summary)
	if len(e.Said) > 0 {
		msg += "; the remote says: " + strings.Join(e.Said, " / ")
	}
	return msg
}

// ErrConflict is returned by callers that treat a conflicted sync as a
// failure (push): the report names the conflicts.
var ErrConflict = errors.New("the remote's memory and the local memory changed the same lines of a record")
