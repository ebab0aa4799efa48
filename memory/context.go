package memory

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/internal/inject"
	"github.com/yoimem/git-yoimem/record"
)

// Markers around text git-yoimem puts into an agent's context (the exact
// block format is internal/inject's). Extract recognizes the blocks and
// leaves them out of what it sends to the model: memory must not be
// re-learned from its own injections. Record text inside is escaped, so
// that it cannot close a block and go on as if the system spoke.
const (
	InjectOpen  = "<yoimem-memory"
	InjectClose = inject.Close
)

// ContextResult is the always-on context and what did not fit; its JSON
// form is context --format json.
type ContextResult struct {
	Text     string   `json:"text"`     // the context, markers included
	Chars    int      `json:"chars"`    // its length in characters
	Budget   int      `json:"budget"`   // the budget it was built for
	Included []string `json:"included"` // slugs whose descriptions are in
	Left     []string `json:"left_out"` // slugs whose descriptions did not fit
	// SummaryMissing says .yoi/ has no memory/summary.md: the context
	// says so in a visible line instead of going without it silently.
	SummaryMissing bool `json:"summary_missing,omitempty"`
	// Costs are the estimated tokens (tokens.Estimate) of each included
	// slug's line: what its description costs every session.
	Costs map[string]int64 `json:"-"`
}

// Context builds the always-on context: the summary's body, then the
// descriptions of the model_invokation: true knowledge records (slug order)
// so the model knows what it may look up. It never cuts text silently:
// descriptions that do not fit are left out whole and named in a visible
// line at the end; a summary alone over the budget is an error. examine
// supplies the records' facts (a cache spares reading them); nil reads
// every knowledge file.
func Context(snap record.Snapshot, budget int, examine Examiner) (ContextResult, error) {
	if examine == nil {
		examine = invocableExaminer(snap)
	}
	res := ContextResult{Budget: budget, Included: []string{}, Left: []string{}, Costs: map[string]int64{}}
	var b strings.Builder
	b.WriteString(inject.OpenContext() + "\n")
	if content, err := snap.Read(record.SummaryPath); err == nil {
		if doc, err := record.Parse(content); err == nil {
			b.WriteString(inject.Escape(string(doc.Body())))
			if !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte('\n')
			}
		} else {
			return res, fmt.Errorf("%s: %w", record.SummaryPath, err)
		}
	} else if tooLarge(err) {
		return res, err // never a context without the summary, silently
	} else if errors.Is(err, record.ErrNotExist) {
		res.SummaryMissing = true
		b.WriteString("[git-yoimem: " + record.DisplayPath(record.SummaryPath) + " is missing: this context has no summary]\n")
	} else {
		return res, fmt.Errorf("%s: %w", record.SummaryPath, err)
	}
	var descs []desc
	for _, e := range snap.Entries {
		loc := record.Classify(e.Path)
		if e.Mode != record.ModeRegular || loc.Kind != record.KindKnowledge || loc.SlugErr != nil {
			continue
		}
		ex, err := examine(e)
		if tooLarge(err) {
			return res, err // it may be invocable: never left out silently
		}
		if err != nil || !ex.ModelInvokation || ex.Description == "" {
			continue
		}
		descs = append(descs, desc{loc.Slug, inject.Escape(oneLine(ex.Description))})
	}
	sort.Slice(descs, func(i, j int) bool { return descs[i].slug < descs[j].slug })
	closing := InjectClose + "\n"
	// Lengths are counted as the text grows: counting the whole text for
	// every line would cost the square of the context.
	used := utf8.RuneCountInString(b.String()) + utf8.RuneCountInString(closing)
	if budget > 0 && used > budget {
		return res, fmt.Errorf("the summary alone has %d characters, over the context budget of %d (yoimem.context.budgetChars): shorten memory/summary.md or raise the budget", used, budget)
	}
	lines, notice, err := fitDescriptions(descs, budget, used, &res)
	if err != nil {
		return res, err
	}
	for _, line := range lines {
		b.WriteString(line)
	}
	b.WriteString(notice)
	b.WriteString(closing)
	res.Text = b.String()
	res.Chars = utf8.RuneCountInString(res.Text)
	return res, nil
}

// tooLarge reports a read refused by its size limit. No error, the usual
// answer for every knowledge record, costs no allocation.
func tooLarge(err error) bool {
	if err == nil {
		return false
	}
	var tl *record.TooLargeError
	return errors.As(err, &tl)
}

// invocableExaminer reads a file and examines it only when it may be
// model-invocable: the context needs no more.
func invocableExaminer(snap record.Snapshot) Examiner {
	return func(e record.Entry) (Examined, error) {
		content, err := snap.Read(e.Path)
		if err != nil || !mayBeInvocable(content) {
			return Examined{}, err
		}
		return ExamineFacts(e.Path, content), nil
	}
}

// mayBeInvocable is a cheap test before parsing: true unless no line with
// model_invokation (or model_invocation) says true.
func mayBeInvocable(content []byte) bool {
	for rest := content; ; {
		i := bytes.Index(rest, []byte("model_invo"))
		if i < 0 {
			return false
		}
		line := rest[i:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		if bytes.Contains(bytes.ToLower(line), []byte("true")) {
			return true
		}
		rest = rest[i+len("model_invo"):]
	}
}
