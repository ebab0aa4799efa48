package lint

import (
	"iter"
	"path"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// slugInfo is one valid slug of a kind's regular file, with what the
// similar-slug check of a few files compares before anything costlier
// (when ready: the clustering of every slug needs the slug alone).
type slugInfo struct {
	path, slug string
	ready      bool
	sig        [36]uint8 // initials
	letters    [37]uint8 // letterCounts
}

func newSlugInfo(p, slug string) slugInfo {
	return slugInfo{path: p, slug: slug, ready: true, sig: initials(slug), letters: letterCounts(slug)}
}

// listedSlug returns e's slug when e is a regular file of kind with a
// valid slug.
func listedSlug(e record.Entry, kind record.Kind) (string, bool) {
	if e.Mode != record.ModeRegular {
		return "", false
	}
	loc := record.Classify(e.Path)
	return loc.Slug, loc.Area == record.AreaRecord && loc.Kind == kind && loc.SlugErr == nil
}

// recordSlug returns e's kind and slug when e is a regular file of a
// decision, request or knowledge record with a valid slug: listedSlug for
// the kind it is of, the path classified once.
func recordSlug(e record.Entry) (record.Kind, string, bool) {
	if e.Mode != record.ModeRegular {
		return record.KindNone, "", false
	}
	loc := record.Classify(e.Path)
	return loc.Kind, loc.Slug, loc.Area == record.AreaRecord && loc.Kind != record.KindSummary && loc.SlugErr == nil
}

func kindDir(kind record.Kind) string { return path.Dir(record.PathFor(kind, "x")) + "/" }

// listSlugs lists the valid slugs of kind's regular files in view, in
// path order, readied for the similar-slug check of a few files (an
// overlay's base, listed once for all its changes).
func listSlugs(view record.View, kind record.Kind) []slugInfo {
	names := listSlugNames(view, kind)
	out := make([]slugInfo, len(names))
	for i, s := range names {
		out[i] = newSlugInfo(s.path, s.slug)
	}
	return out
}

// slugName is a listed slug and its path: a slugInfo without what the
// similar-slug check readies, a third of its size.
type slugName struct{ path, slug string }

// listSlugNames lists the valid slugs of kind's regular files in view, in
// path order, in a list sized by a count of the directory's entries: a
// hook linting one record lists 4,000 slugs, and in a fresh process every
// page a growing list touches is a page fault (listSlugs with ready unset
// allocated 1.3 MB for them, this 128 KB).
func listSlugNames(view record.View, kind record.Kind) []slugName {
	dir, n := kindDir(kind), 0
	view.Scan(dir, func(record.Entry) bool { n++; return true })
	out := make([]slugName, 0, n)
	view.Scan(dir, func(e record.Entry) bool {
		if slug, ok := listedSlug(e, kind); ok {
			out = append(out, slugName{e.Path, slug})
		}
		return true
	})
	return out
}

// baseSlugs is the record.Overlay.Memo key of a base's slug list of a
// kind.
type baseSlugs struct{ kind record.Kind }

// slugs returns how many valid slugs kind's regular files have in the
// view, and the slugs in path order. Over an overlay, the base's slugs
// are listed once for all the overlays over it (a consolidation session
// checks each change over the one before) and the changes merged in as
// the sequence goes: the cost of a check follows the changes, not the
// thousands of records of the base.
func (x *index) slugs(kind record.Kind) (int, iter.Seq[slugInfo]) {
	ov, ok := x.view.(*record.Overlay)
	if !ok {
		list := listSlugNames(x.view, kind) // used once: similarTo readies what it compares
		return len(list), func(yield func(slugInfo) bool) {
			for _, s := range list {
				if !yield(slugInfo{path: s.path, slug: s.slug}) {
					return
				}
			}
		}
	}
	base := ov.Memo(baseSlugs{kind}, func(b record.Snapshot) any { return listSlugs(b, kind) }).([]slugInfo)
	var changes []record.Change
	for _, c := range ov.Changes() {
		if strings.HasPrefix(c.Path, kindDir(kind)) {
			changes = append(changes, c)
		}
	}
	n := len(base)
	for _, c := range changes {
		listed := findSlug(base, c.Path)
		_, valid := listedSlug(record.Entry{Path: c.Path, Mode: record.ModeRegular}, kind)
		switch {
		case c.Op == record.OpDelete && listed:
			n--
		case c.Op == record.OpPut && !listed && valid:
			n++
		}
	}
	return n, func(yield func(slugInfo) bool) {
		j := 0
		// next yields the changes before p (all that are left when p is
		// ""): a put that the base did not list, when it is a slug.
		next := func(p string) bool {
			for ; j < len(changes) && (p == "" || changes[j].Path < p); j++ {
				c := changes[j]
				if c.Op != record.OpPut {
					continue
				}
				if slug, ok := listedSlug(record.Entry{Path: c.Path, Mode: record.ModeRegular}, kind); ok && !yield(newSlugInfo(c.Path, slug)) {
					return false
				}
			}
			return true
		}
		for _, s := range base {
			if !next(s.path) {
				return
			}
			if j < len(changes) && changes[j].Path == s.path {
				j++
				if changes[j-1].Op == record.OpDelete {
					continue
				}
			}
			if !yield(s) {
				return
			}
		}
		next("")
	}
}

// findSlug reports whether list (in path order) holds p.
func findSlug(list []slugInfo, p string) bool {
	lo, hi := 0, len(list)
	for lo < hi {
		m := (lo + hi) / 2
		if list[m].path < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(list) && list[lo].path == p
}
