package memory

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/record"
)

// Scope is what a search looks at.
type Scope int

// Scopes: knowledge_search reads knowledge/*.md; memory_search reads the
// summary, decisions and requests.
const (
	ScopeKnowledge Scope = iota
	ScopeMemory
)

// Query is a search's input. Text's terms are matched case-insensitively
// and must all appear in a record (frontmatter included). Slug selects one
// record by name (how #slug resolves) and returns it whole. Kind filters:
// the knowledge kind (rule, fact, …) or, for memory, the record kind
// (summary, decision, request). A query needs terms, a slug or a kind; a
// kind alone lists every record of that kind.
type Query struct {
	Text string `json:"query"`
	Slug string `json:"slug,omitempty"`
	Kind string `json:"kind,omitempty"`
}

// Hit is one record found. Path is as every command prints it: from the
// workspace root, beginning with ".yoi/" (record.DisplayPath).
type Hit struct {
	Slug            string `json:"slug"`
	Path            string `json:"path"`
	Kind            string `json:"kind"`
	Description     string `json:"description,omitempty"`
	ModelInvokation bool   `json:"model_invokation"`
	Status          string `json:"status,omitempty"`
	Excerpt         string `json:"excerpt"`
}

// Skipped is a file the search could not read as a record; Path as in Hit.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Result is a search's answer: the hits in path order, at most
// Options.MaxResults of them, and how many more matched past that limit.
type Result struct {
	Hits    []Hit     `json:"hits"`
	Skipped []Skipped `json:"skipped,omitempty"`
	More    int       `json:"more"`
}

// Options are the yoimem.search.* settings.
type Options struct {
	MaxResults    int // 0: no limit
	ExcerptLines  int // lines of context around each matching line
	MaxQueryBytes int // 0: 1024
	// Examine supplies what a search knows of a file without reading it;
	// nil reads every file (a cache of examinations is the fast path).
	Examine Examiner
	// Prefetch, when set, is given what a valid query without a slug
	// examines, before the search examines it in order: a cache can
	// examine what it lacks on every core first.
	Prefetch func(want func(record.Entry) bool)
}

// Errors a caller can tell apart.
var (
	ErrEmptyQuery = errors.New("empty query: give search terms, a slug or a kind")
	ErrNotFound   = errors.New("no such record")
)

// Search finds the records of scope matching q, in path order. Past
// opts.MaxResults it only counts the matches (Result.More): a listing is
// bounded, never cut silently. Files that cannot be read as records are
// skipped and reported, not fatal.
func Search(snap record.Snapshot, scope Scope, q Query, opts Options) (Result, error) {
	terms, err := queryTerms(q, opts)
	if err != nil {
		return Result{}, err
	}
	if q.Slug != "" {
		if err := record.ValidateSlug(q.Slug); err != nil {
			return Result{}, fmt.Errorf("slug: %w", err)
		}
	}
	examine := opts.Examine
	if examine == nil {
		examine = ReadExaminer(snap, ExamineText)
		if snap.Owned {
			examine = ReadExaminer(snap, ExamineTextInPlace)
		}
	}
	if opts.Prefetch != nil && q.Slug == "" {
		opts.Prefetch(func(e record.Entry) bool { return Searched(scope, e) })
	}
	m := matcher{snap: snap, examine: examine, q: q, terms: terms, opts: opts}
	res := Result{Hits: []Hit{}}
	slugSeen := false
	for _, e := range snap.Entries {
		loc, ok := searched(scope, e)
		if !ok {
			continue
		}
		if q.Slug != "" && slugOf(loc) != q.Slug {
			continue
		}
		slugSeen = true
		full := opts.MaxResults > 0 && len(res.Hits) >= opts.MaxResults
		hit, ok, why, err := m.one(e, loc, !full)
		if err != nil && q.Slug != "" {
			return Result{}, err // the one record asked for: refused, not skipped
		}
		if why != "" {
			res.Skipped = append(res.Skipped, Skipped{record.DisplayPath(e.Path), why})
		}
		switch {
		case !ok:
		case full:
			res.More++
		default:
			res.Hits = append(res.Hits, hit)
		}
	}
	if q.Slug != "" && !slugSeen {
		return Result{}, fmt.Errorf("%s: %w", q.Slug, ErrNotFound)
	}
	return res, nil
}

