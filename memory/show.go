package memory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// Shown is one record found by Show, and the other records its name
// also names (printed paths), which a slug alone did not pick.
type Shown struct {
	Hit
	Rel    string   `json:"-"`              // the record's .yoi/-relative path
	Others []string `json:"also,omitempty"` // record.DisplayPath form
}

// ErrNotRecordPath is wrapped when a path names no record of the layout.
var ErrNotRecordPath = errors.New("is not a record path (memory/summary.md, memory/decisions/, memory/requests/ or knowledge/)")

// Show finds the record ref names and returns it whole, its content in
// Excerpt (as a slug search does). ref is a record path, as printed
// (".yoi/knowledge/x.md") or .yoi/-relative, or a slug: resolved as Locate
// does (knowledge first, as #slug resolves), or only among the records of
// kind when kind is not record.KindNone.
func Show(snap record.Snapshot, ref string, kind record.Kind) (Shown, error) {
	var paths []string
	if strings.Contains(ref, "/") || strings.HasSuffix(ref, ".md") {
		rel, err := record.ToolPath(ref)
		if err != nil {
			return Shown{}, err
		}
		loc := record.Classify(rel)
		if loc.Area != record.AreaRecord {
			return Shown{}, fmt.Errorf("%s %w", shown(rel), ErrNotRecordPath)
		}
		if loc.SlugErr != nil {
			return Shown{}, fmt.Errorf("%s: %w", shown(rel), loc.SlugErr)
		}
		if kind != record.KindNone && loc.Kind != kind {
			return Shown{}, fmt.Errorf("%s is a %s record, not a %s", shown(rel), loc.Kind, kind)
		}
		if e, ok := snap.Lookup(rel); !ok || e.Mode != record.ModeRegular {
			return Shown{}, fmt.Errorf("%s: %w", shown(rel), ErrNotFound)
		}
		paths = []string{rel}
	} else {
		if err := record.ValidateSlug(ref); err != nil {
			return Shown{}, err
		}
		for _, p := range Locate(snap, ref) {
			if kind == record.KindNone || record.Classify(p).Kind == kind {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 && kind != record.KindNone {
			return Shown{}, fmt.Errorf("%s: %w (%s)", ref, ErrNotFound, kind)
		}
		if len(paths) == 0 {
			return Shown{}, fmt.Errorf("%s: %w", ref, ErrNotFound)
		}
	}
	rel := paths[0]
	content, err := snap.Read(rel)
	var tl *record.TooLargeError
	if errors.As(err, &tl) {
		return Shown{}, err // it names the file, its size and the limit
	}
	if err != nil {
		return Shown{}, fmt.Errorf("%s: %w", shown(rel), err)
	}
	ex := Examine(rel, content)
	if !ex.Text {
		return Shown{}, fmt.Errorf("%s: %s", shown(rel), ex.Problem)
	}
	s := Shown{Rel: rel, Hit: Hit{
		Slug: slugOf(record.Classify(rel)), Path: record.DisplayPath(rel), Kind: ex.Kind, Description: ex.Description,
		ModelInvokation: ex.ModelInvokation, Status: ex.Status, Excerpt: string(content),
	}}
	for _, p := range paths[1:] {
		s.Others = append(s.Others, record.DisplayPath(p))
	}
	return s, nil
}
