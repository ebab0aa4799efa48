package eval

import (
	"errors"
	"path"
	"regexp"
	"strings"
)

// A record glob is a slash-separated pattern over .yoi/-relative paths:
// "*", "?" and "[...]" within a segment (path.Match), "**" as a whole
// segment for any number of segments.

// checkGlob reports a malformed record glob.
func checkGlob(g string) error {
	if g == "" {
		return errors.New("an empty glob")
	}
	if strings.HasPrefix(g, "/") || strings.HasPrefix(g, ".yoi/") {
		return errors.New(quoteGlob(g) + ": a glob is relative to .yoi/ (e.g. memory/decisions/*.md)")
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == "" {
			return errors.New(quoteGlob(g) + ": an empty segment")
		}
		if strings.Contains(seg, "**") && seg != "**" {
			return errors.New(quoteGlob(g) + ": ** must be a whole segment")
		}
		if _, err := path.Match(seg, ""); err != nil {
			return errors.New(quoteGlob(g) + ": " + err.Error())
		}
	}
	return nil
}

func quoteGlob(g string) string { return `"` + g + `"` }

// hasMeta: g holds a wildcard.
func hasMeta(g string) bool { return strings.ContainsAny(g, `*?[\`) }

// matchGlob reports whether the .yoi/-relative path p matches glob g
// (checked by checkGlob).
func matchGlob(g, p string) bool {
	return matchSegs(strings.Split(g, "/"), strings.Split(p, "/"))
}

func matchSegs(gs, ps []string) bool {
	for len(gs) > 0 {
		if gs[0] == "**" {
			for i := 0; i <= len(ps); i++ {
				if matchSegs(gs[1:], ps[i:]) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, _ := path.Match(gs[0], ps[0]); !ok {
			return false
		}
		gs, ps = gs[1:], ps[1:]
	}
	return len(ps) == 0
}

// A value glob compares a frontmatter scalar: "*" any run of characters
// (slashes included: replaced_by holds a path), "?" one, else literal.

// checkValueGlob accepts any value; it exists so that a later syntax
// (classes) is checked in one place.
func checkValueGlob(string) error { return nil }

// matchValue reports whether v matches the value glob g.
func matchValue(g, v string) bool {
	if !strings.ContainsAny(g, "*?") {
		return g == v
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range g {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String()).MatchString(v)
}
