package consolidate

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// planned is an accepted change before the linter sees it: the file
// writes it makes, the operation it is, the staging entries it used and
// the records it makes protected.
type planned struct {
	writes  []record.Change
	op      memlog.Op
	staging []string
	protect []string
}

// errNoChange: the change leaves the record as it is.
var errNoChange = fmt.Errorf("it changes nothing")

// plan checks c against the principles and works out its writes.
func (s *Session) plan(c Change) (*planned, error) {
	rel, err := s.recordPath(c, c.Path)
	if err != nil {
		return nil, err
	}
	target := ""
	if c.Target != "" {
		if target, err = s.recordPath(c, c.Target); err != nil {
			return nil, err
		}
		if target == rel {
			return nil, s.refuse(c, "the target is the record itself")
		}
	}
	if err := s.checkOp(c, target); err != nil {
		return nil, err
	}
	srcs, err := s.sources(c)
	if err != nil {
		return nil, err
	}
	p := &planned{
		op:      memlog.Op{Kind: c.Kind, Path: rel, Target: target, Categories: memlog.SortCategories(c.Categories), Reason: strings.Join(strings.Fields(c.Reason), " ")},
		staging: c.Staging,
	}
	switch c.Kind {
	case memlog.OpAdd:
		err = s.planAdd(c, p, rel, srcs)
	case memlog.OpUpdate, memlog.OpTrim, memlog.OpRewrite:
		err = s.planEdit(c, p, rel, srcs)
	case memlog.OpReplace:
		err = s.planReplace(c, p, rel, target, srcs)
	case memlog.OpDrop:
		err = s.planDrop(c, p, rel)
	case memlog.OpMerge:
		err = s.planMerge(c, p, rel, target, srcs)
	case memlog.OpSplit:
		err = s.planSplit(c, p, rel, target, srcs)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// recordPath resolves a path of c: a record of memory/ or knowledge/ that
// no one locked.
func (s *Session) recordPath(c Change, p string) (string, error) {
	rel, err := record.ToolPath(p)
	if err != nil {
		return "", s.refuse(c, "%v", err)
	}
	loc := record.Classify(rel)
	switch {
	case loc.Area == record.AreaWorkflow:
		return "", s.refuse(c, "automation never writes under .yoi/workflow/")
	case loc.Area != record.AreaRecord:
		return "", s.refuse(c, "%s is not a record: only memory/summary.md, memory/decisions/, memory/requests/ and knowledge/ are written", record.DisplayPath(rel))
	case s.Locked(rel):
		return "", s.refuse(c, "%s is locked (read-only in the working tree, or listed in .yoi/config): leave it as it is", record.DisplayPath(rel))
	}
	return rel, nil
}

// checkOp checks what every operation needs: a known kind, a reason, a
// target exactly where one belongs, and categories on tidy-ups.
func (s *Session) checkOp(c Change, target string) error {
	switch c.Kind {
	case memlog.OpAdd, memlog.OpUpdate, memlog.OpReplace, memlog.OpDrop, memlog.OpMerge, memlog.OpSplit, memlog.OpTrim, memlog.OpRewrite:
	default:
		return s.refuse(c, "unknown operation %q: want add, update, replace, drop, merge, split, trim or rewrite", c.Kind)
	}
	needsTarget := c.Kind == memlog.OpReplace || c.Kind == memlog.OpMerge || c.Kind == memlog.OpSplit
	switch {
	case strings.TrimSpace(c.Reason) == "":
		return s.refuse(c, "give a reason: the commit message says why every record changed")
	case needsTarget && target == "":
		return s.refuse(c, "%s needs a target record", c.Kind)
	case !needsTarget && target != "":
		return s.refuse(c, "%s takes no target record", c.Kind)
	case c.Kind.IsTidy() && len(c.Categories) == 0:
		return s.refuse(c, "a tidy-up (%s) needs one or more categories: outdated, superseded, unused, noisy", c.Kind)
	case c.KeepSources != 0 && c.Kind != memlog.OpTrim:
		return s.refuse(c, "only a trim keeps fewer sources")
	}
	seen := map[memlog.Category]bool{}
	for _, cat := range c.Categories {
		if !slices.Contains(memlog.Categories(), cat) {
			return s.refuse(c, "unknown category %q: want outdated, superseded, unused or noisy", cat)
		}
		if seen[cat] {
			return s.refuse(c, "category %q given twice", cat)
		}
		seen[cat] = true
	}
	return nil
}

// sources are the sources of the staging entries c names, in the order
// named, each once.
func (s *Session) sources(c Change) ([]record.Source, error) {
	var out []record.Source
	for _, id := range c.Staging {
		e, ok := s.entries[id]
		if !ok {
			return nil, s.refuse(c, "no staging entry %q in this run: name the entries the change draws on by their ids", id)
		}
		out = appendSource(out, record.Source{SessionID: e.Source.SessionID, Range: e.Source.Range})
	}
	return out, nil
}

func appendSource(list []record.Source, src ...record.Source) []record.Source {
	for _, x := range src {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

// current reads a record that must exist.
func (s *Session) current(c Change, rel string) (*record.Record, []byte, error) {
	b, ok, err := s.read(rel)
	if err != nil {
		return nil, nil, s.refuse(c, "read %s: %v", record.DisplayPath(rel), err)
	}
	if !ok {
		return nil, nil, s.refuse(c, "%s does not exist", record.DisplayPath(rel))
	}
	rec, _, err := record.Decode(rel, b)
	if err != nil {
		return nil, nil, s.refuse(c, "%s does not parse: %v; rewrite it whole", record.DisplayPath(rel), err)
	}
	return rec, b, nil
}

func (s *Session) exists(rel string) bool {
	_, ok, _ := s.read(rel)
	return ok
}

func (s *Session) planAdd(c Change, p *planned, rel string, srcs []record.Source) error {
	if s.exists(rel) {
		return s.refuse(c, "%s exists: update it instead of adding it", record.DisplayPath(rel))
	}
	kind := record.Classify(rel).Kind
	switch kind {
	case record.KindDecision, record.KindRequest:
		if len(srcs) == 0 {
			return s.refuse(c, "a new %s needs the staging entries it comes from (its sources)", kind)
		}
	case record.KindKnowledge:
		if len(c.DerivedFrom) == 0 {
			return s.refuse(c, "a new knowledge record comes only from records of the knowledge-candidate report: name them (derived from)")
		}
		for _, d := range c.DerivedFrom {
			drel, err := record.ToolPath(d)
			if err != nil || !s.cands[drel] {
				return s.refuse(c, "%s is not in the knowledge-candidate report: new knowledge comes only from records there; keep this in decisions and requests until it is", displayOf(d))
			}
			if len(srcs) == 0 {
				if rec, _, err := s.current(c, drel); err == nil {
					srcs = appendSource(srcs, rec.Sources...)
					srcs = appendSource(srcs, rec.LastSources...)
				}
			}
		}
	}
	content, err := s.finalize(c, rel, c.Content, nil, srcs)
	if err != nil {
		return err
	}
	p.writes = append(p.writes, record.Change{Op: record.OpPut, Path: rel, Content: content, Create: true})
	return nil
}

func (s *Session) planEdit(c Change, p *planned, rel string, srcs []record.Source) error {
	rec, old, err := s.current(c, rel)
	if err != nil {
		return err
	}
	if c.KeepSources > 0 && rec.Kind != record.KindDecision && rec.Kind != record.KindRequest {
		return s.refuse(c, "only a decision's or request's sources are trimmed")
	}
	content, err := s.finalize(c, rel, c.Content, rec, srcs)
	if err != nil {
		return err
	}
	if bytes.Equal(content, old) {
		return s.refuse(c, "%v", errNoChange)
	}
	if err := s.checkCompression(c, rel, rec, old, content); err != nil {
		return err
	}
	p.writes = append(p.writes, record.Change{Op: record.OpPut, Path: rel, Content: content})
	return nil
}

func (s *Session) planReplace(c Change, p *planned, rel, target string, srcs []record.Source) error {
	if record.Classify(rel).Kind != record.KindDecision {
		return s.refuse(c, "only a decision is replaced (status: replaced, replaced_by); update, merge or drop other records")
	}
	if !s.exists(target) {
		return s.refuse(c, "%s does not exist: add the record that replaces it first", record.DisplayPath(target))
	}
	rec, old, err := s.current(c, rel)
	if err != nil {
		return err
	}
	content, err := setFields(old, record.KindDecision,
		field{record.KeyStatus, record.StringNode(string(record.StatusReplaced))},
		field{record.KeyReplacedBy, record.StringNode(record.Classify(target).Slug)},
		field{record.KeySources, record.SourcesNode(appendSource(slices.Clone(rec.Sources), srcs...))},
		field{record.KeyUpdatedAt, record.TimeNode(s.in.Now)})
	if err != nil {
		return s.refuse(c, "%v", err)
	}
	p.writes = append(p.writes, record.Change{Op: record.OpPut, Path: rel, Content: content})
	return nil
}

func (s *Session) planDrop(c Change, p *planned, rel string) error {
	switch record.Classify(rel).Kind {
	case record.KindDecision:
		return s.refuse(c, "decisions are never deleted: replace it (status: replaced, replaced_by) with the record that supersedes it")
	case record.KindSummary:
		return s.refuse(c, "the summary is never removed: rewrite it")
	}
	if !s.exists(rel) {
		return s.refuse(c, "%s does not exist", record.DisplayPath(rel))
	}
	if s.protected[rel] {
		return s.refuse(c, "%s is protected (used at or above the protection frequency): it is never dropped", record.DisplayPath(rel))
	}
	if u, ok := s.in.Usage[rel]; !ok || !u.Known {
		return s.refuse(c, "the usage of %s is unknown (no token count over its window yet): it is not dropped; merge or trim it if it is noisy", record.DisplayPath(rel))
	}
	p.writes = append(p.writes, record.Change{Op: record.OpDelete, Path: rel})
	return nil
}

func (s *Session) planMerge(c Change, p *planned, rel, target string, srcs []record.Source) error {
	if record.Classify(rel).Kind == record.KindSummary {
		return s.refuse(c, "the summary is never merged away: rewrite it")
	}
	from, fromOld, err := s.current(c, rel)
	if err != nil {
		return err
	}
	into, intoOld, err := s.current(c, target)
	if err != nil {
		return err
	}
	// Nothing of either record's sources is lost: the target takes both.
	srcs = appendSource(appendSource(slices.Clone(from.Sources), from.LastSources...), srcs...)
	content, err := s.finalize(c, target, c.Content, into, srcs)
	if err != nil {
		return err
	}
	if err := s.checkCompression(c, target, into, intoOld, content); err != nil {
		return err
	}
	// A protected record merged away lives on in the target: losing its
	// body there would be a drop under another name.
	if before, after := bodyChars(fromOld)+bodyChars(intoOld), bodyChars(content); s.protected[rel] && float64(after) < s.in.Policy.keepShare()*float64(before) {
		return s.refuse(c, "%s is protected (used at or above the protection frequency): the merged %s must keep at least %.0f%% of both bodies (%d of %d characters kept); it is never heavily compressed", record.DisplayPath(rel), record.DisplayPath(target), s.in.Policy.keepShare()*100, after, before)
	}
	p.writes = append(p.writes, record.Change{Op: record.OpPut, Path: target, Content: content})
	if from.Kind == record.KindDecision {
		// A decision is not deleted: it is replaced by what it merged into.
		replaced, err := setFields(fromOld, record.KindDecision,
			field{record.KeyStatus, record.StringNode(string(record.StatusReplaced))},
			field{record.KeyReplacedBy, record.StringNode(record.Classify(target).Slug)},
			field{record.KeyUpdatedAt, record.TimeNode(s.in.Now)})
		if err != nil {
			return s.refuse(c, "%v", err)
		}
		p.writes = append(p.writes, record.Change{Op: record.OpPut, Path: rel, Content: replaced})
	} else {
		p.writes = append(p.writes, record.Change{Op: record.OpDelete, Path: rel})
	}
	if s.protected[rel] {
		p.protect = append(p.protect, target)
	}
	return nil
}

func (s *Session) planSplit(c Change, p *planned, rel, target string, srcs []record.Source) error {
	if s.exists(target) {
		return s.refuse(c, "%s exists: a split moves part of a record into a new one", record.DisplayPath(target))
	}
	// A split of knowledge keeps a subject that is knowledge already; out
	// of another record, it derives new knowledge, which only a record of
	// the candidate report may give.
	if record.Classify(target).Kind == record.KindKnowledge && record.Classify(rel).Kind != record.KindKnowledge && !s.cands[rel] {
		return s.refuse(c, "%s is not in the knowledge-candidate report: new knowledge comes only from records there; split it into a decision or request instead", record.DisplayPath(rel))
	}
	from, fromOld, err := s.current(c, rel)
	if err != nil {
		return err
	}
	inherited := appendSource(appendSource(slices.Clone(from.Sources), from.LastSources...), srcs...)
	part, err := s.finalize(c, target, c.Content, nil, inherited)
	if err != nil {
		return err
	}
	rest, err := s.finalize(c, rel, c.Rest, from, srcs)
	if err != nil {
		return err
	}
	// Split in two, a protected record keeps its body between the parts.
	if before, after := bodyChars(fromOld), bodyChars(part)+bodyChars(rest); s.protected[rel] && float64(after) < s.in.Policy.keepShare()*float64(before) {
		return s.refuse(c, "%s is protected (used at or above the protection frequency): its two parts must keep at least %.0f%% of its body (%d of %d characters kept); it is never heavily compressed", record.DisplayPath(rel), s.in.Policy.keepShare()*100, after, before)
	}
	p.writes = append(p.writes,
		record.Change{Op: record.OpPut, Path: target, Content: part, Create: true},
		record.Change{Op: record.OpPut, Path: rel, Content: rest})
	if s.protected[rel] {
		p.protect = append(p.protect, target)
	}
	return nil
}

// checkCompression refuses heavy compression of a protected record: less
// than the policy's share of its body kept, or a source removed.
func (s *Session) checkCompression(c Change, rel string, old *record.Record, oldContent, content []byte) error {
	if !s.protected[rel] {
		return nil
	}
	before, after := bodyChars(oldContent), bodyChars(content)
	if share := s.in.Policy.keepShare(); before > 0 && float64(after) < share*float64(before) {
		return s.refuse(c, "%s is protected (used at or above the protection frequency): keep at least %.0f%% of its body (%d of %d characters kept); it is never heavily compressed", record.DisplayPath(rel), share*100, after, before)
	}
	if old.Kind == record.KindKnowledge {
		return nil // knowledge keeps only its latest sources, by design
	}
	rec, _, err := record.Decode(rel, content)
	if err != nil {
		return nil // the linter reports it
	}
	for _, src := range old.Sources {
		if !slices.Contains(rec.Sources, src) {
			return s.refuse(c, "%s is protected: its source %s may not be removed", record.DisplayPath(rel), src)
		}
	}
	return nil
}
