package consolidate

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// NotesRef is where a memory commit's evidence is kept.
const NotesRef = "refs/notes/yoimem"

// evidenceVersion is the version of the note's format.
const evidenceVersion = 1

// Evidence is a memory commit's git note (docs/consolidate.md, "The
// commit, its note and metrics"): the consumed staging entries, as they
// were, and the rest of what the run worked from, so that a reviewer sees
// the evidence behind every change and a replay runs the same input
// against the commit's parent. Paths are printed from the workspace root.
type Evidence struct {
	Version    int                  `json:"version"`
	RunID      string               `json:"run_id"`
	Engine     string               `json:"engine"`
	Model      string               `json:"model,omitempty"`
	Now        time.Time            `json:"now"`
	Base       string               `json:"base"` // the commit the run planned on
	Entries    []extract.Staging    `json:"entries"`
	Usage      map[string]usageJSON `json:"usage"`
	Candidates []string             `json:"candidates"`
	Locked     []string             `json:"locked"`
	// LockPatterns are the configured locks, .yoi/-relative.
	LockPatterns []string `json:"lock_patterns,omitempty"`
	Lint         lintJSON `json:"lint"`
	KeepShare    float64  `json:"keep_share,omitempty"`
}

type usageJSON struct {
	Uses      int     `json:"uses"`
	Frequency float64 `json:"frequency"`
	Known     bool    `json:"known"`
	Unused    bool    `json:"unused,omitempty"`
	Protected bool    `json:"protected,omitempty"`
}

// lintJSON are the linter's thresholds a run's outcome depends on: the
// errors that refuse a change (size, caps, description) and the source
// list length the rules engine trims to. Those of warnings only are not
// kept: a replay takes today's.
type lintJSON struct {
	MaxFileBytes     int64          `json:"max_file_bytes"`
	Caps             map[string]int `json:"caps"`
	DescriptionChars int            `json:"description_chars"`
	SourcesWarn      int            `json:"sources_warn"`
}

// evidenceOf is the note of a run planned on in with engine e.
func evidenceOf(in *Input, engine, model string) Evidence {
	ev := Evidence{
		Version: evidenceVersion, RunID: in.RunID, Engine: engine, Model: model, Now: in.Now.UTC(), Base: in.BaseCommit,
		Entries: in.Entries, Usage: map[string]usageJSON{}, Candidates: []string{}, Locked: []string{},
		Lint: lintOf(in.Lint), KeepShare: in.Policy.KeepShare,
	}
	if ev.Entries == nil {
		ev.Entries = []extract.Staging{}
	}
	for p, u := range in.Usage {
		ev.Usage[record.DisplayPath(p)] = usageJSON(u)
	}
	for _, c := range in.Candidates {
		ev.Candidates = append(ev.Candidates, displayOf(c))
	}
	for p, ok := range in.Locked {
		if ok {
			ev.Locked = append(ev.Locked, record.DisplayPath(p))
		}
	}
	sort.Strings(ev.Locked)
	ev.LockPatterns = in.LockPatterns
	return ev
}

func lintOf(o lint.Options) lintJSON {
	l := lintJSON{MaxFileBytes: o.MaxFileBytes, Caps: map[string]int{}, DescriptionChars: o.DescriptionChars, SourcesWarn: o.SourcesWarn}
	for k, n := range o.Caps {
		l.Caps[k.String()] = n
	}
	return l
}

// options are the thresholds recorded, over base (which keeps what is
// not recorded: the warnings' thresholds, the importance function).
func (l lintJSON) options(base lint.Options) (lint.Options, error) {
	o := base
	o.MaxFileBytes, o.DescriptionChars, o.SourcesWarn = l.MaxFileBytes, l.DescriptionChars, l.SourcesWarn
	o.Caps = map[record.Kind]int{}
	for k, n := range l.Caps {
		kind, err := record.ParseKind(k)
		if err != nil {
			return lint.Options{}, fmt.Errorf("lint caps: %w", err)
		}
		o.Caps[kind] = n
	}
	return o, nil
}

// Marshal renders the note: indented JSON, for people reading it with
// git notes show.
func (ev Evidence) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(ev, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ParseEvidence reads a note; name says where it came from.
func ParseEvidence(name string, b []byte) (Evidence, error) {
	var ev Evidence
	if err := json.Unmarshal(b, &ev); err != nil {
		return Evidence{}, fmt.Errorf("%s: %w", name, err)
	}
	if ev.Version != evidenceVersion {
		return Evidence{}, fmt.Errorf("%s: version %d; this git-yoimem reads version %d", name, ev.Version, evidenceVersion)
	}
	if ev.RunID == "" {
		return Evidence{}, fmt.Errorf("%s: no run_id", name)
	}
	for i, e := range ev.Entries {
		raw, err := json.Marshal(e)
		if err != nil {
			return Evidence{}, fmt.Errorf("%s: entry %d: %w", name, i+1, err)
		}
		if ev.Entries[i], err = extract.ParseStaging(fmt.Sprintf("%s: entry %d", name, i+1), raw); err != nil {
			return Evidence{}, err
		}
	}
	return ev, nil
}

// input rebuilds the input of the run over base (the snapshot of
// ev.Base), with lint options whose thresholds the note records.
func (ev Evidence) input(base record.Snapshot, opts lint.Options) (*Input, error) {
	lo, err := ev.Lint.options(opts)
	if err != nil {
		return nil, err
	}
	in := &Input{RunID: ev.RunID, Now: ev.Now, Base: base, BaseCommit: ev.Base, Entries: ev.Entries,
		Usage: map[string]RecordUsage{}, Locked: map[string]bool{}, Lint: lo, Policy: Policy{KeepShare: ev.KeepShare}}
	for p, u := range ev.Usage {
		rel, err := record.ToolPath(p)
		if err != nil {
			return nil, fmt.Errorf("usage of %s: %w", p, err)
		}
		in.Usage[rel] = RecordUsage(u)
	}
	for _, c := range ev.Candidates {
		rel, err := record.ToolPath(c)
		if err != nil {
			return nil, fmt.Errorf("candidate %s: %w", c, err)
		}
		in.Candidates = append(in.Candidates, rel)
	}
	for _, p := range ev.LockPatterns {
		c, err := record.CleanLock(p)
		if err != nil {
			return nil, fmt.Errorf("lock pattern %s: %w", p, err)
		}
		in.LockPatterns = append(in.LockPatterns, c)
	}
	for _, p := range ev.Locked {
		rel, err := record.ToolPath(p)
		if err != nil {
			return nil, fmt.Errorf("locked %s: %w", p, err)
		}
		in.Locked[rel] = true
	}
	return in, nil
}