// Searched tells whether a search of scope without a slug examines e: a
// regular file named as a record of the scope.
func Searched(scope Scope, e record.Entry) bool {
	_, ok := searched(scope, e)
	return ok
}

func searched(scope Scope, e record.Entry) (record.Location, bool) {
	if e.Mode != record.ModeRegular {
		return record.Location{}, false
	}
	loc := record.Classify(e.Path)
	return loc, loc.Area == record.AreaRecord && loc.SlugErr == nil && inScope(scope, loc.Kind)
}

// slugOf is a record's name: its file name, or "summary".
func slugOf(loc record.Location) string {
	if loc.Kind == record.KindSummary {
		return "summary"
	}
	return loc.Slug
}

// Locate lists the .yoi/-relative paths of the records named slug, in the
// order #slug resolves a name: knowledge first, then decisions, then
// requests. "summary" names the summary first.
func Locate(snap record.Snapshot, slug string) []string {
	var out []string
	if slug == "summary" {
		if e, ok := snap.Lookup(record.SummaryPath); ok && e.Mode == record.ModeRegular {
			out = append(out, record.SummaryPath)
		}
	}
	for _, k := range []record.Kind{record.KindKnowledge, record.KindDecision, record.KindRequest} {
		p := record.PathFor(k, slug)
		if e, ok := snap.Lookup(p); ok && e.Mode == record.ModeRegular {
			out = append(out, p)
		}
	}
	return out
}

// matcher matches records against one query.
type matcher struct {
	snap    record.Snapshot
	examine Examiner
	q       Query
	terms   []string
	opts    Options
}

// one matches one record on its examination and reads the file itself
// only when the examination cannot settle it, or for a hit's excerpt
// (listed). A match past the limit (listed false) is counted from the
// examination when it can tell. why explains a file skipped, or a record
// searched as text only; err is a file refused by its size, which a
// search by slug reports instead of skipping it.
func (m *matcher) one(e record.Entry, loc record.Location, listed bool) (hit Hit, ok bool, why string, err error) {
	ex, err := m.examine(e)
	if err != nil {
		return Hit{}, false, readProblem(err), err
	}
	if !ex.Text {
		return Hit{}, false, ex.Problem, nil
	}
	if !containsAll(ex.Lower, m.terms) || !m.mayBeKind(ex) {
		return Hit{}, false, "", nil
	}
	// The kind of a knowledge record is in its frontmatter, which a text
	// examination has not read; other kinds are their directory.
	kindKnown := m.q.Kind == "" || ex.Facts || loc.Kind != record.KindKnowledge
	if !listed && kindKnown {
		return Hit{}, true, ex.Problem, nil
	}
	content, err := m.snap.Read(e.Path)
	if err != nil {
		return Hit{}, false, readProblem(err), err
	}
	// The file may have changed since it was examined: judge what is read.
	ex = Examine(e.Path, content)
	if !ex.Text {
		return Hit{}, false, ex.Problem, nil
	}
	if !containsAll(ex.Lower, m.terms) || (m.q.Kind != "" && !strings.EqualFold(m.q.Kind, ex.Kind)) {
		return Hit{}, false, "", nil
	}
	if !listed {
		return Hit{}, true, ex.Problem, nil
	}
	hit = Hit{Slug: slugOf(loc), Path: record.DisplayPath(e.Path), Kind: ex.Kind, Description: ex.Description, ModelInvokation: ex.ModelInvokation, Status: ex.Status}
	switch {
	case m.q.Slug != "" && len(m.terms) == 0:
		hit.Excerpt = string(content) // #slug: the whole record
	case len(m.terms) == 0:
		hit.Excerpt = firstLine(content) // a listing
	default:
		hit.Excerpt = bodyExcerpt(content, m.terms, m.opts.ExcerptLines)
	}
	return hit, true, ex.Problem, nil
}

