package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
	yrec "github.com/yoimem/git-yoimem/record"
)

// canonical reports whether a record file is exactly what rec.Render
// writes for its decoded fields, followed by its body (shapes.go).
func canonical(t testing.TB, path string, data []byte) bool {
	t.Helper()
	r, _, err := yrec.Decode(strings.TrimPrefix(path, ".yoi/"), data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out, err := yrec.Render(r, r.Body())
	if err != nil {
		t.Fatalf("%s: render: %v", path, err)
	}
	return bytes.Equal(out, data)
}

// digest hashes a corpus as `find .yoi -type f | LC_ALL=C sort` followed by
// each path and its contents would.
func digest(files map[string][]byte) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s\n", p)
		h.Write(files[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestCanonicalUnchanged pins -shapes canonical to the generator's output
// before the mixed mode existed (the digest was taken from a build of
// 8f683b6), so figures on it stay comparable with older ones.
func TestCanonicalUnchanged(t *testing.T) {
	got := digest(gen(t, "-n", "200", "-seed", "7", "-invocable", "10", "-shapes", "canonical"))
	if want := "93e49f92a075f046779f13a71a48a7ffd763f129c03985243f3cdd0b006050e1"; got != want {
		t.Errorf("-shapes canonical corpus digest %s, want %s (the output of 8f683b6)", got, want)
	}
}

func TestShapesFlag(t *testing.T) {
	err := run([]string{"-out", t.TempDir(), "-n", "5", "-shapes", "fancy"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-shapes") {
		t.Fatalf("-shapes fancy: %v, want an error naming -shapes", err)
	}
}

// shapeChecks are the shapes the mixed corpus must hold at least once, as
// patterns over a record's frontmatter (or, for body shapes, the file).
var shapeChecks = map[string]*regexp.Regexp{
	"sources as block mappings":       regexp.MustCompile(`(?m)^(last_)?sources:\r?\n  - session_id: \S+\r?\n    range:`),
	"range as a block list":           regexp.MustCompile(`(?m)^    range:\r?\n      - \d+\r?\n      - \d+`),
	"sources items at column 1":       regexp.MustCompile(`(?m)^- \{session_id: `),
	"sources as a one-line flow list": regexp.MustCompile(`(?m)^(last_)?sources: \[\{`),
	"flow mapping with keys swapped":  regexp.MustCompile(`\{range: \[\d+, \d+\], session_id: `),
	"quoted session id":               regexp.MustCompile(`session_id: ["']`),
	"double-quoted escapes":           regexp.MustCompile(`(?m)^description: ".*\\"`),
	"single-quoted with ''":           regexp.MustCompile(`(?m)^description: '.*''`),
	"multi-line plain description":    regexp.MustCompile(`(?m)^description: [^"'>|].*\r?\n  \S`),
	"folded description":              regexp.MustCompile(`(?m)^description: >-?\r?$`),
	"literal description":             regexp.MustCompile(`(?m)^description: \|\r?$`),
	"Japanese description":            regexp.MustCompile(`(?m)^description:.*\p{Han}|^  .*\p{Katakana}`),
	"full-line comment":               regexp.MustCompile(`(?m)^# \S`),
	"trailing comment":                regexp.MustCompile(`(?m)^[a-z_]+: \S+ # `),
	"unknown key":                     regexp.MustCompile(`(?m)^(tags|author|reviewers|priority|lang|related):`),
	"quoted timestamp":                regexp.MustCompile(`(?m)^(created|updated)_at: "`),
	"+00:00 timestamp":                regexp.MustCompile(`(?m)^(created|updated)_at: \S+\+00:00`),
	"millisecond timestamp":           regexp.MustCompile(`(?m)^(created|updated)_at: \S+\.000Z`),
	"model_invocation alias":          regexp.MustCompile(`(?m)^model_invocation: `),
	"keys in another order":           regexp.MustCompile(`(?m)^updated_at: .*\r?\n(?:.*\r?\n)*?created_at: `),
}

var bodyChecks = map[string]func(data []byte) bool{
	"Japanese body":     regexp.MustCompile(`(?m)^## \p{Han}+`).Match,
	"CRLF file":         regexp.MustCompile(`\A---\r\n`).Match,
	"tilde code fence":  regexp.MustCompile("(?m)^~~~").Match,
	"long body (5 KB+)": func(data []byte) bool { return len(data) > 5000 },
}

// frontmatterOf returns the text between the --- lines.
func frontmatterOf(data []byte) string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimPrefix(s, "---\n")
	fm, _, _ := strings.Cut(s, "\n---\n")
	return fm
}

// TestMixedShapes: at least half of a mixed corpus is not canonical, every
// shape the mode promises occurs, and the canonical mode writes only
// canonical records.
func TestMixedShapes(t *testing.T) {
	for _, tc := range []struct {
		shapes   string
		min, max float64 // share of non-canonical records
	}{
		{shapesMixed, 0.5, 0.75},
		{shapesCanonical, 0, 0},
	} {
		t.Run(tc.shapes, func(t *testing.T) {
			files := gen(t, "-n", "1000", "-seed", "3", "-shapes", tc.shapes)
			non := 0
			seen := map[string]int{}
			for p, data := range files {
				if !canonical(t, p, data) {
					non++
				}
				fm := frontmatterOf(data)
				for name, re := range shapeChecks {
					if re.MatchString(fm) {
						seen[name]++
					}
				}
				for name, match := range bodyChecks {
					if match(data) {
						seen[name]++
					}
				}
			}
			share := float64(non) / float64(len(files))
			t.Logf("%s: %d of %d records not canonical (%.0f%%); shapes %v", tc.shapes, non, len(files), 100*share, seen)
			if share < tc.min || share > tc.max {
				t.Errorf("%.2f of the records are not canonical, want %.2f to %.2f", share, tc.min, tc.max)
			}
			for name := range shapeChecks {
				if tc.shapes == shapesMixed && seen[name] == 0 || tc.shapes == shapesCanonical && seen[name] > 0 {
					t.Errorf("%s: %d records hold %s", tc.shapes, seen[name], name)
				}
			}
			for name := range bodyChecks {
				if tc.shapes == shapesMixed && seen[name] == 0 {
					t.Errorf("%s: no record holds %s", tc.shapes, name)
				}
			}
		})
	}
}

// snapshot turns a generated tree into the linter's view of .yoi/.
func snapshot(files map[string][]byte) yrec.Snapshot {
	m := make(map[string][]byte, len(files))
	for p, b := range files {
		m[strings.TrimPrefix(p, ".yoi/")] = b
	}
	return yrec.MapSnapshot(m)
}

// TestLintClean: every generated record passes the linter with its default
// options; the mixed corpus's only warnings are the CRLF files' and the
// similar-slug hints the canonical corpus has too.
func TestLintClean(t *testing.T) {
	for _, shapes := range []string{shapesMixed, shapesCanonical} {
		t.Run(shapes, func(t *testing.T) {
			files := gen(t, "-n", "1000", "-seed", "5", "-shapes", shapes)
			rep := lint.Tree(snapshot(files), lint.DefaultOptions(), nil)
			crlf, rules := 0, map[string]int{}
			for _, data := range files {
				if bytes.HasPrefix(data, []byte("---\r\n")) {
					crlf++
				}
			}
			for _, f := range rep.Findings {
				rules[f.Rule]++
				if f.Severity == lint.Error {
					t.Errorf("%s", f)
				}
			}
			t.Logf("%s: %d error(s), %d warning(s): %v", shapes, rep.Count(lint.Error), rep.Count(lint.Warning), rules)
			if rules["line-endings"] != crlf {
				t.Errorf("%d line-endings warnings for %d CRLF files", rules["line-endings"], crlf)
			}
			if shapes == shapesMixed && crlf == 0 {
				t.Error("the mixed corpus has no CRLF file")
			}
			for r := range rules {
				if r != "line-endings" && r != "similar-slugs" {
					t.Errorf("unexpected %d finding(s) of rule %s", rules[r], r)
				}
			}
		})
	}
}

// BenchmarkLintTree lints a generated corpus in memory (no disk, no git):
// the parsing and rules of `git yoimem lint` alone. For a profile:
//
//	go test ./bench/gencorpus -run '^$' -bench LintTree/mixed -benchtime 5x -cpuprofile /tmp/lint.prof
//	go tool pprof -top /tmp/lint.prof
func BenchmarkLintTree(b *testing.B) {
	for _, shapes := range []string{shapesMixed, shapesCanonical} {
		b.Run(shapes, func(b *testing.B) {
			files, _ := generate(config{n: *corpusN * 50, seed: 1, invocable: 300, shapes: shapes})
			m := make(map[string][]byte, len(files))
			for _, f := range files {
				m[f.path] = f.data
			}
			snap := snapshot(m)
			for b.Loop() {
				if rep := lint.Tree(snap, lint.DefaultOptions(), nil); rep.HasErrors() {
					b.Fatalf("lint errors: %v", rep.Findings[0])
				}
			}
		})
	}
}
