package agent

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/record"
)

// memRecord is what the first message knows of one memory record (the
// summary, a decision or a request): enough for its full text or its
// index line, and for the replaced chains.
type memRecord struct {
	path       string // .yoi/-relative
	kind       record.Kind
	chars      int // its size in characters
	status     string
	replacedBy string
	title      string
	updated    time.Time
	problem    string // why it could not be read or decoded
}

// memoryRecords are the base's memory records (summary first, then the
// rest by path) and the number of knowledge records. Knowledge is only
// counted: it is never pasted into the first message.
type memoryRecords struct {
	list      []memRecord
	knowledge int
}

func scanMemory(snap record.Snapshot) memoryRecords {
	var m memoryRecords
	for _, e := range snap.Entries {
		loc := record.Classify(e.Path)
		if e.Mode != record.ModeRegular || loc.Area != record.AreaRecord || loc.SlugErr != nil {
			continue
		}
		if loc.Kind == record.KindKnowledge {
			m.knowledge++
			continue
		}
		m.list = append(m.list, readMemRecord(snap, e.Path, loc.Kind))
	}
	slices.SortStableFunc(m.list, func(a, b memRecord) int {
		return cmp.Compare(b2i(a.kind != record.KindSummary), b2i(b.kind != record.KindSummary))
	})
	return m
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func readMemRecord(snap record.Snapshot, path string, kind record.Kind) memRecord {
	r := memRecord{path: path, kind: kind}
	b, err := snap.Read(path)
	if err != nil {
		r.problem = readProblem(err)
		return r
	}
	if !utf8.Valid(b) {
		r.problem = "not UTF-8 text"
		return r
	}
	r.chars = utf8.RuneCount(b)
	rec, _, err := record.Decode(path, b)
	if err != nil {
		r.problem = "frontmatter unreadable: " + oneLine(err.Error())
		r.title = titleLine(b)
		return r
	}
	r.status, r.replacedBy, r.updated = string(rec.Status), rec.ReplacedBy, rec.UpdatedAt
	r.title = titleLine(rec.Body())
	return r
}

// titleLine is the first line of a record's body with text in it, with
// a heading's # marks removed.
func titleLine(body []byte) string {
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		if l := bytes.TrimSpace(line); len(l) > 0 {
			return string(bytes.TrimSpace(bytes.TrimLeft(l, "#")))
		}
	}
	return ""
}

// fullChars is the size of the memory records, in characters.
func (m memoryRecords) fullChars() int {
	n := 0
	for _, r := range m.list {
		n += r.chars
	}
	return n
}

// byRecency orders the records (the summary aside) newest first: the
// ones recent work most likely touches lead the index.
func (m memoryRecords) byRecency() []memRecord {
	var out []memRecord
	for _, r := range m.list {
		if r.kind != record.KindSummary {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b memRecord) int {
		if c := b.updated.Compare(a.updated); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	return out
}

// chains are the replaced decisions whose replaced_by does not name a
// live decision: the chain followed to its end, as printed paths.
func (m memoryRecords) chains() (chains []string, replaced int) {
	status := map[string]memRecord{}
	for _, r := range m.list {
		if r.kind == record.KindDecision {
			status[r.path] = r
		}
	}
	for _, r := range m.list {
		if r.kind != record.KindDecision || r.status != string(record.StatusReplaced) {
			continue
		}
		replaced++
		next, ok := status[record.PathFor(record.KindDecision, r.replacedBy)]
		if ok && next.status != string(record.StatusReplaced) {
			continue // one step to a live decision: no chain
		}
		chains = append(chains, chain(status, r))
	}
	return chains, replaced
}

// chain follows replaced_by from r until a live decision, a missing one
// or a loop.
func chain(status map[string]memRecord, r memRecord) string {
	steps := []string{record.DisplayPath(r.path)}
	seen := map[string]bool{r.path: true}
	for r.status == string(record.StatusReplaced) {
		if r.replacedBy == "" {
			return strings.Join(steps, " -> ") + " -> (no replaced_by)"
		}
		p := record.PathFor(record.KindDecision, r.replacedBy)
		next, ok := status[p]
		switch {
		case !ok:
			return strings.Join(steps, " -> ") + fmt.Sprintf(" -> %s (no such decision)", record.DisplayPath(p))
		case seen[p]:
			return strings.Join(steps, " -> ") + fmt.Sprintf(" -> %s (a loop)", record.DisplayPath(p))
		}
		seen[p] = true
		steps = append(steps, record.DisplayPath(p))
		r = next
	}
	return strings.Join(steps, " -> ") + " (live)"
}

// readProblem says why a record could not be read: a size refusal names
// its size and the limit.
func readProblem(err error) string {
	var tl *record.TooLargeError
	if errors.As(err, &tl) {
		return tl.Reason()
	}
	return oneLine(err.Error())
}