// readProblem is why a file that could not be read is skipped: the size
// and limit of one refused by its size (the listing names the file).
func readProblem(err error) string {
	var tl *record.TooLargeError
	if errors.As(err, &tl) {
		return tl.Reason()
	}
	return err.Error()
}

// mayBeKind rules out, from an examination, a record that cannot be of
// the kind asked for: one whose facts say another kind, or whose text
// does not even contain the kind's name.
func (m *matcher) mayBeKind(ex Examined) bool {
	switch {
	case m.q.Kind == "":
		return true
	case ex.Facts || ex.Kind != record.KindKnowledge.String():
		return strings.EqualFold(m.q.Kind, ex.Kind)
	}
	return bytes.Contains(ex.Lower, []byte(strings.ToLower(m.q.Kind)))
}

// firstLine is the first line of a record's body with text in it: what a
// listing shows of each record.
func firstLine(content []byte) string {
	body := content
	if doc, err := record.Parse(content); err == nil {
		body = doc.Body()
	}
	for _, l := range bytes.Split(body, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			return string(l) + "\n"
		}
	}
	return ""
}

func containsAll(lower []byte, terms []string) bool {
	for _, t := range terms {
		if !bytes.Contains(lower, []byte(t)) {
			return false
		}
	}
	return true
}

func queryTerms(q Query, opts Options) ([]string, error) {
	limit := opts.MaxQueryBytes
	if limit <= 0 {
		limit = 1024
	}
	if len(q.Text) > limit {
		return nil, fmt.Errorf("query is %d bytes; at most %d", len(q.Text), limit)
	}
	if !utf8.ValidString(q.Text) {
		return nil, errors.New("query is not UTF-8 text")
	}
	terms := strings.Fields(strings.ToLower(q.Text))
	if len(terms) == 0 && q.Slug == "" && q.Kind == "" {
		return nil, ErrEmptyQuery
	}
	return terms, nil
}

func inScope(scope Scope, k record.Kind) bool {
	if scope == ScopeKnowledge {
		return k == record.KindKnowledge
	}
	return k == record.KindSummary || k == record.KindDecision || k == record.KindRequest
}

// bodyExcerpt is the excerpt of a record's body: the frontmatter is
// shown as the hit's fields, never as lines around a match. Terms found
// only in the frontmatter show the body's first line, as a listing does.
func bodyExcerpt(content []byte, terms []string, n int) string {
	body := content
	if doc, err := record.Parse(content); err == nil {
		body = doc.Body()
	}
	if s := excerpt(body, bytes.ToLower(body), terms, n); s != "" {
		return s
	}
	return firstLine(content)
}

// excerpt returns the lines holding any term with n lines around them;
// separate runs are joined by a "…" line.
func excerpt(content, lower []byte, terms []string, n int) string {
	// The newline that ends the file does not begin another line.
	content, lower = bytes.TrimSuffix(content, []byte("\n")), bytes.TrimSuffix(lower, []byte("\n"))
	lines := bytes.Split(content, []byte("\n"))
	lowerLines := bytes.Split(lower, []byte("\n"))
	if len(lowerLines) != len(lines) {
		lowerLines = lines // ToLower changed line structure (cannot, but be safe)
	}
	keep := make([]bool, len(lines))
	for i, l := range lowerLines {
		for _, t := range terms {
			if bytes.Contains(l, []byte(t)) {
				for j := max(0, i-n); j <= min(len(lines)-1, i+n); j++ {
					keep[j] = true
				}
				break
			}
		}
	}
	var b strings.Builder
	gap := false
	for i, k := range keep {
		if !k {
			gap = b.Len() > 0
			continue
		}
		if gap {
			b.WriteString("…\n")
			gap = false
		}
		b.Write(bytes.TrimRight(lines[i], "\r"))
		b.WriteByte('\n')
	}
	return b.String()
}
