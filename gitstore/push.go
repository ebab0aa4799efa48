package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/memlog"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// PushQuery names what a push sends: the objects the pushed refs point at
// and what the remote is known to have.
type PushQuery struct {
	// Tips are the objects the pushed refs point at (commits or tags).
	Tips []string
	// Have are objects the remote has (the remote's old values of the
	// refs): their history is not new. Those this repository does not
	// have (someone else pushed them) are left out.
	Have []string
	// Remote excludes what a remote's tracking refs have: a remote's name,
	// "*" for every remote (a push to a URL), "" for none.
	Remote string
	// Base, if set, is a ref whose commits the log includes too, to tell
	// them apart (PushLog.OnBase); they are not pushed for being there.
	Base string
	// Prefix is .yoi/'s path from the top, slash-separated.
	Prefix string
}

// PushCommit is one new commit, reduced to what pre-push checks.
type PushCommit struct {
	Hash plumbing.Hash
	// Files are the changed paths under Prefix, Prefix-relative.
	Files []string
	// OnlyPrefix: it changes files, all under Prefix (a memory commit's
	// shape; merges list no files).
	OnlyPrefix bool
	// Trailers: its message carries Yoimem-* trailers.
	Trailers bool
	// Revert: a revert of another commit (its message says so).
	Revert bool
	// TrailerErr is memlog.CheckTrailers' verdict on its message, when the
	// message has Yoimem-* trailers or the commit could be a memory
	// commit (only Prefix changed, not a revert); nil otherwise.
	TrailerErr error

	parents []plumbing.Hash
}

// PushLog is the new commits of a push, read by one git process however
// many refs are pushed, with their graph among themselves.
type PushLog struct {
	Commits []PushCommit
	index   map[plumbing.Hash]int
	parents [][]int // indices, among Commits, of each commit's parents
}

// maxMessageBytes bounds a commit message read from git log: a commit
// is bounded the same way when read here (maxObjectBytes).
const maxMessageBytes = maxObjectBytes

// ReadPushLog lists the new commits of a push with one git log: every
// commit reachable from a tip (or Base) and not from what the remote has.
// Tips and Have go on git's stdin, so the command line does not grow with
// the number of refs.
func ReadPushLog(ctx context.Context, r Repo, objs *Objects, q PushQuery) (*PushLog, error) {
	var stdin bytes.Buffer
	for _, t := range q.Tips {
		stdin.WriteString(t + "\n")
	}
	if q.Base != "" {
		stdin.WriteString(q.Base + "\n")
	}
	for _, h := range q.Have {
		// git takes a full hash for a name without looking, then fails
		// on the missing object: ask the object store first.
		if objs.Has(h) {
			stdin.WriteString("^" + h + "\n")
		}
	}
	// --stdin before --not: the lines are tips whatever git's version
	// does with --not for stdin; "^" marks what the remote has.
	args := []string{"log", "--stdin", "--ignore-missing", "-z", "--no-renames", "--format=%x01%H %P%x00%B%x00", "--name-status"}
	switch q.Remote {
	case "":
	case "*":
		args = append(args, "--not", "--remotes")
	default:
		args = append(args, "--not", "--remotes="+q.Remote)
	}
	args = append(args, "--")
	l := &PushLog{index: map[plumbing.Hash]int{}}
	err := r.Git.Stream(ctx, stdin.Bytes(), func(out io.Reader) error {
		return l.parse(newTokens(out), q.Prefix)
	}, args...)
	if err != nil {
		return nil, fmt.Errorf("list the pushed commits: %w", err)
	}
	l.link()
	return l, nil
}

// tokens reads git's NUL-terminated output one token at a time, each at
// most maxMessageBytes.
type tokens struct {
	br      *bufio.Reader
	long    []byte
	pending []byte // a token read ahead
	has     bool
}

func newTokens(r io.Reader) *tokens { return &tokens{br: bufio.NewReaderSize(r, 64<<10)} }

// next returns the next token (valid until the next call), io.EOF at the
// end of the output.
func (t *tokens) next() ([]byte, error) {
	if t.has {
		t.has = false
		return t.pending, nil
	}
	t.long = t.long[:0]
	for {
		b, err := t.br.ReadSlice(0)
		switch {
		case err == nil && len(t.long) == 0:
			return b[:len(b)-1], nil
		case err == nil:
			t.long = append(t.long, b[:len(b)-1]...)
			return t.long, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if len(t.long)+len(b) > maxMessageBytes {
				return nil, fmt.Errorf("git log printed a field of more than %s bytes", quote.Thousands(maxMessageBytes))
			}
			t.long = append(t.long, b...)
		case errors.Is(err, io.EOF) && len(b) == 0 && len(t.long) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("git log: output cut short")
		default:
			return nil, err
		}
	}
}

