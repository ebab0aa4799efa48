package record

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// Layout paths, relative to the workspace's .yoi/ directory and always
// slash-separated.
const (
	Dir          = ".yoi"
	ConfigPath   = "config"
	SummaryPath  = "memory/summary.md"
	DecisionsDir = "memory/decisions"
	RequestsDir  = "memory/requests"
	KnowledgeDir = "knowledge"
	StagingDir   = "memory/_staging"
	WorkflowDir  = "workflow"
	MetricsDir   = "metrics"
	MaxSlugLen   = 64
)

// ErrNoYoi means the workspace has no .yoi/ directory (gitstore.ErrNoYoi
// is the same value).
var ErrNoYoi = errors.New("no .yoi/ directory")

// ErrBadSlug is wrapped by slug validation errors.
var ErrBadSlug = errors.New("bad slug")

// ValidateSlug checks the slug rule of docs/record-format.md: kebab-case, lowercase letters and
// digits separated by single hyphens, at most MaxSlugLen characters.
func ValidateSlug(slug string) error {
	switch {
	case slug == "":
		return fmt.Errorf("%w: empty", ErrBadSlug)
	case len(slug) > MaxSlugLen:
		return fmt.Errorf("%w %s: %d characters, at most %d", ErrBadSlug, quote.Value(slug), len(slug), MaxSlugLen)
	case !isKebab(slug):
		return fmt.Errorf("%w %q: use lowercase letters, digits and single hyphens (kebab-case)", ErrBadSlug, slug)
	}
	return nil
}

// isKebab matches ^[a-z0-9]+(-[a-z0-9]+)*$ without a regexp: it runs for
// every file of every lint.
func isKebab(s string) bool {
	prevDash := true // a leading dash is refused like a double one
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			prevDash = false
		case c == '-' && !prevDash:
			prevDash = true
		default:
			return false
		}
	}
	return !prevDash
}

// PathFor returns the layout path of a record; the summary ignores slug.
func PathFor(kind Kind, slug string) string {
	switch kind {
	case KindSummary:
		return SummaryPath
	case KindDecision:
		return DecisionsDir + "/" + slug + ".md"
	case KindRequest:
		return RequestsDir + "/" + slug + ".md"
	case KindKnowledge:
		return KnowledgeDir + "/" + slug + ".md"
	}
	return ""
}

// Area says which part of the layout a path belongs to.
type Area int

// Areas of .yoi/. AreaRecord paths are linted as records; the others are
// known non-record parts; AreaUnknown is anything the layout does not name.
const (
	AreaUnknown Area = iota
	AreaRecord
	AreaConfig
	AreaStaging
	AreaWorkflow
	AreaMetrics
	AreaIgnore // .gitignore and similar housekeeping files
)

// Location is what a .yoi/-relative path means.
type Location struct {
	Area Area
	Kind Kind
	Slug string
	// SlugErr is set when the path is in a record directory and ends in .md
	// but its name is not a valid slug.
	SlugErr error
}

// Classify maps a slash-separated path relative to .yoi/ onto the layout.
// It does not touch the filesystem.
func Classify(rel string) Location {
	if rel == ConfigPath {
		return Location{Area: AreaConfig}
	}
	if rel == ".gitignore" || strings.HasSuffix(rel, "/.gitignore") || path.Base(rel) == ".gitkeep" {
		return Location{Area: AreaIgnore}
	}
	if rel == SummaryPath {
		return Location{Area: AreaRecord, Kind: KindSummary}
	}
	for _, p := range []struct {
		prefix string
		area   Area
	}{{StagingDir + "/", AreaStaging}, {WorkflowDir + "/", AreaWorkflow}, {MetricsDir + "/", AreaMetrics}} {
		if strings.HasPrefix(rel, p.prefix) {
			return Location{Area: p.area}
		}
	}
	dir, file := path.Split(rel)
	var kind Kind
	switch strings.TrimSuffix(dir, "/") {
	case DecisionsDir:
		kind = KindDecision
	case RequestsDir:
		kind = KindRequest
	case KnowledgeDir:
		kind = KindKnowledge
	default:
		return Location{}
	}
	if !strings.HasSuffix(file, ".md") {
		return Location{}
	}
	slug := strings.TrimSuffix(file, ".md")
	return Location{Area: AreaRecord, Kind: kind, Slug: slug, SlugErr: ValidateSlug(slug)}
}

// CleanRel validates a .yoi/-relative path supplied by a caller (a tool
// argument, a change set): no absolute paths, no "..", no empty or "."
// elements, no backslashes. It returns the path unchanged when it is clean.
func CleanRel(rel string) (string, error) {
	switch {
	case rel == "":
		return "", errors.New("empty path")
	case strings.HasPrefix(rel, "/") || (len(rel) > 1 && rel[1] == ':'):
		return "", fmt.Errorf("path %q is absolute; give it relative to .yoi/", rel)
	case strings.Contains(rel, `\`):
		return "", fmt.Errorf("path %q contains a backslash; use /", rel)
	case strings.ContainsRune(rel, 0):
		return "", fmt.Errorf("path %q contains a NUL byte", rel)
	}
	for _, elem := range strings.Split(rel, "/") {
		switch elem {
		case "..":
			return "", fmt.Errorf("path %q leaves .yoi/ (contains ..)", rel)
		case "", ".":
			return "", fmt.Errorf("path %q has an empty or . element", rel)
		}
		// git refuses .git in trees, in any case and with the trailing
		// dots and spaces some filesystems ignore (fsck's hasDotgit).
		if strings.EqualFold(strings.TrimRight(elem, ". "), ".git") || strings.EqualFold(elem, "git~1") {
			return "", fmt.Errorf("path %q has a .git element, which git refuses in trees", rel)
		}
	}
	return rel, nil
}

// ToolPath turns a record path as people and agents type it into the
// .yoi/-relative form the tools work on: "knowledge/retry.md" and
// ".yoi/knowledge/retry.md" (what every command prints) name the same
// file. The result is validated by CleanRel.
func ToolPath(p string) (string, error) {
	return CleanRel(strings.TrimPrefix(p, Dir+"/"))
}

// DisplayPath is how commands and tools print a .yoi/-relative path: from
// the workspace root, beginning with ".yoi/", so that it can be opened,
// diffed and passed back to any command or tool as it is.
func DisplayPath(rel string) string {
	if rel == "" {
		return Dir
	}
	return Dir + "/" + rel
}
