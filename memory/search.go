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
// (summary, decision, request).
type Query struct {
	Text string `json:"query"`
	Slug string `json:"slug,omitempty"`
	Kind string `json:"kind,omitempty"`
}

// Hit is one record found.
type Hit struct {
	Slug            string `json:"slug"`
	Path            string `json:"path"` // relative to .yoi/
	Kind            string `json:"kind"`
	Description     string `json:"description,omitempty"`
	ModelInvokation bool   `json:"model_invokation"`
	Status          string `json:"status,omitempty"`
	Excerpt         string `json:"excerpt"`
}

// Skipped is a file the search could not read as a record.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Options are the yoimem.search.* settings.
type Options struct {
	MaxResults    int // 0: no limit
	ExcerptLines  int // lines of context around each matching line
	MaxQueryBytes int // 0: 1024
	// Examine supplies what a search knows of a file without reading it;
	// nil reads every file (a cache of examinations is the fast path).
	Examine Examiner
}

// Errors a caller can tell apart.
var (
	ErrEmptyQuery = errors.New("empty query: give search terms or a slug")
	ErrNotFound   = errors.New("no such record")
)

// Search finds the records of scope matching q, in path order, at most
// opts.MaxResults of them. Files that cannot be read as records are
// skipped and reported, not fatal.
func Search(snap record.Snapshot, scope Scope, q Query, opts Options) ([]Hit, []Skipped, error) {
	terms, err := queryTerms(q, opts)
	if err != nil {
		return nil, nil, err
	}
	if q.Slug != "" {
		if err := record.ValidateSlug(q.Slug); err != nil {
			return nil, nil, fmt.Errorf("slug: %w", err)
		}
	}
	examine := opts.Examine
	if examine == nil {
		examine = ReadExaminer(snap, ExamineText)
		if snap.Owned {
			examine = ReadExaminer(snap, ExamineTextInPlace)
		}
	}
	var hits []Hit
	var skipped []Skipped
	slugSeen := false
	for _, e := range snap.Entries {
		loc := record.Classify(e.Path)
		if e.Mode != record.ModeRegular || loc.Area != record.AreaRecord || loc.SlugErr != nil || !inScope(scope, loc.Kind) {
			continue
		}
		if q.Slug != "" && loc.Slug != q.Slug {
			continue
		}
		slugSeen = true
		hit, ok, why, err := searchOne(snap, e, loc, examine, q, terms, opts)
		if err != nil && q.Slug != "" {
			return nil, nil, err // the one record asked for: refused, not skipped
		}
		if why != "" {
			skipped = append(skipped, Skipped{e.Path, why})
		}
		if !ok {
			continue
		}
		hits = append(hits, hit)
		if opts.MaxResults > 0 && len(hits) >= opts.MaxResults {
			break
		}
	}
	if q.Slug != "" && !slugSeen {
		return nil, nil, fmt.Errorf("%s: %w", q.Slug, ErrNotFound)
	}
	return hits, skipped, nil
}

// searchOne matches one record on its examination and reads the file
// itself only for a hit's excerpt. why explains a file skipped, or a
// record searched as text only; err is a file refused by its size, which
// a search by slug reports instead of skipping it.
func searchOne(snap record.Snapshot, e record.Entry, loc record.Location, examine Examiner, q Query, terms []string, opts Options) (hit Hit, ok bool, why string, err error) {
	ex, err := examine(e)
	if err != nil {
		return Hit{}, false, readProblem(err), err
	}
	if !ex.Text {
		return Hit{}, false, ex.Problem, nil
	}
	if !containsAll(ex.Lower, terms) || (ex.Facts && q.Kind != "" && !strings.EqualFold(q.Kind, ex.Kind)) {
		return Hit{}, false, "", nil
	}
	content, err := snap.Read(e.Path)
	if err != nil {
		return Hit{}, false, readProblem(err), err
	}
	// The file may have changed since it was examined: judge what is read.
	ex = Examine(e.Path, content)
	if !ex.Text {
		return Hit{}, false, ex.Problem, nil
	}
	if !containsAll(ex.Lower, terms) || (q.Kind != "" && !strings.EqualFold(q.Kind, ex.Kind)) {
		return Hit{}, false, "", nil
	}
	hit = Hit{Slug: loc.Slug, Path: e.Path, Kind: ex.Kind, Description: ex.Description, ModelInvokation: ex.ModelInvokation, Status: ex.Status}
	if loc.Kind == record.KindSummary {
		hit.Slug = "summary"
	}
	if q.Slug != "" && len(terms) == 0 {
		hit.Excerpt = string(content) // #slug: the whole record
	} else {
		hit.Excerpt = excerpt(content, ex.Lower, terms, opts.ExcerptLines)
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
	if len(terms) == 0 && q.Slug == "" {
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

// excerpt returns the lines holding any term with n lines around them;
// separate runs are joined by a "…" line.
func excerpt(content, lower []byte, terms []string, n int) string {
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
