package main

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/catcache"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// catalog is the machine-local cache of record examinations for one scope
// of the workspace (the directories a command lists). A cache that cannot
// be read or written costs speed, never an answer: problems are warnings.
type catalog struct {
	env   Env
	cache *catcache.Cache
	last  record.Snapshot // the latest listing of the whole scope
}

// openCatalog loads the cache for w's dirs; a facts-only catalog keeps
// no text to search (the always-on context's).
func openCatalog(env Env, w *workspace, factsOnly bool, dirs ...string) *catalog {
	key := sha256.Sum256([]byte(w.root + "\x00" + strings.Join(dirs, "\x00")))
	name, load := "catalog-", catcache.Load
	if factsOnly {
		name, load = "facts-", catcache.LoadFacts
	}
	path := filepath.Join(w.repo.CommonDir, "yoimem", "cache", name+hex.EncodeToString(key[:8]))
	c, err := load(path, time.Now)
	if err != nil {
		warnf(env.Stderr, "%v (continuing without it)", err)
	}
	return &catalog{env: env, cache: c}
}

// openCatalogAsync loads the catalog while the caller lists the records:
// the two read different files, and a warm search is mostly these two.
func openCatalogAsync(env Env, w *workspace, factsOnly bool, dirs ...string) <-chan *catalog {
	ch := make(chan *catalog, 1)
	go func() { ch <- openCatalog(env, w, factsOnly, dirs...) }()
	return ch
}

// examiner examines the entries of snap, a listing of the whole scope.
func (c *catalog) examiner(snap record.Snapshot) memory.Examiner {
	c.last = snap
	return c.cache.Examiner(snap)
}

func (c *catalog) save() {
	if err := c.cache.Save(c.last); err != nil {
		warnf(c.env.Stderr, "%v (the next run reads the records again)", err)
	}
}

// searcher runs knowledge_search and memory_search over the working tree
// through the catalogs, for one command or a whole MCP session.
type searcher struct {
	env      Env
	w        *workspace
	mu       sync.Mutex
	catalogs map[memory.Scope]*catalog
}

func newSearcher(env Env, w *workspace) *searcher {
	return &searcher{env: env, w: w, catalogs: map[memory.Scope]*catalog{}}
}

// scopeDirs are the directories of .yoi/ a scope searches.
func scopeDirs(scope memory.Scope) []string {
	if scope == memory.ScopeMemory {
		return []string{"memory"}
	}
	return []string{record.KnowledgeDir}
}

func (s *searcher) search(scope memory.Scope, q memory.Query) (memory.Result, error) {
	dirs := scopeDirs(scope)
	s.mu.Lock()
	cat, ok := s.catalogs[scope]
	var loaded <-chan *catalog
	if !ok {
		loaded = openCatalogAsync(s.env, s.w, false, dirs...)
	}
	s.mu.Unlock()
	snap, err := worktreeSnapshot(s.env, s.w, dirs...)
	s.mu.Lock()
	if !ok {
		cat = <-loaded
		if prev, ok := s.catalogs[scope]; ok {
			cat = prev // another call loaded it meanwhile
		}
		s.catalogs[scope] = cat
	}
	s.mu.Unlock()
	if err != nil {
		return memory.Result{}, err
	}
	s.mu.Lock()
	examine := cat.examiner(snap)
	s.mu.Unlock()
	return memory.Search(snap, scope, q, memory.Options{
		MaxResults:   int(s.w.cfg.Int(config.KeySearchMaxResults)),
		ExcerptLines: int(s.w.cfg.Int(config.KeySearchExcerptLines)),
		Examine:      examine,
	})
}

// save writes back every catalog used.
func (s *searcher) save() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.catalogs {
		c.save()
	}
}
