package secrets

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// benchCorpus reads the bench corpus (bench/gencorpus, mixed shapes): the
// .yoi/-relative path of each file and its bytes. YOIMEM_BENCH_CORPUS names
// a corpus written before (the directory holding .yoi/), e.g. the 10,000
// records bench/lint.sh reads; without it the corpus of n records with
// seed 1 is written with go run ../../bench/gencorpus.
func benchCorpus(tb testing.TB, n int) map[string][]byte {
	tb.Helper()
	dir := os.Getenv("YOIMEM_BENCH_CORPUS")
	if dir == "" {
		if testing.Short() {
			tb.Skip("writes a corpus with go run ../../bench/gencorpus")
		}
		dir = tb.TempDir()
		cmd := exec.Command("go", "run", "../../bench/gencorpus", "-out", dir, "-n", strconv.Itoa(n), "-seed", "1")
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("gencorpus: %v\n%s", err, out)
		}
	}
	root := filepath.Join(dir, ".yoi")
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// corpusFiles are the files of the bench corpus of n records (when none
// is named), in path order.
func corpusFiles(tb testing.TB, n int) [][]byte {
	files := benchCorpus(tb, n)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := make([][]byte, len(paths))
	for i, p := range paths {
		out[i] = files[p]
	}
	return out
}

// BenchmarkFind scans every file of the bench corpus, as lint does.
func BenchmarkFind(b *testing.B) {
	files := corpusFiles(b, 10000)
	n := 0
	for _, f := range files {
		n += len(f)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			Find(f)
		}
	}
}
