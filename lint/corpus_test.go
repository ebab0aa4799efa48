package lint

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// benchCorpus reads the bench corpus (bench/gencorpus, mixed shapes): the
// .yoi/-relative path of each file and its bytes. YOIMEM_BENCH_CORPUS names
// a corpus written before (the directory holding .yoi/), e.g. the 10,000
// records bench/lint.sh reads; without it the corpus of n records with
// seed 1 is written with go run ../bench/gencorpus.
func benchCorpus(tb testing.TB, n int) map[string][]byte {
	tb.Helper()
	dir := os.Getenv("YOIMEM_BENCH_CORPUS")
	if dir == "" {
		if testing.Short() {
			tb.Skip("writes a corpus with go run ../bench/gencorpus")
		}
		dir = tb.TempDir()
		cmd := exec.Command("go", "run", "../bench/gencorpus", "-out", dir, "-n", strconv.Itoa(n), "-seed", "1")
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
