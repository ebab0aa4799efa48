package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	yconfig "github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/memory"
	yrec "github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// retrievalWorkspace writes a generated mixed corpus of n records into a
// fresh git repository and opens it as the commands do, with git's
// configuration isolated from the user's. It waits out the cache's
// timestamp granularity, so that the first run's examinations are kept:
// a corpus written a moment ago is not yet trusted (racy).
func retrievalWorkspace(b *testing.B, n int) *workspace.Workspace {
	b.Helper()
	root := b.TempDir()
	home := b.TempDir()
	files, _ := generate(config{n: n, seed: 1, invocable: 300, shapes: shapesMixed})
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": filepath.Join(home, ".gitconfig"), "PATH": os.Getenv("PATH")}
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	cmd := exec.Command("git", "init", "-q", root)
	cmd.Env = environ
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	w, err := workspace.Open(context.Background(), workspace.Env{
		Dir:     root,
		Getenv:  func(k string) string { return env[k] },
		Environ: func() []string { return environ },
		Now:     time.Now,
	}, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	time.Sleep(2*time.Second + 100*time.Millisecond) // catcache.Granularity
	return w
}

// contextOnce is `git yoimem context` after the workspace is open.
func contextOnce(b *testing.B, w *workspace.Workspace) memory.ContextResult {
	dirs := []string{yrec.SummaryPath, yrec.KnowledgeDir}
	loaded := w.OpenCatalogAsync(true, dirs...)
	snap, err := w.Snapshot(dirs...)
	cat := <-loaded
	if err != nil {
		b.Fatal(err)
	}
	res, err := memory.Context(snap, int(w.Config.Int(yconfig.KeyContextBudgetChars)), cat.Examiner(snap))
	cat.Save()
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// searchOnce is `git yoimem search knowledge WORD` after the workspace
// is open.
func searchOnce(b *testing.B, w *workspace.Workspace, word string) memory.Result {
	s := w.Searcher()
	res, err := s.Search(memory.ScopeKnowledge, memory.Query{Text: word})
	s.Save()
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkRetrieval times, in process (no process start, no git), what
// `git yoimem context` and `git yoimem search knowledge` do on a mixed
// corpus of 10,000 records (-corpus.n × 50) on disk: the context and a
// search for a word no record holds with the machine-local cache warm,
// and the search with the cache removed first (cold). For a profile:
//
//	go test ./bench/gencorpus -run '^$' -bench 'Retrieval/context' -benchtime 200x -cpuprofile /tmp/ctx.prof
//	go tool pprof -top /tmp/ctx.prof
func BenchmarkRetrieval(b *testing.B) {
	w := retrievalWorkspace(b, *corpusN*50)
	const absent = "zqxjvkw"
	cacheDir := filepath.Join(w.LocalDir(), "cache")
	b.Run("context", func(b *testing.B) {
		contextOnce(b, w)
		for b.Loop() {
			contextOnce(b, w)
		}
	})
	b.Run("search-warm", func(b *testing.B) {
		searchOnce(b, w, absent)
		for b.Loop() {
			if res := searchOnce(b, w, absent); len(res.Hits) != 0 {
				b.Fatalf("%d hits for %q, want none", len(res.Hits), absent)
			}
		}
	})
	b.Run("search-cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(cacheDir); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			searchOnce(b, w, absent)
		}
	})
}
