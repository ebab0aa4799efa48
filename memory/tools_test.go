package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

func decision(status, body string) string {
	return "---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nstatus: " + status + "\nsources: []\n---\n" + body
}

func newTools() (*Tools, *MapStore) {
	store := &MapStore{Files: map[string][]byte{
		"memory/summary.md":          []byte("---\nupdated_at: " + ts + "\n---\n# Summary\n"),
		"knowledge/retry-policy.md":  []byte(knowledge("rule", "d", false, "Retry twice.\n")),
		"knowledge/locked.md":        []byte(knowledge("rule", "d", false, "Do not touch.\n")),
		"knowledge/uses-retry.md":    []byte(knowledge("rule", "d", false, "See #retry-policy.\n")),
		"memory/decisions/use-db.md": []byte(decision("open", "Which database?\n")),
		"workflow/deploy.md":         []byte("steps"),
	}, ReadOnly: map[string]bool{"knowledge/locked.md": true}}
	return &Tools{Store: store, Lint: lint.DefaultOptions()}, store
}

func refusedBy(err error, rule string) bool {
	var r *Refusal
	if !errors.As(err, &r) {
		return false
	}
	for _, f := range r.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

var ctx = context.Background()

func TestToolsWrite(t *testing.T) {
	fresh := knowledge("fact", "d", false, "x\n")
	existing := "knowledge/retry-policy.md"
	blob := func(store *MapStore) string { return record.BlobID(store.Files[existing]) }
	tests := []struct {
		name    string
		path    string
		content string
		opts    func(store *MapStore) WriteOptions
		ok      bool   // written
		rule    string // refused by this lint rule
		err     error  // or with this error
		msg     string // and a message holding this
	}{
		{name: "new path: created", path: "knowledge/new-fact.md", content: fresh, ok: true},
		{name: ".yoi/ prefix accepted", path: ".yoi/knowledge/new-fact.md", content: fresh, ok: true},
		{name: "create: created", path: "knowledge/new-fact.md", content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Create: true} }, ok: true},
		{name: "overwrite of a new path: created", path: "knowledge/new-fact.md", content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Overwrite: true} }, ok: true},
		{name: "existing path: refused", path: existing, content: fresh, rule: lint.RuleSlugExists,
			msg: "refused to write .yoi/knowledge/retry-policy.md:\n  .yoi/knowledge/retry-policy.md:1:1: error slug-exists: it exists; change it with edit, or read it and write it whole with overwrite"},
		{name: "create of an existing path: refused", path: existing, content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Create: true} }, rule: lint.RuleSlugExists},
		{name: "overwrite: replaced", path: existing, content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Overwrite: true} }, ok: true},
		{name: "expect the blob read: replaced", path: existing, content: fresh, opts: func(s *MapStore) WriteOptions { return WriteOptions{Expect: blob(s)} }, ok: true},
		{name: "expect another blob: refused", path: existing, content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Expect: strings.Repeat("0", 40)} }, err: record.ErrChanged,
			msg: "write .yoi/knowledge/retry-policy.md: changed since you read it (blob 0000000000000000000000000000000000000000, now "},
		{name: "expect not a blob id: refused", path: existing, content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Expect: "33051fa"} }, err: ErrBadExpect,
			msg: `write .yoi/knowledge/retry-policy.md: expect "33051fa" is not a blob id`},
		{name: "expect in capitals: the same blob", path: existing, content: fresh, opts: func(s *MapStore) WriteOptions { return WriteOptions{Expect: strings.ToUpper(blob(s))} }, ok: true},
		{name: "expect on a path gone: refused", path: "knowledge/gone.md", content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Expect: strings.Repeat("1", 40)} }, err: record.ErrChanged, msg: "now deleted"},
		{name: "create and overwrite contradict", path: existing, content: fresh, opts: func(*MapStore) WriteOptions { return WriteOptions{Create: true, Overwrite: true} }, msg: "create"},
		{name: "bad record", path: "knowledge/bad.md", content: "no frontmatter", rule: lint.RuleFrontmatter},
		{name: "workflow", path: "workflow/deploy.md", content: "new steps", opts: func(*MapStore) WriteOptions { return WriteOptions{Overwrite: true} }, rule: lint.RuleWorkflowWrite},
		{name: "config", path: "config", content: "[yoimem]", rule: lint.RuleWriteArea},
		{name: "path escape", path: "../outside.md", content: "x", rule: lint.RulePathUnsafe},
		{name: "path escape after .yoi/", path: ".yoi/../x.md", content: "x", rule: lint.RulePathUnsafe},
		{name: "broken reference", path: "knowledge/refs.md", content: knowledge("rule", "d", false, "see #nope"), rule: lint.RuleKnowledgeRef,
			msg: "refused to write .yoi/knowledge/refs.md:\n  .yoi/knowledge/refs.md:10:5: error knowledge-ref"},
		{name: "read-only file", path: "knowledge/locked.md", content: knowledge("rule", "d", false, "changed"), opts: func(*MapStore) WriteOptions { return WriteOptions{Overwrite: true} }, err: ErrReadOnly,
			msg: "write .yoi/knowledge/locked.md: the file is read-only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, store := newTools()
			before := fmt.Sprint(store.Files)
			var o WriteOptions
			if tt.opts != nil {
				o = tt.opts(store)
			}
			_, err := tools.Write(ctx, tt.path, []byte(tt.content), o)
			switch {
			case tt.ok && err != nil:
				t.Fatalf("err = %v", err)
			case tt.ok:
				p, _ := record.ToolPath(tt.path)
				if string(store.Files[p]) != tt.content {
					t.Fatalf("%s holds %q", p, store.Files[p])
				}
				return
			case err == nil:
				t.Fatal("written, want a refusal")
			case tt.err != nil && !errors.Is(err, tt.err):
				t.Fatalf("err = %v, want %v", err, tt.err)
			case tt.rule != "" && !refusedBy(err, tt.rule):
				t.Fatalf("err = %v, want a refusal by %s", err, tt.rule)
			case !strings.Contains(err.Error(), tt.msg):
				t.Fatalf("err = %q\nwant it to hold %q", err, tt.msg)
			}
			if fmt.Sprint(store.Files) != before {
				t.Fatal("a refused write changed the store")
			}
		})
	}
}

