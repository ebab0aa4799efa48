package consolidate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// topicEngine is a small deterministic engine for the core's tests (the
// rules engine lives in consolidate/rules): one decision record per
// decision topic, one request record per request target, each line
// added once, sources from the entry. Running it again over its own
// result changes nothing.
type topicEngine struct {
	fail    error                     // returned after the changes, when set
	between func(ctx context.Context) // called between changes
}

func (topicEngine) Name() string  { return "test" }
func (topicEngine) Model() string { return "" }

func (e topicEngine) Run(ctx context.Context, s *Session) error {
	for _, en := range s.Input().Entries {
		for _, d := range en.Activity.Decisions {
			line := fmt.Sprintf("Chosen: %s (%s)", d.Chosen, d.Rationale)
			if err := e.fold(ctx, s, "memory/decisions/"+slugOf(d.Topic)+".md", "---\nstatus: resolved\n---\n# "+d.Topic+"\n", line, en.ID); err != nil {
				return err
			}
		}
		for _, r := range en.Activity.Requests {
			if err := e.fold(ctx, s, "memory/requests/"+slugOf(r.Target)+".md", "---\n---\n# "+r.Target+"\n", r.Summary, en.ID); err != nil {
				return err
			}
		}
	}
	return e.fail
}

// fold adds line to the record at path (created from head), citing the
// entry; a line already there only adds the source.
func (e topicEngine) fold(ctx context.Context, s *Session, path, head, line, entry string) error {
	if e.between != nil {
		e.between(ctx)
	}
	cur, err := s.Snapshot().Read(path)
	c := Change{Kind: memlog.OpUpdate, Path: path, Staging: []string{entry}, Reason: "from " + entry}
	switch {
	case errors.Is(err, record.ErrNotExist):
		c.Kind, c.Content = memlog.OpAdd, []byte(head+line+"\n")
	case err != nil:
		return err
	case strings.Contains(string(cur), line+"\n"):
		c.Content = cur
	default:
		c.Content = append(cur, line+"\n"...)
	}
	_, err = s.Apply(ctx, c)
	var r *Refusal
	if errors.As(err, &r) && strings.Contains(r.Reason, "changes nothing") {
		return nil
	}
	return err
}

func slugOf(topic string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(topic) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
