package main

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

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
	snap  record.Snapshot
}

// openCatalog loads the cache for w's dirs; the snapshot must list exactly
// those dirs.
func openCatalog(env Env, w *workspace, snap record.Snapshot, dirs ...string) *catalog {
	key := sha256.Sum256([]byte(w.root + "\x00" + strings.Join(dirs, "\x00")))
	path := filepath.Join(w.repo.CommonDir, "yoimem", "cache", "catalog-"+hex.EncodeToString(key[:8]))
	c, err := catcache.Load(path)
	if err != nil {
		warnf(env.Stderr, "%v (continuing without it)", err)
	}
	return &catalog{env: env, cache: c, snap: snap}
}

func (c *catalog) examiner() memory.Examiner { return c.cache.Examiner(c.snap) }

func (c *catalog) save() {
	if err := c.cache.Save(c.snap); err != nil {
		warnf(c.env.Stderr, "%v (the next run reads the records again)", err)
	}
}