func TestToolsRead(t *testing.T) {
	tools, store := newTools()
	for _, p := range []string{"knowledge/retry-policy.md", ".yoi/knowledge/retry-policy.md"} {
		r, err := tools.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		want := store.Files["knowledge/retry-policy.md"]
		if r.Path != "knowledge/retry-policy.md" || string(r.Content) != string(want) || r.Blob != record.BlobID(want) {
			t.Errorf("Read(%q) = %+v", p, r)
		}
	}
	if _, err := tools.Read("knowledge/nope.md"); !errors.Is(err, ErrNotFound) || err.Error() != "read .yoi/knowledge/nope.md: no such record" {
		t.Errorf("err = %v", err)
	}
	if _, err := tools.Read("workflow/deploy.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("read outside the record areas: %v", err)
	}
	if _, err := tools.Read("../x.md"); !refusedBy(err, lint.RulePathUnsafe) || !strings.HasPrefix(err.Error(), "refused to read ") {
		t.Errorf("err = %v", err)
	}
	tools.Store = &limitedStore{MapStore: store, tooBig: "knowledge/retry-policy.md"}
	var tl *record.TooLargeError
	if _, err := tools.Read("knowledge/retry-policy.md"); !errors.As(err, &tl) {
		t.Errorf("read over the limit = %v, want the refusal by size", err)
	}
	// removed between the listing and the read: no such record
	tools.Store = &limitedStore{MapStore: store, gone: "knowledge/retry-policy.md"}
	if _, err := tools.Read("knowledge/retry-policy.md"); !errors.Is(err, ErrNotFound) || err.Error() != "read .yoi/knowledge/retry-policy.md: no such record" {
		t.Errorf("read of a record removed since the listing = %v", err)
	}
}

// limitedStore is a MapStore whose snapshot refuses one file by its size,
// or lists one that is gone when read.
type limitedStore struct {
	*MapStore
	tooBig, gone string
}

func (l *limitedStore) Snapshot() (record.Snapshot, error) {
	snap, err := l.MapStore.Snapshot()
	read := snap.Read
	snap.Read = func(p string) ([]byte, error) {
		switch p {
		case l.tooBig:
			return nil, &record.TooLargeError{Path: p, Size: 1734112, Limit: 1 << 20, Setting: "yoimem.lint.maxFileBytes"}
		case l.gone:
			return nil, fmt.Errorf("read %s: %w", p, record.ErrNotExist)
		}
		return read(p)
	}
	return snap, err
}

