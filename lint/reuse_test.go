package lint

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// generatedCorpus is a mixed-shape corpus of n records from
// bench/gencorpus (run with the go command that runs the tests), as a
// snapshot of .yoi/.
func generatedCorpus(t *testing.T, n string) record.Snapshot {
	t.Helper()
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	dir := t.TempDir()
	cmd := exec.Command(goCmd, "run", "../bench/gencorpus", "-n", n, "-seed", "7", "-shapes", "mixed", "-out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gencorpus: %v\n%s", err, out)
	}
	root := filepath.Join(dir, ".yoi")
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return record.MapSnapshot(files)
}

// lintEach lints every entry of snap in order, with one worker for all
// files (its memory reused from file to file) or a new one for each.
func lintEach(snap record.Snapshot, opts Options, fresh bool) []fileResult {
	idx := newIndex(snap)
	out := make([]fileResult, len(snap.Entries))
	var w worker
	for i, e := range snap.Entries {
		if fresh {
			w = worker{}
		}
		out[i] = w.lintFile(e, idx, opts)
	}
	return out
}

// TestReusedWorkerFindings: a worker that reuses its decoder's memory
// from file to file finds what fresh workers find, file by file, facts
// included, over the shape records and a generated mixed corpus; and the
// results do not change when the worker goes on to other files.
func TestReusedWorkerFindings(t *testing.T) {
	corpora := map[string]record.Snapshot{"shapes": shapeTree(t, 300)}
	if !testing.Short() {
		corpora["generated"] = generatedCorpus(t, "3000")
	}
	opts := DefaultOptions()
	opts.LowImportanceTokens = 200 // so that Usage sees records
	opts.Usage = func(r *record.Record) Usage { return Usage{Known: true, Unused: strings.HasPrefix(r.Slug, "a")} }
	for name, snap := range corpora {
		// Reads into the reader's buffer, as the working tree's snapshot
		// does: what a worker keeps of a file must not share its bytes.
		snap.ReadInto = func(path string, buf []byte) ([]byte, error) {
			b, err := snap.Read(path)
			return append(buf[:0], b...), err
		}
		t.Run(name, func(t *testing.T) {
			fresh := lintEach(snap, opts, true)
			reused := lintEach(snap, opts, false)
			facts := 0
			for i, e := range snap.Entries {
				if !reflect.DeepEqual(reused[i], fresh[i]) {
					t.Fatalf("%s: reused worker gives %+v (facts %+v), a fresh one %+v (facts %+v)", e.Path, reused[i].findings, reused[i].facts, fresh[i].findings, fresh[i].facts)
				}
				if fresh[i].facts != nil {
					facts++
				}
			}
			if facts == 0 {
				t.Fatal("no decision facts: the corpus does not exercise them")
			}
		})
	}
}
