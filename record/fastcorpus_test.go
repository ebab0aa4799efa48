package record

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestBenchCorpusFallbacks counts the frontmatters of the bench corpus
// (bench/gencorpus, mixed shapes) that the fast path leaves to the YAML
// library and lists them grouped by the shape that made it refuse; the
// files it reads must give the library's tree. Every shape the generator
// writes is one the fast path decides itself, except full-line comments in
// CRLF files (crlfComment). YOIMEM_BENCH_CORPUS names a corpus written before
// (the directory holding .yoi/), e.g. the 10,000 records bench/lint.sh
// reads; without it the test writes 2,000 records with seed 1.
func TestBenchCorpusFallbacks(t *testing.T) {
	dir := os.Getenv("YOIMEM_BENCH_CORPUS")
	if dir == "" {
		if testing.Short() {
			t.Skip("writes a corpus with go run ../bench/gencorpus")
		}
		dir = t.TempDir()
		cmd := exec.Command("go", "run", "../bench/gencorpus", "-out", dir, "-n", strconv.Itoa(2000), "-seed", "1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gencorpus: %v\n%s", err, out)
		}
	}
	total, groups := 0, map[string][]string{}
	err := filepath.WalkDir(filepath.Join(dir, ".yoi"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		d, err := parseWith(b, nil)
		if err != nil {
			return nil // not a record the library reads either
		}
		total++
		fm := b[d.dataStart:d.dataEnd]
		if fast, ok := fastParse(fm); ok {
			if diff := treeDiff("", fast, d.root); diff != "" {
				t.Errorf("%s: the fast path reads it otherwise than the library: %s", p, diff)
			}
		} else {
			g := refusedShape(string(fm))
			groups[g] = append(groups[g], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	refused, unexpected := 0, 0
	keys := make([]string, 0, len(groups))
	for k, ps := range groups {
		refused += len(ps)
		if k != crlfCommentShape {
			unexpected += len(ps)
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(groups[keys[i]]) > len(groups[keys[j]]) })
	for _, k := range keys {
		t.Logf("%5d  %q  e.g. %s", len(groups[k]), k, groups[k][0])
	}
	t.Logf("%d of %d frontmatters fall back to the YAML library", refused, total)
	if total == 0 {
		t.Fatalf("no records under %s", dir)
	}
	if unexpected > 0 {
		t.Errorf("%d frontmatters fall back in a shape the fast path should read; the groups are listed above", unexpected)
	}
}

// crlfCommentShape is the one group the fast path leaves to the library
// on purpose (crlfComment).
const crlfCommentShape = "CRLF line breaks and full-line comments"

var (
	wordRun  = regexp.MustCompile(`[\p{L}\p{N}]+`)
	wordsRun = regexp.MustCompile(`w( w)+`)
)

// refusedShape names why the fast path refused a frontmatter: the first
// top-level entry (with its indented lines) it refuses on its own, words
// written as w; or, when it takes each entry alone, where the comment
// lines stand.
func refusedShape(fm string) string {
	if crlfComment([]byte(fm), splitLines(nil, fm)) {
		return crlfCommentShape
	}
	var entries []string
	for _, l := range strings.SplitAfter(fm, "\n") {
		switch {
		case l == "":
		case len(entries) == 0 || l[0] != ' ' && l[0] != '-' && l[0] != '\r' && l[0] != '\n':
			entries = append(entries, l)
		default:
			entries[len(entries)-1] += l
		}
	}
	for _, e := range entries {
		if strings.HasPrefix(e, "#") {
			continue
		}
		if _, ok := fastParse([]byte(e)); !ok {
			e = strings.ReplaceAll(e, "\r", `\r`)
			return "entry " + wordsRun.ReplaceAllString(wordRun.ReplaceAllString(e, "w"), "w w")
		}
	}
	var where []string
	for i, e := range entries {
		if !strings.HasPrefix(e, "#") {
			continue
		}
		switch {
		case i == 0:
			where = append(where, "comment first")
		case i == len(entries)-1:
			where = append(where, "comment last")
		case strings.TrimSpace(e[strings.IndexByte(e, '\n')+1:]) == "" && strings.Count(e, "\n") > 1:
			where = append(where, "comment, blank line, key")
		}
	}
	return "comments: " + strings.Join(where, ", ")
}
