package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// current is a record as a write found it, under the writers' lock.
type current struct {
	path    string // relative to .yoi/
	exists  bool
	content []byte
	blob    string // "" when it does not exist
}

// change runs one write of the tools: under the store's writers' lock it
// reads the record, checks expect, computes the change, lints it against
// the snapshot as automation and writes it when no finding is an error.
// Warnings are returned.
func (t *Tools) change(ctx context.Context, op, path, expect string, compute func(current) (record.Change, error)) ([]lint.Finding, error) {
	rel, err := toolPath(op, path)
	if err != nil {
		return nil, err
	}
	if err := CheckExpect(expect); err != nil {
		return nil, opError(op, rel, err)
	}
	expect = strings.ToLower(expect)
	unlock, err := t.Store.Lock(ctx)
	if err != nil {
		return nil, opError(op, rel, err)
	}
	defer unlock()
	snap, err := t.Store.Snapshot()
	if err != nil {
		return nil, err
	}
	cur, err := readCurrent(op, snap, rel)
	if err != nil {
		return nil, err
	}
	if expect != "" && expect != cur.blob {
		return nil, &ChangedError{Op: op, Path: rel, Expected: expect, Now: cur.blob}
	}
	c, err := compute(cur)
	if err != nil {
		return nil, err
	}
	var cs record.ChangeSet
	if err := cs.Put(c); err != nil {
		return nil, opError(op, rel, err)
	}
	rep := lint.Check(snap, &cs, lint.Automation, t.Lint)
	if rep.HasErrors() {
		return rep.Findings, &Refusal{Op: op, Path: rel, Findings: errorsOnly(rep.Findings)}
	}
	if err := ctx.Err(); err != nil {
		return nil, opError(op, rel, err) // interrupted: nothing written
	}
	if c.Op == record.OpDelete {
		err = t.Store.Delete(rel, cur.blob)
	} else {
		err = t.Store.Write(rel, c.Content, cur.blob)
	}
	if errors.Is(err, record.ErrChanged) {
		return nil, opError(op, rel, fmt.Errorf("another program wrote it while this %s ran (%w); read it again", op, err))
	}
	if err != nil {
		return nil, opError(op, rel, err)
	}
	return rep.Findings, nil
}

// readCurrent finds and reads the record at rel, refusing what the tools
// never write over: a read-only file, a path that is not a regular file,
// a file over the size limit (it cannot be read whole).
func readCurrent(op string, snap record.Snapshot, rel string) (current, error) {
	cur := current{path: rel}
	e, ok := snap.Lookup(rel)
	if !ok {
		return cur, nil
	}
	if e.ReadOnly {
		return cur, opError(op, rel, ErrReadOnly)
	}
	if e.Mode != record.ModeRegular {
		return cur, opError(op, rel, errors.New("not a regular file; the tools write only record files"))
	}
	b, err := snap.Read(rel)
	if errors.Is(err, record.ErrNotExist) {
		return cur, nil // removed since it was listed
	}
	if err != nil {
		return cur, readError(op, rel, err)
	}
	cur.exists, cur.content, cur.blob = true, b, record.BlobID(b)
	return cur, nil
}

// toolPath takes a path as people and agents give it (".yoi/" or not) to
// the .yoi/-relative form; an unsafe path is a path-unsafe refusal.
func toolPath(op, path string) (string, error) {
	rel, err := record.ToolPath(path)
	if err != nil {
		return "", &Refusal{Op: op, Path: path, Findings: []lint.Finding{{Path: path, Line: 1, Col: 1, Severity: lint.Error, Rule: lint.RulePathUnsafe, Message: err.Error()}}}
	}
	return rel, nil
}

// readError is a failed read of a record: a refusal by size stands as it
// is (it names the file, its size and the limit); others name the
// operation.
func readError(op, rel string, err error) error {
	var tl *record.TooLargeError
	if errors.As(err, &tl) {
		return err
	}
	return opError(op, rel, err)
}

func errorsOnly(fs []lint.Finding) []lint.Finding {
	var out []lint.Finding
	for _, f := range fs {
		if f.Severity == lint.Error {
			out = append(out, f)
		}
	}
	return out
}
