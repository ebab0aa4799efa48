package rules

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txtar from the engine's output")

var now = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

const summary = "---\nupdated_at: 2026-01-01T00:00:00Z\n---\n# Project\n\nRun make test.\n"

// decisionFile is a decision record with sources s (session IDs, range
// [1, 9] each).
func decisionFile(status, body string, s ...string) string {
	return "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\nstatus: " + status + "\nsources:\n" + sourceLines(s) + "---\n" + body
}

func replacedFile(by, body string, s ...string) string {
	return "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\nstatus: replaced\nreplaced_by: " + by + "\nsources:\n" + sourceLines(s) + "---\n" + body
}

func requestFile(body string, s ...string) string {
	return "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\nsources:\n" + sourceLines(s) + "---\n" + body
}

func knowledgeFile(desc, body string) string {
	return "---\nkind: rule\ndescription: " + desc + "\nmodel_invokation: false\nuser_invocable: true\nlast_sources: []\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n---\n" + body
}

func sourceLines(s []string) string {
	if len(s) == 0 {
		return ""
	}
	var b strings.Builder
	for _, id := range s {
		b.WriteString("  - {session_id: " + id + ", range: [1, 9]}\n")
	}
	return b.String()
}

// stage is one staging entry: id (sorts in time order), session, the
// entries' range and the day it was staged.
func stage(id, session string, day int, a extract.Activity) extract.Staging {
	return extract.Staging{
		Version:   extract.StagingVersion,
		ID:        id,
		CreatedAt: time.Date(2026, 3, day, 12, 0, 0, 0, time.UTC),
		Source:    extract.Source{SessionID: session, Range: [2]int{day * 10, day*10 + 9}},
		Agent:     "native",
		Activity:  a,
	}
}

// scenario is one table case: a base, one or more runs (steps) each over
// its own staging entries, and checks beyond the golden file.
type scenario struct {
	name   string
	base   map[string]string
	steps  [][]extract.Staging
	locked []string
	usage  map[string]consolidate.RecordUsage
	lint   func(*lint.Options)
	engine Engine
	// check is called after each step with the files as they are then.
	check func(t *testing.T, step int, files map[string]string, ops []memlog.Op)
}

// stepResult is what one run did.
type stepResult struct {
	ops   []memlog.Op
	files map[string]string
}

func (sc scenario) input(files map[string]string, entries []extract.Staging, at time.Time) *consolidate.Input {
	snap := map[string][]byte{}
	for p, c := range files {
		snap[p] = []byte(c)
	}
	locked := map[string]bool{}
	for _, p := range sc.locked {
		locked[p] = true
	}
	opts := lint.DefaultOptions()
	if sc.lint != nil {
		sc.lint(&opts)
	}
	return &consolidate.Input{
		RunID:   "run-test",
		Now:     at,
		Base:    record.MapSnapshot(snap),
		Entries: entries,
		Usage:   sc.usage,
		Locked:  locked,
		Lint:    opts,
	}
}

// runOnce runs the engine over files and returns what it changed.
func (sc scenario) runOnce(t *testing.T, files map[string]string, entries []extract.Staging, at time.Time) (stepResult, error) {
	t.Helper()
	s, err := consolidate.NewSession(sc.input(files, entries, at))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.engine.Run(context.Background(), s); err != nil {
		return stepResult{}, err
	}
	out := maps.Clone(files)
	for _, c := range s.Changes().Changes() {
		if c.Op == record.OpDelete {
			delete(out, c.Path)
		} else {
			out[c.Path] = string(c.Content)
		}
	}
	return stepResult{ops: s.Ops(), files: out}, nil
}

// play runs every step, checking after each that the whole result lints
// clean and that a second run over the same entries (later, so no date
// may leak in) changes nothing.
func (sc scenario) play(t *testing.T) (final map[string]string, steps [][]memlog.Op) {
	t.Helper()
	files := maps.Clone(sc.base)
	for i, entries := range sc.steps {
		at := now.Add(time.Duration(i) * 24 * time.Hour)
		res, err := sc.runOnce(t, files, entries, at)
		if err != nil {
			t.Fatalf("step %d: Run: %v", i+1, err)
		}
		lintClean(t, sc, res.files)
		again, err := sc.runOnce(t, res.files, entries, at.Add(7*time.Hour))
		if err != nil {
			t.Fatalf("step %d: second run: %v", i+1, err)
		}
		if len(again.ops) != 0 || !maps.Equal(again.files, res.files) {
			t.Errorf("step %d: a second run over the same input changed something: %v\n%s", i+1, again.ops, diffFiles(res.files, again.files))
		}
		if sc.check != nil {
			sc.check(t, i+1, res.files, res.ops)
		}
		files = res.files
		steps = append(steps, res.ops)
	}
	return files, steps
}

func lintClean(t *testing.T, sc scenario, files map[string]string) {
	t.Helper()
	in := sc.input(files, nil, now)
	rep := lint.Tree(in.Base, in.Lint, nil)
	for _, f := range rep.Findings {
		if f.Severity == lint.Error {
			t.Errorf("the result does not lint clean: %s:%d:%d: %s %s", f.Path, f.Line, f.Col, f.Rule, f.Message)
		}
	}
}

func diffFiles(a, b map[string]string) string {
	var out strings.Builder
	for _, p := range slices.Sorted(maps.Keys(a)) {
		if a[p] != b[p] {
			fmt.Fprintf(&out, "--- %s\n%s\n+++\n%s\n", p, a[p], b[p])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[p]; !ok {
			fmt.Fprintf(&out, "+++ %s (new)\n%s\n", p, b[p])
		}
	}
	return out.String()
}

// golden compares what the steps did with testdata/<name>.txtar: each
// step's operations in the comment, then every file that differs from the
// base.
func golden(t *testing.T, name string, base, final map[string]string, steps [][]memlog.Op) {
	t.Helper()
	var comment bytes.Buffer
	for i, ops := range steps {
		fmt.Fprintf(&comment, "# run %d\n", i+1)
		for _, op := range ops {
			comment.WriteString(opLine(op) + "\n")
		}
	}
	ar := &txtar.Archive{Comment: comment.Bytes()}
	for _, p := range slices.Sorted(maps.Keys(final)) {
		if base[p] != final[p] {
			ar.Files = append(ar.Files, txtar.File{Name: p, Data: []byte(final[p])})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(base)) {
		if _, ok := final[p]; !ok {
			ar.Files = append(ar.Files, txtar.File{Name: p + " (deleted)"})
		}
	}
	got := txtar.Format(ar)
	path := filepath.Join("testdata", name+".txtar")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no golden file %s: run go test ./consolidate/rules -update", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./consolidate/rules -update rewrites it):\n--- got\n%s", path, got)
	}
}

func opLine(op memlog.Op) string {
	s := string(op.Kind) + " " + op.Path
	if op.Target != "" {
		s += " -> " + op.Target
	}
	if len(op.Categories) > 0 {
		var cs []string
		for _, c := range op.Categories {
			cs = append(cs, string(c))
		}
		s += " [" + strings.Join(cs, ",") + "]"
	}
	return s + ": " + op.Reason
}

// mustContain fails unless file p of files contains each of want.
func mustContain(t *testing.T, files map[string]string, p string, want ...string) {
	t.Helper()
	got, ok := files[p]
	if !ok {
		t.Errorf("%s does not exist", p)
		return
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", p, w, got)
		}
	}
}

func decisionPaths(files map[string]string) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if strings.HasPrefix(p, record.DecisionsDir+"/") {
			out = append(out, p)
		}
	}
	return out
}