func TestToolsEdit(t *testing.T) {
	tools, store := newTools()
	const p = "knowledge/retry-policy.md"
	if _, err := tools.Edit(ctx, ".yoi/"+p, "Retry twice.", "Retry three times.", ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(store.Files[p]), "Retry three times.") {
		t.Fatal("edit not applied")
	}
	blob := record.BlobID(store.Files[p])
	if _, err := tools.Edit(ctx, p, "three", "four", blob); err != nil {
		t.Fatalf("edit expecting the blob read: %v", err)
	}
	if _, err := tools.Edit(ctx, p, "four", "five", blob); !errors.Is(err, record.ErrChanged) || !strings.Contains(err.Error(), "edit .yoi/knowledge/retry-policy.md: changed since you read it (blob "+blob+", now ") {
		t.Fatalf("edit expecting an old blob: %v", err)
	}
	for _, tt := range []struct{ old, want string }{
		{"not there", "edit .yoi/knowledge/retry-policy.md: the text to replace does not occur; read the record again"},
		{"e", "edit .yoi/knowledge/retry-policy.md: the text to replace occurs "},
		{"", "edit .yoi/knowledge/retry-policy.md: the text to replace is empty"},
	} {
		if _, err := tools.Edit(ctx, p, tt.old, "x", ""); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("edit %q: err = %v, want %q", tt.old, err, tt.want)
		}
	}
	if _, err := tools.Edit(ctx, p, "kind: rule", "kind: [rule", ""); !refusedBy(err, lint.RuleYAMLSyntax) || !strings.HasPrefix(err.Error(), "refused to edit .yoi/knowledge/retry-policy.md:") {
		t.Fatalf("err = %v, want a yaml-syntax refusal", err)
	}
	if _, err := tools.Edit(ctx, "knowledge/nope.md", "a", "b", ""); !errors.Is(err, ErrNotFound) || err.Error() != "edit .yoi/knowledge/nope.md: no such record" {
		t.Fatalf("err = %v", err)
	}
	tools.Store = &limitedStore{MapStore: store, tooBig: p}
	before := string(store.Files[p])
	var tl *record.TooLargeError
	if _, err := tools.Edit(ctx, p, "five", "six", ""); !errors.As(err, &tl) || string(store.Files[p]) != before {
		t.Fatalf("edit of a record over the limit = %v; the record must be left whole", err)
	}
}

func TestToolsDelete(t *testing.T) {
	tools, store := newTools()
	tests := []struct {
		path, expect string
		err          error
		rule         string
		msg          string
	}{
		{path: "memory/decisions/use-db.md", msg: "delete .yoi/memory/decisions/use-db.md: decisions are not deleted; set status: replaced and replaced_by"},
		{path: "memory/summary.md", msg: "delete .yoi/memory/summary.md: the summary is never deleted"},
		{path: ".yoi/memory/summary.md", msg: "delete .yoi/memory/summary.md: the summary is never deleted"},
		{path: "knowledge/locked.md", err: ErrReadOnly, msg: "delete .yoi/knowledge/locked.md: the file is read-only"},
		{path: "knowledge/nope.md", err: ErrNotFound, msg: "delete .yoi/knowledge/nope.md: no such record"},
		{path: "knowledge/retry-policy.md", expect: strings.Repeat("0", 40), err: record.ErrChanged, msg: "delete .yoi/knowledge/retry-policy.md: changed since you read it"},
		// a delete that breaks another record names the delete and the
		// record it breaks
		{path: "knowledge/retry-policy.md", rule: lint.RuleKnowledgeRef,
			msg: "refused to delete .yoi/knowledge/retry-policy.md:\n  .yoi/knowledge/uses-retry.md:10:5: error knowledge-ref: #retry-policy names no knowledge record"},
	}
	for _, tt := range tests {
		before := fmt.Sprint(store.Files)
		_, err := tools.Delete(ctx, tt.path, tt.expect)
		switch {
		case err == nil:
			t.Errorf("delete %s: done, want a refusal", tt.path)
		case tt.err != nil && !errors.Is(err, tt.err), tt.rule != "" && !refusedBy(err, tt.rule):
			t.Errorf("delete %s: err = %v, want %v %s", tt.path, err, tt.err, tt.rule)
		case !strings.HasPrefix(err.Error(), tt.msg):
			t.Errorf("delete %s: err = %q\nwant it to begin %q", tt.path, err, tt.msg)
		}
		if fmt.Sprint(store.Files) != before {
			t.Errorf("delete %s: a refused delete changed the store", tt.path)
		}
	}
	if _, err := tools.Delete(ctx, "knowledge/uses-retry.md", record.BlobID(store.Files["knowledge/uses-retry.md"])); err != nil {
		t.Fatal(err)
	}
	if _, err := tools.Delete(ctx, ".yoi/knowledge/retry-policy.md", ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := store.Files["knowledge/retry-policy.md"]; ok {
		t.Fatal("not deleted")
	}
}

// TestToolsConcurrentEdits: N editors each make M edits of one record at
// once; every edit that reports success is in the record.
func TestToolsConcurrentEdits(t *testing.T) {
	tools, _ := newTools()
	const p = "knowledge/retry-policy.md"
	if _, err := tools.Edit(ctx, p, "Retry twice.\n", "Retry twice.\nEND\n", ""); err != nil {
		t.Fatal(err)
	}
	concurrentEdits(t, tools, p, 8, 25)
}

// concurrentEdits runs n editors of m edits each on path, which holds a
// line "END", all at once, and checks that the record holds exactly the
// edits that succeeded, and that every edit succeeded.
func concurrentEdits(t *testing.T, tools *Tools, path string, n, m int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n*m)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < m; j++ {
				_, err := tools.Edit(ctx, path, "END\n", fmt.Sprintf("w%d-%d\nEND\n", i, j), "")
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("edit: %v", err)
		}
	}
	r, err := tools.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if !strings.Contains(string(r.Content), fmt.Sprintf("\nw%d-%d\n", i, j)) {
				t.Errorf("edit w%d-%d lost", i, j)
			}
		}
	}
}