// unread makes tok the next token again.
func (t *tokens) unread(tok []byte) {
	t.pending, t.has = append(t.pending[:0], tok...), true
}

// parse reads `git log -z --format=%x01%H %P%x00%B%x00 --name-status`:
// per commit, "\x01<hash> <parents>", the message, an empty token, then
// status and path tokens ("\nM", path, "A", path…).
func (l *PushLog) parse(t *tokens, prefix string) error {
	for {
		head, err := t.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		c, err := parseCommitLine(head)
		if err != nil {
			return err
		}
		msg, err := t.next()
		if err != nil {
			return fmt.Errorf("commit %s: %w", c.Hash, err)
		}
		message := string(msg)
		if sep, err := t.next(); err != nil || len(sep) != 0 {
			return fmt.Errorf("commit %s: git log: unexpected output after the message", c.Hash)
		}
		if err := l.readFiles(t, &c, prefix); err != nil {
			return fmt.Errorf("commit %s: %w", c.Hash, err)
		}
		c.judge(message)
		l.index[c.Hash] = len(l.Commits)
		l.Commits = append(l.Commits, c)
	}
}

func parseCommitLine(head []byte) (PushCommit, error) {
	rest, ok := bytes.CutPrefix(head, []byte{1})
	f := strings.Fields(string(rest))
	if !ok || len(f) == 0 || !plumbing.IsHash(f[0]) {
		return PushCommit{}, fmt.Errorf("git log: unexpected output %.80q", head)
	}
	c := PushCommit{Hash: plumbing.NewHash(f[0])}
	for _, p := range f[1:] {
		c.parents = append(c.parents, plumbing.NewHash(p))
	}
	return c, nil
}

// readFiles reads a commit's status and path tokens up to the next commit.
func (l *PushLog) readFiles(t *tokens, c *PushCommit, prefix string) error {
	outside, any := false, false
	for {
		status, err := t.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if len(status) > 0 && status[0] == 1 {
			t.unread(status)
			break
		}
		if len(bytes.TrimSpace(status)) == 0 {
			continue
		}
		p, err := t.next()
		if err != nil {
			return fmt.Errorf("git log: a status without its path: %w", err)
		}
		any = true
		if rel, ok := strings.CutPrefix(string(p), prefix+"/"); ok {
			c.Files = append(c.Files, rel)
		} else {
			outside = true
		}
	}
	c.OnlyPrefix = any && !outside
	return nil
}

// judge reads what pre-push needs of a message, which is not kept.
func (c *PushCommit) judge(msg string) {
	for _, tr := range memlog.ParseTrailers(msg) {
		c.Trailers = c.Trailers || strings.HasPrefix(strings.ToLower(tr.Key), "yoimem-")
	}
	c.Revert = !c.Trailers && strings.Contains(msg, "\nThis reverts commit ")
	if c.Trailers || c.OnlyPrefix && !c.Revert {
		c.TrailerErr = memlog.CheckTrailers(msg)
	}
}

// link resolves each commit's parents among the new commits.
func (l *PushLog) link() {
	l.parents = make([][]int, len(l.Commits))
	for i := range l.Commits {
		for _, p := range l.Commits[i].parents {
			if j, ok := l.index[p]; ok {
				l.parents[i] = append(l.parents[i], j)
			}
		}
		l.Commits[i].parents = nil
	}
}

// Index is the position of commit h among Commits; ok is false when h
// is not new.
func (l *PushLog) Index(h plumbing.Hash) (int, bool) {
	i, ok := l.index[h]
	return i, ok
}

// Reach marks the new commits reachable from each start (indices of
// Commits), stopping at those already marked: mark[i] is the first start,
// in order, that reaches commit i, or -1.
func (l *PushLog) Reach(starts []int) []int {
	mark := make([]int, len(l.Commits))
	for i := range mark {
		mark[i] = -1
	}
	var stack []int
	for s, start := range starts {
		if start < 0 || mark[start] >= 0 {
			continue
		}
		mark[start] = s
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range l.parents[i] {
				if mark[p] < 0 {
					mark[p] = s
					stack = append(stack, p)
				}
			}
		}
	}
	return mark
}
