package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/sessionlog"
)

// Input is one extract run: the entries of a session after the pointer.
type Input struct {
	Session string
	Entries []sessionlog.Entry // complete lines after the pointer, in order
	Model   llm.Provider
	Render  RenderOptions
	// MaxTokens bounds the model's answer; 0: 4096.
	MaxTokens int
}

// Result is what a run found.
type Result struct {
	From, To int      // the entry range covered (line numbers, inclusive); To is where the pointer goes
	Activity Activity // empty: nothing to save (no staging file)
	Calls    int      // model calls made (0 when the range held no conversation)
	Splits   int      // times a range was halved for the model's context
	Usage    llm.Usage
	Rendered Rendered // of the whole range
}

// maxSplitDepth bounds halving: 2^12 parts of a range is far past any
// context window; a single entry too large is capped by rendering.
const maxSplitDepth = 12

// ErrNothingNew means there are no entries after the pointer.
var ErrNothingNew = errors.New("no new entries after the pointer")

// Run renders the range, asks the model, and returns the activity. A range
// the model cannot take whole (a context-length error) is split in halves,
// each asked on its own, never retried as it was. Any other failure is an
// error, and the caller leaves the pointer where it was.
func Run(ctx context.Context, in Input) (Result, error) {
	if len(in.Entries) == 0 {
		return Result{}, ErrNothingNew
	}
	res := Result{From: in.Entries[0].Index, To: in.Entries[len(in.Entries)-1].Index}
	res.Rendered = Render(in.Entries, in.Render)
	if res.Rendered.Entries == 0 {
		return res, nil // only noise: nothing to ask, the pointer still moves
	}
	err := ask(ctx, in, in.Entries, 0, &res)
	return res, err
}

// FirstRequest is the request Run sends first for in's entries, built as
// Run builds it (a range split after a context-length error sends its
// halves the same way), with the rendering of the transcript; ok is false
// when the entries hold nothing to show, and Run asks the model nothing.
// A dry run prints it.
func FirstRequest(in Input) (req llm.Request, r Rendered, ok bool) {
	if len(in.Entries) == 0 {
		return llm.Request{}, Rendered{}, false
	}
	return requestFor(in, in.Entries)
}

// requestFor renders part and builds the request that asks about it.
func requestFor(in Input, part []sessionlog.Entry) (llm.Request, Rendered, bool) {
	r := Render(part, in.Render)
	if r.Entries == 0 {
		return llm.Request{}, r, false
	}
	return request(in, part[0].Index, part[len(part)-1].Index, r.Text), r, true
}

// ask extracts from part, halving it on a context-length error.
func ask(ctx context.Context, in Input, part []sessionlog.Entry, depth int, res *Result) error {
	req, _, ok := requestFor(in, part)
	if !ok {
		return nil
	}
	from, to := part[0].Index, part[len(part)-1].Index
	resp, err := in.Model.Call(ctx, req)
	res.Calls++
	res.Usage = res.Usage.Add(resp.Usage)
	if errors.Is(err, llm.ErrContextLength) && len(part) > 1 && depth < maxSplitDepth {
		res.Splits++
		half := splitPoint(part)
		if err := ask(ctx, in, part[:half], depth+1, res); err != nil {
			return err
		}
		return ask(ctx, in, part[half:], depth+1, res)
	}
	if err != nil {
		return fmt.Errorf("extract entries %d-%d of session %s: %w", from, to, in.Session, err)
	}
	if len(resp.JSON) == 0 {
		return fmt.Errorf("extract entries %d-%d of session %s: %w", from, to, in.Session, llm.ErrEmpty)
	}
	a, err := parseActivity(json.RawMessage(resp.JSON))
	if err != nil {
		return fmt.Errorf("extract entries %d-%d of session %s: %w", from, to, in.Session, err)
	}
	res.Activity.Append(a)
	return nil
}

// splitPoint halves a range, starting the second half at the user message
// nearest the middle, so that a turn and its answer stay together, or at
// the middle when there is none near.
func splitPoint(part []sessionlog.Entry) int {
	mid := len(part) / 2
	// Within a quarter of the range, so that both halves keep at least a
	// quarter and splitting makes progress; a short range may use all of it.
	reach := len(part) / 4
	if len(part) < 8 {
		reach = len(part)
	}
	for d := 0; d < reach; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > 0 && i < len(part) && part[i].Role == sessionlog.RoleUser && part[i].Kind == sessionlog.KindMessage && !part[i].Injected {
				return i
			}
		}
	}
	return mid
}

func request(in Input, from, to int, transcript string) llm.Request {
	return llm.Request{
		System:    systemPrompt,
		Messages:  []llm.Message{{Role: llm.RoleUser, Text: userPrompt(in.Session, from, to, transcript)}},
		Schema:    &llm.Schema{Name: "session_activity", JSON: json.RawMessage(Schema)},
		MaxTokens: orDefault(in.MaxTokens, 4096),
	}
}
