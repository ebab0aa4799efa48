package eval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Files of a scenario directory.
const (
	ScenarioFile = "scenario.yaml"
	BeforeDir    = "before"
	StagingDir   = "staging"
	ReplayFile   = "llm.replay.json"
)

// DefaultNow is a scenario's clock when it sets none.
const DefaultNow = "2026-03-10T09:00:00Z"

// maxNameLen bounds a scenario's and an expectation's name.
const maxNameLen = 64

// Categories of expectations, in the order totals are printed.
const (
	CategoryDuplicates = "duplicates" // duplicates avoided
	CategoryKept       = "kept"       // information kept
	CategoryLifecycle  = "lifecycle"
	CategoryTidy       = "tidy" // tidy-up
	CategorySafety     = "safety"
)

// Categories lists the categories in their canonical order.
func Categories() []string {
	return []string{CategoryDuplicates, CategoryKept, CategoryLifecycle, CategoryTidy, CategorySafety}
}

// CategoryTitle is how a category is named in a table.
func CategoryTitle(c string) string {
	switch c {
	case CategoryDuplicates:
		return "duplicates avoided"
	case CategoryKept:
		return "information kept"
	case CategoryTidy:
		return "tidy-up"
	}
	return c
}

// Scenario is one scenario directory, loaded.
type Scenario struct {
	Name        string // the directory's name
	Dir         string
	Description string
	Now         time.Time
	ReadOnly    []string // .yoi/-relative
	// Rules says why the rules engine cannot satisfy the scenario by
	// design; "" when it can.
	Rules  string
	Expect []Expectation
	// Before is the .yoi/ tree before the run: .yoi/-relative path to
	// content.
	Before map[string][]byte
	// Staging are the staging files, by file name, in name order.
	Staging []StagingFile
	// Replay is the llm engine's recorded answers (llm.replay.json);
	// "" when the scenario has none.
	Replay string
}

// StagingFile is one staging file of a scenario.
type StagingFile struct {
	Name string
	Data []byte
}

// Expectation is one check of a run's result: over records (the
// default), over the commit's operations (Op), or whether the run
// committed (Commit).
type Expectation struct {
	Name     string
	Category string

	Record    string            // glob over the result's record paths; "**" when not given
	Fields    map[string]string // frontmatter scalars: value or glob
	Sources   []string          // session ids
	Text      []string
	NotText   []string
	Untouched bool

	Op     *OpCond
	Commit *bool

	// Quantifier: Exists false (none satisfies) or Count (exactly so
	// many); nil both: at least one.
	Exists *bool
	Count  *int
}

// OpCond is an operation line a run's commit message must (or must not)
// hold.
type OpCond struct {
	Kind       string
	Path       string // glob
	Target     string // glob
	Categories []string
	Reason     bool
}

// The scenario.yaml file as written; yaml's KnownFields refuses others.
type scenarioFile struct {
	Description string       `yaml:"description"`
	Now         string       `yaml:"now"`
	ReadOnly    []string     `yaml:"readonly"`
	Rules       string       `yaml:"rules"`
	Expect      []expectFile `yaml:"expect"`
}

type expectFile struct {
	Name      string            `yaml:"name"`
	Category  string            `yaml:"category"`
	Record    *string           `yaml:"record"`
	Fields    map[string]string `yaml:"fields"`
	Sources   []string          `yaml:"sources"`
	Text      []string          `yaml:"text"`
	NotText   []string          `yaml:"not_text"`
	Untouched bool              `yaml:"untouched"`
	Op        *opFile           `yaml:"op"`
	Commit    *bool             `yaml:"commit"`
	Exists    *bool             `yaml:"exists"`
	Count     *int              `yaml:"count"`
}

type opFile struct {
	Kind       string   `yaml:"kind"`
	Path       string   `yaml:"path"`
	Target     string   `yaml:"target"`
	Categories []string `yaml:"categories"`
	Reason     bool     `yaml:"reason"`
}

