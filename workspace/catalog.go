package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/catcache"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// Catalog is the machine-local cache of record examinations for one scope
// of the workspace (the directories a command lists). A cache that cannot
// be read or written costs speed, never an answer: problems are warnings.
type Catalog struct {
	env   Env
	cache *catcache.Cache
	last  record.Snapshot // the latest listing of the whole scope
}

// OpenCatalog loads the cache for dirs of .yoi/; a facts-only catalog
// keeps no text to search (the always-on context's).
func (w *Workspace) OpenCatalog(factsOnly bool, dirs ...string) *Catalog {
	key := sha256.Sum256([]byte(w.Root + "\x00" + strings.Join(dirs, "\x00")))
	name, load := "catalog-", catcache.Load
	if factsOnly {
		name, load = "facts-", catcache.LoadFacts
	}
	path := filepath.Join(w.LocalDir(), "cache", name+hex.EncodeToString(key[:8]))
	c, err := load(path, time.Now) // the file clock, not Env.Now: it is compared with mtimes
	if err != nil {
		w.env.warn("%v (continuing without it)", err)
	}
	c.SetShared(w.SharedPerm)
	return &Catalog{env: w.env, cache: c}
}

// OpenCatalogAsync loads the catalog while the caller lists the records:
// the two read different files, and a warm search is mostly these two.
func (w *Workspace) OpenCatalogAsync(factsOnly bool, dirs ...string) <-chan *Catalog {
	ch := make(chan *Catalog, 1)
	go func() { ch <- w.OpenCatalog(factsOnly, dirs...) }()
	return ch
}

// Examiner examines the entries of snap, a listing of the whole scope.
func (c *Catalog) Examiner(snap record.Snapshot) memory.Examiner {
	c.last = snap
	return c.cache.Examiner(snap)
}

// Prefetch examines on every core the entries of snap that want selects
// and the cache cannot serve (catcache.Cache.Prefetch): a cold search
// reads its records in parallel.
func (c *Catalog) Prefetch(snap record.Snapshot, want func(record.Entry) bool) {
	c.cache.Prefetch(snap, want, runtime.GOMAXPROCS(0))
}

// Save writes the cache back for the next run.
func (c *Catalog) Save() {
	if err := c.cache.Save(c.last); err != nil {
		c.env.warn("%v (the next run reads the records again)", err)
	}
}

// Searcher runs knowledge_search and memory_search over the working tree
// through the catalogs, for one command or a whole MCP session. It is
// safe for concurrent use.
type Searcher struct {
	w        *Workspace
	mu       sync.Mutex
	catalogs map[memory.Scope]*Catalog
}

// Searcher returns a searcher of the working tree's records.
func (w *Workspace) Searcher() *Searcher {
	return &Searcher{w: w, catalogs: map[memory.Scope]*Catalog{}}
}

// scopeDirs are the directories of .yoi/ a scope searches.
func scopeDirs(scope memory.Scope) []string {
	if scope == memory.ScopeMemory {
		return []string{"memory"}
	}
	return []string{record.KnowledgeDir}
}

// Search runs one search with the yoimem.search.* limits. A failure to
// list the records is a *Error (NoYoi) or the listing's error as it is;
// the others are memory.Search's.
func (s *Searcher) Search(scope memory.Scope, q memory.Query) (memory.Result, error) {
	dirs := scopeDirs(scope)
	s.mu.Lock()
	cat, ok := s.catalogs[scope]
	var loaded <-chan *Catalog
	if !ok {
		loaded = s.w.OpenCatalogAsync(false, dirs...)
	}
	s.mu.Unlock()
	snap, err := s.w.Snapshot(dirs...)
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
		return memory.Result{}, &ListError{Err: err}
	}
	s.mu.Lock()
	examine := cat.Examiner(snap)
	s.mu.Unlock()
	return memory.Search(snap, scope, q, memory.Options{
		MaxResults:   int(s.w.Config.Int(config.KeySearchMaxResults)),
		ExcerptLines: int(s.w.Config.Int(config.KeySearchExcerptLines)),
		Examine:      examine,
		Prefetch:     func(want func(record.Entry) bool) { cat.Prefetch(snap, want) },
	})
}

// Save writes back every catalog used.
func (s *Searcher) Save() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.catalogs {
		c.Save()
	}
}

// ListError is a search that could not list the records it searches, as
// opposed to a query the search refused.
type ListError struct{ Err error }

func (e *ListError) Error() string { return e.Err.Error() }
func (e *ListError) Unwrap() error { return e.Err }
