package memory

import "github.com/yoimem/git-yoimem/record"

// ContextEntries narrows snap to the entries Context looks at beyond the
// summary: the knowledge records that may be model-invoked (and those
// whose examination failed, for Context to judge), each examined once.
// It returns that snapshot and an Examiner answering from those
// examinations, so that building the context more than once (fitting it
// to an agent's cap) reads and examines no record twice, and Context on
// the result answers exactly as on snap.
func ContextEntries(snap record.Snapshot, examine Examiner) (record.Snapshot, Examiner) {
	if examine == nil {
		examine = invocableExaminer(snap)
	}
	type result struct {
		ex  Examined
		err error
	}
	seen := map[string]result{}
	keep := make([]record.Entry, 0, 64)
	for _, e := range snap.Entries {
		if e.Path == record.SummaryPath {
			keep = append(keep, e)
			continue
		}
		loc := record.Classify(e.Path)
		if e.Mode != record.ModeRegular || loc.Kind != record.KindKnowledge || loc.SlugErr != nil {
			continue
		}
		ex, err := examine(e)
		if err == nil && (!ex.ModelInvokation || ex.Description == "") {
			continue
		}
		ex.Lower = nil // the context needs no text to search
		seen[e.Path] = result{ex, err}
		keep = append(keep, e)
	}
	narrowed := snap
	narrowed.Entries = keep
	return narrowed, func(e record.Entry) (Examined, error) {
		if r, ok := seen[e.Path]; ok {
			return r.ex, r.err
		}
		return examine(e)
	}
}