// kebab is a kebab-case name, compiled on first use rather than at every
// command's start (a once-value, not mutable state).
var kebab = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`) })

// validName checks a scenario's or an expectation's name.
func validName(s string) error {
	if len(s) > maxNameLen || !kebab().MatchString(s) {
		return fmt.Errorf("%q is not a kebab-case name of at most %d characters", s, maxNameLen)
	}
	return nil
}

// Load reads the scenario in dir strictly: an unknown key, an unknown
// category, a bad glob, a missing before/memory/summary.md or a staging
// file extract would not write is an error naming the file and the
// field.
func Load(dir string) (*Scenario, error) {
	name := filepath.Base(filepath.Clean(dir))
	if err := validName(name); err != nil {
		return nil, fmt.Errorf("scenario %s: the directory's name: %w", dir, err)
	}
	file := filepath.Join(dir, ScenarioFile)
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", name, err)
	}
	sc, err := parseScenario(file, b)
	if err != nil {
		return nil, err
	}
	sc.Name, sc.Dir = name, dir
	if sc.Before, err = readBefore(filepath.Join(dir, BeforeDir)); err != nil {
		return nil, err
	}
	if _, ok := sc.Before[record.SummaryPath]; !ok {
		return nil, fmt.Errorf("%s: missing: every scenario's memory has a summary", filepath.Join(dir, BeforeDir, filepath.FromSlash(record.SummaryPath)))
	}
	for _, p := range sc.ReadOnly {
		if _, ok := sc.Before[p]; !ok {
			return nil, fmt.Errorf("%s: readonly: %s is not a file of %s", file, p, filepath.Join(dir, BeforeDir))
		}
	}
	if sc.Staging, err = readStaging(filepath.Join(dir, StagingDir)); err != nil {
		return nil, err
	}
	replay := filepath.Join(dir, ReplayFile)
	if fi, err := os.Stat(replay); err == nil && fi.Mode().IsRegular() {
		sc.Replay = replay
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scenario %s: %w", name, err)
	}
	return sc, nil
}

// parseScenario reads scenario.yaml (file names it in errors).
func parseScenario(file string, b []byte) (*Scenario, error) {
	var f scenarioFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty; it needs a description and expect", file)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if strings.TrimSpace(f.Description) == "" {
		return nil, fmt.Errorf("%s: description: missing", file)
	}
	sc := &Scenario{Description: strings.TrimSpace(f.Description), Rules: strings.TrimSpace(f.Rules)}
	now := f.Now
	if now == "" {
		now = DefaultNow
	}
	t, err := time.Parse(time.RFC3339, now)
	if err != nil {
		return nil, fmt.Errorf("%s: now: %q is not an RFC 3339 time (e.g. %s)", file, f.Now, DefaultNow)
	}
	sc.Now = t.UTC()
	for _, p := range f.ReadOnly {
		clean, err := record.ToolPath(p)
		if err != nil {
			return nil, fmt.Errorf("%s: readonly: %q: %w", file, p, err)
		}
		sc.ReadOnly = append(sc.ReadOnly, clean)
	}
	if len(f.Expect) == 0 {
		return nil, fmt.Errorf("%s: expect: missing; a scenario checks at least one expectation", file)
	}
	seen := map[string]bool{}
	for i, ef := range f.Expect {
		e, err := ef.expectation()
		if err != nil {
			label := fmt.Sprintf("expect[%d]", i)
			if ef.Name != "" {
				label += " (" + ef.Name + ")"
			}
			return nil, fmt.Errorf("%s: %s: %w", file, label, err)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("%s: expect[%d]: name %q is used twice", file, i, e.Name)
		}
		seen[e.Name] = true
		sc.Expect = append(sc.Expect, e)
	}
	return sc, nil
}

// expectation validates one expectation as written.
func (ef expectFile) expectation() (Expectation, error) {
	e := Expectation{Name: ef.Name, Category: ef.Category, Fields: ef.Fields, Sources: ef.Sources,
		Text: ef.Text, NotText: ef.NotText, Untouched: ef.Untouched, Commit: ef.Commit, Exists: ef.Exists, Count: ef.Count}
	if ef.Name == "" {
		return e, errors.New("name: missing")
	}
	if err := validName(ef.Name); err != nil {
		return e, fmt.Errorf("name: %w", err)
	}
	if !contains(Categories(), ef.Category) {
		return e, fmt.Errorf("category: %q; want one of %s", ef.Category, strings.Join(Categories(), ", "))
	}
	if ef.Exists != nil && ef.Count != nil {
		return e, errors.New("exists and count: give one quantifier, not both")
	}
	if ef.Count != nil && *ef.Count < 0 {
		return e, fmt.Errorf("count: %d; want 0 or more", *ef.Count)
	}
	hasRecord := ef.Record != nil || len(ef.Fields) > 0 || len(ef.Sources) > 0 || len(ef.Text) > 0 || len(ef.NotText) > 0 || ef.Untouched
	switch {
	case ef.Commit != nil:
		if hasRecord || ef.Op != nil || ef.Exists != nil || ef.Count != nil {
			return e, errors.New("commit: checks the run alone; leave out record conditions, op, exists and count")
		}
		return e, nil
	case ef.Op != nil:
		if hasRecord {
			return e, errors.New("op: checks the commit message; leave out record conditions (record, fields, sources, text, not_text, untouched)")
		}
		op, err := ef.Op.cond()
		e.Op = op
		return e, err
	}
	return e, e.validateRecord(ef.Record)
}

// validateRecord checks a record expectation's glob and conditions.
func (e *Expectation) validateRecord(glob *string) error {
	e.Record = "**"
	if glob != nil {
		e.Record = *glob
	}
	if err := checkGlob(e.Record); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	for k, v := range e.Fields {
		if k == "" {
			return errors.New("fields: an empty key")
		}
		if err := checkValueGlob(v); err != nil {
			return fmt.Errorf("fields: %s: %w", k, err)
		}
	}
	for _, group := range []struct {
		key  string
		list []string
	}{{"sources", e.Sources}, {"text", e.Text}, {"not_text", e.NotText}} {
		for _, s := range group.list {
			if strings.TrimSpace(s) == "" || normalize(s) == "" {
				return fmt.Errorf("%s: an empty entry", group.key)
			}
		}
	}
	if e.Untouched && hasMeta(e.Record) {
		return fmt.Errorf("untouched: record %q must name one exact path, not a glob", e.Record)
	}
	return nil
}

// cond validates an op condition.
func (f opFile) cond() (*OpCond, error) {
	if f.Kind != "" && !isOpKind(f.Kind) {
		return nil, fmt.Errorf("op: kind: %q is not an operation of memlog", f.Kind)
	}
	for _, g := range []struct{ key, glob string }{{"path", f.Path}, {"target", f.Target}} {
		if g.glob == "" {
			continue
		}
		if err := checkGlob(g.glob); err != nil {
			return nil, fmt.Errorf("op: %s: %w", g.key, err)
		}
	}
	for _, c := range f.Categories {
		if !isOpCategory(c) {
			return nil, fmt.Errorf("op: categories: %q is not a category of memlog", c)
		}
	}
	return &OpCond{Kind: f.Kind, Path: f.Path, Target: f.Target, Categories: f.Categories, Reason: f.Reason}, nil
}

// isOpKind: k is an operation of memlog's format.
func isOpKind(k string) bool {
	switch memlog.OpKind(k) {
	case memlog.OpAdd, memlog.OpUpdate, memlog.OpReplace, memlog.OpDrop, memlog.OpMerge, memlog.OpSplit, memlog.OpTrim, memlog.OpRewrite:
		return true
	}
	return false
}

// isOpCategory: c is a tidy-up category of memlog's format.
func isOpCategory(c string) bool {
	for _, v := range memlog.Categories() {
		if string(v) == c {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// readBefore reads the .yoi/ tree under dir: regular files only.
func readBefore(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file; a scenario's tree holds files only", p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) && len(files) == 0 {
		return nil, fmt.Errorf("%s: missing: the .yoi/ tree before the run", dir)
	}
	return files, err
}

// readStaging reads the staging files: each parses as extract writes it
// and is named after its id.
func readStaging(dir string) ([]StagingFile, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var out []StagingFile
	for _, de := range entries {
		p := filepath.Join(dir, de.Name())
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".json") {
			return nil, fmt.Errorf("%s: not a staging file (<id>.json)", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		s, err := extract.ParseStaging(p, b)
		if err != nil {
			return nil, err
		}
		if s.ID+".json" != de.Name() {
			return nil, fmt.Errorf("%s: id: %q; the file is named <id>.json", p, s.ID)
		}
		out = append(out, StagingFile{Name: de.Name(), Data: b})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// LoadAll loads every scenario directory under root, in name order,
// skipping those whose name begins with "_" or ".".
func LoadAll(root string) ([]*Scenario, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []*Scenario
	for _, de := range entries {
		if !de.IsDir() || strings.HasPrefix(de.Name(), "_") || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		sc, err := Load(filepath.Join(root, de.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

// ErrNoSuchScenario: a name given is not one of the scenario directories
// of the root.
var ErrNoSuchScenario = errors.New("no such scenario")

// LoadNamed loads the scenarios of root named, in the order given. A name
// is a directory's name, never a path.
func LoadNamed(root string, names []string) ([]*Scenario, error) {
	var scs []*Scenario
	for _, name := range names {
		dir := filepath.Join(root, name)
		if strings.ContainsAny(name, `/\`) || name == "" || name == "." || name == ".." {
			return nil, fmt.Errorf("%q: %w: give a scenario's name, a directory of %s", name, ErrNoSuchScenario, root)
		}
		if _, err := os.Stat(filepath.Join(dir, ScenarioFile)); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%q: %w", name, ErrNoSuchScenario)
		}
		sc, err := Load(dir)
		if err != nil {
			return nil, err
		}
		scs = append(scs, sc)
	}
	return scs, nil
}
