package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// Tools are the memory tools (docs/retrieval.md): read, write, edit,
// delete. Every write runs the linter first; its errors come back as a
// *Refusal a model can read and act on. Writes are allowed only to records under memory/
// and knowledge/, never to workflow/, never over a read-only file (the
// user's lock); a write creates a new record and replaces an existing one
// only when asked to. Each write is read, linted and written under the
// store's writers' lock: concurrent writers wait for each other, and none
// is lost. Paths are taken as .yoi/-relative or from the workspace root
// (".yoi/knowledge/x.md"); errors print them from the workspace root.
type Tools struct {
	Store Store
	Lint  lint.Options
}

// ReadResult is a record as read.
type ReadResult struct {
	Path    string // relative to .yoi/
	Content []byte
	// Blob is the content's git blob id: what write, edit and delete
	// take as expect, to refuse a change made since this read.
	Blob string
}

// WriteOptions say what a write may do to an existing record. By default
// it creates a new one and refuses to replace one that exists.
type WriteOptions struct {
	Create    bool   // create only (the default for a new path); contradicts the others
	Overwrite bool   // replace the record if it exists
	Expect    string // replace the record only if its blob id is this one (implies Overwrite)
}

// Read returns a record's content and blob id. A record over the size
// limit is an error (*record.TooLargeError), never its first bytes.
func (t *Tools) Read(path string) (ReadResult, error) {
	rel, err := toolPath("read", path)
	if err != nil {
		return ReadResult{}, err
	}
	snap, err := t.Store.Snapshot()
	if err != nil {
		return ReadResult{}, err
	}
	e, ok := snap.Lookup(rel)
	if !ok || e.Mode != record.ModeRegular || record.Classify(rel).Area != record.AreaRecord {
		return ReadResult{}, opError("read", rel, ErrNotFound)
	}
	b, err := snap.Read(rel)
	if errors.Is(err, record.ErrNotExist) {
		return ReadResult{}, opError("read", rel, ErrNotFound) // removed since it was listed
	}
	if err != nil {
		return ReadResult{}, readError("read", rel, err)
	}
	return ReadResult{Path: rel, Content: b, Blob: record.BlobID(b)}, nil
}

// Write writes a whole record: it creates a new one, and replaces an
// existing one only with o.Overwrite or o.Expect.
func (t *Tools) Write(ctx context.Context, path string, content []byte, o WriteOptions) ([]lint.Finding, error) {
	if o.Create && (o.Overwrite || o.Expect != "") {
		return nil, errors.New("write: create refuses an existing record, overwrite and expect replace one: give one or the other")
	}
	return t.change(ctx, "write", path, o.Expect, func(cur current) (record.Change, error) {
		if cur.exists && !o.Overwrite && o.Expect == "" {
			return record.Change{}, &Refusal{Op: "write", Path: cur.path, Findings: []lint.Finding{{
				Path: cur.path, Line: 1, Col: 1, Severity: lint.Error, Rule: lint.RuleSlugExists,
				Message: "it exists; change it with edit, or read it and write it whole with overwrite",
			}}}
		}
		return record.Change{Op: record.OpPut, Path: cur.path, Content: content, Create: !cur.exists}, nil
	})
}

// Edit replaces the one occurrence of old with new in a record; zero or
// several occurrences are an error that says so.
func (t *Tools) Edit(ctx context.Context, path, old, new, expect string) ([]lint.Finding, error) {
	return t.change(ctx, "edit", path, expect, func(cur current) (record.Change, error) {
		if !cur.exists {
			return record.Change{}, opError("edit", cur.path, ErrNotFound)
		}
		switch n := strings.Count(string(cur.content), old); {
		case old == "":
			return record.Change{}, opError("edit", cur.path, errors.New("the text to replace is empty"))
		case n == 0:
			return record.Change{}, opError("edit", cur.path, errors.New("the text to replace does not occur; read the record again"))
		case n > 1:
			return record.Change{}, opError("edit", cur.path, fmt.Errorf("the text to replace occurs %d times; give more context so it occurs once", n))
		}
		return record.Change{Op: record.OpPut, Path: cur.path, Content: []byte(strings.Replace(string(cur.content), old, new, 1))}, nil
	})
}

// Delete removes a record. Decisions are replaced, not deleted (status:
// replaced, replaced_by), and the summary is rewritten, never deleted.
func (t *Tools) Delete(ctx context.Context, path, expect string) ([]lint.Finding, error) {
	return t.change(ctx, "delete", path, expect, func(cur current) (record.Change, error) {
		switch {
		case cur.path == record.SummaryPath:
			return record.Change{}, opError("delete", cur.path, errors.New("the summary is never deleted: the always-on context starts from it; rewrite it with edit, or write it whole with overwrite"))
		case record.Classify(cur.path).Kind == record.KindDecision:
			return record.Change{}, opError("delete", cur.path, errors.New("decisions are not deleted; set status: replaced and replaced_by to the record that replaces it"))
		case !cur.exists:
			return record.Change{}, opError("delete", cur.path, ErrNotFound)
		}
		return record.Change{Op: record.OpDelete, Path: cur.path}, nil
	})
}
