package handler

import (
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// contextHint ends the notice of what the cap left out.
const contextHint = "run `git yoimem context` to read it all"

// sessionStart is the always-on context, as `git yoimem context` prints
// it, built within the smaller of the context budget and the agent's
// cap, so that descriptions are left out whole and named; recorded as
// the session's context cost. A summary alone over that is kept as far
// as it fits, with a line naming the rest (Context.Fit), and no
// description is recorded.
func sessionStart(w *workspace.Workspace, ev agent.Event, o Options) (agent.Response, error) {
	dirs := []string{record.SummaryPath, record.KnowledgeDir}
	loaded := w.OpenCatalogAsync(true, dirs...)
	snap, err := w.Snapshot(dirs...)
	cat := <-loaded
	if err != nil {
		return agent.Response{}, err
	}
	defer cat.Save()
	budget := int(w.Config.Int(config.KeyContextBudgetChars))
	if o.Cap > 0 && (budget <= 0 || budget > o.Cap) {
		budget = o.Cap
	}
	// memory.Context counts characters as runes, agents as UTF-16 units:
	// a context with characters outside the BMP over the cap is cut by
	// Context.Fit, visibly, when the response is encoded.
	res, cut, err := alwaysOn(snap, budget, cat.Examiner(snap))
	if err != nil {
		return agent.Response{}, err
	}
	if cut != nil {
		// Not even the summary fits: the agent's cut takes the
		// descriptions after it too, and the notice says so. None is
		// injected, so no context cost is recorded.
		o.logf("%v; the context is cut to the agent's cap", cut)
		return agent.Response{Context: agent.Context{Summary: res.Text, Hint: contextHint, SummaryName: wholeName(res)}}, nil
	}
	if s := usageSession(ev, o); s != "" {
		if err := w.RecordInjections(s, res); err != nil {
			o.logf("usage not recorded: %v", err)
		}
	}
	return agent.Response{Context: agent.Context{Summary: res.Text, Hint: contextHint}}, nil
}

// alwaysOn is the always-on context of snap within budget, each record
// examined once (memory.ContextEntries lists only what the context
// reads). When not even the summary fits, it is the whole context for the
// agent to cut (Context.Fit), with cut saying why.
func alwaysOn(snap record.Snapshot, budget int, examine memory.Examiner) (res memory.ContextResult, cut, err error) {
	snap, examine = memory.ContextEntries(snap, examine)
	res, cut = memory.Context(snap, budget, examine)
	if cut == nil {
		return res, nil, nil
	}
	res, err = memory.Context(snap, 0, examine)
	return res, cut, err
}

// mayInvoke tells whether a prompt may invoke a record: a # anywhere, or
// a /slug command first. Most prompts do neither and cost nothing.
func mayInvoke(prompt string) bool {
	if strings.IndexByte(prompt, '#') >= 0 {
		return true
	}
	_, ok := memory.SlashCommand([]byte(prompt))
	return ok
}

// userPrompt is the prompt's #slug (and leading /slug) expansions as
// context, one part per record (the cap leaves out the last ones whole
// and names them), after a line for each slug not expanded; each record
// expanded is an invoke of the session.
func userPrompt(w *workspace.Workspace, ev agent.Event, o Options) (agent.Response, error) {
	// Only the records the prompt names are listed: a knowledge directory
	// of thousands of files costs milliseconds to list, in front of the
	// user.
	paths := invokedPaths(ev.Prompt)
	if len(paths) == 0 {
		return agent.Response{}, nil // a # that is no reference
	}
	snap, err := w.Snapshot(paths...)
	if err != nil {
		return agent.Response{}, err
	}
	ex, err := memory.Expand(snap, []byte(ev.Prompt))
	if err != nil {
		// A record over the size limit: said, never left out silently.
		return agent.Response{Context: agent.Context{Summary: "[git-yoimem: not expanded: " + err.Error() + "]"}}, nil
	}
	var notes []string
	for _, s := range ex.Unknown {
		notes = append(notes, "[git-yoimem: "+invoked(ex, s)+": no such knowledge record]")
	}
	for _, s := range ex.Refused {
		notes = append(notes, "[git-yoimem: "+invoked(ex, s)+": not expanded (user_invocable: false)]")
	}
	c := agent.Context{Summary: strings.Join(notes, "\n"), Hint: "read them with the knowledge_read tool or `git yoimem show SLUG`"}
	for _, s := range ex.Expanded {
		one, err := memory.Expand(snap, []byte("#"+s))
		if err != nil {
			return agent.Response{}, err
		}
		c.Parts = append(c.Parts, agent.Part{Name: invoked(ex, s), Text: strings.TrimLeft(one.Blocks, "\n")})
	}
	recordExpansion(w, ev, o, ex)
	return agent.Response{Context: c}, nil
}

// invokedPaths are the knowledge records a prompt may invoke: its #slug
// references and a leading /slug, .yoi/-relative.
func invokedPaths(prompt string) []string {
	var paths []string
	if slug, ok := memory.SlashCommand([]byte(prompt)); ok {
		paths = append(paths, knowledgePath(slug))
	}
	for _, r := range record.Refs([]byte(prompt)) {
		paths = append(paths, knowledgePath(r.Slug))
	}
	return paths
}

// invoked is a slug as the prompt invoked it: /slug or #slug.
func invoked(ex memory.Expansion, slug string) string {
	if slug == ex.Slash {
		return "/" + slug
	}
	return "#" + slug
}

// recordExpansion journals each record expanded as an invoke of the
// session, as `git yoimem expand` does: "slash" for /slug, "slug" for
// #slug.
func recordExpansion(w *workspace.Workspace, ev agent.Event, o Options, ex memory.Expansion) {
	s := usageSession(ev, o)
	if s == "" || len(ex.Expanded) == 0 {
		return
	}
	var slugs []string
	for _, slug := range ex.Expanded {
		if slug == ex.Slash {
			if err := w.RecordUse(s, metrics.HowSlash, knowledgePath(slug)); err != nil {
				o.logf("usage not recorded: %v", err)
			}
			continue
		}
		slugs = append(slugs, knowledgePath(slug))
	}
	if err := w.RecordUse(s, metrics.HowSlug, slugs...); err != nil {
		o.logf("usage not recorded: %v", err)
	}
}

// wholeName is what the notice calls a whole context cut short: the
// summary and the descriptions after it, named.
func wholeName(res memory.ContextResult) string {
	n := len(res.Included)
	switch {
	case n == 0:
		return "the summary"
	case n == 1:
		return "the summary and the description of 1 knowledge record (#" + res.Included[0] + ")"
	}
	shown := res.Included[:min(n, 5)]
	more := ""
	if n > len(shown) {
		more = fmt.Sprintf(", and %d more", n-len(shown))
	}
	return fmt.Sprintf("the summary and the descriptions of %d knowledge records (#%s%s)", n, strings.Join(shown, ", #"), more)
}
