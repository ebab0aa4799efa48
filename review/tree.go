package review

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/record"
)

// change is one record a commit added (A), modified (M) or deleted (D).
type change struct{ status, rel string }

// changed lists the records the commit changed against its first parent
// (against nothing for a root commit); rel is .yoi/-relative.
func (s Source) changed(ctx context.Context, lc logCommit) ([]change, error) {
	args := []string{"diff-tree", "-r", "-z", "--name-status", "--no-renames"}
	if lc.parent == "" {
		args = append(args, "--root", lc.hash)
	} else {
		args = append(args, lc.parent, lc.hash)
	}
	args = append(args, "--", s.dir())
	out, err := s.Repo.Git.Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("the changes of commit %.12s: %w", lc.hash, err)
	}
	f := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	var cs []change
	for i := 0; i+1 < len(f); i += 2 {
		rel, ok := strings.CutPrefix(string(f[i+1]), s.dir()+"/")
		if !ok || record.Classify(rel).Area != record.AreaRecord {
			continue
		}
		st := string(f[i])
		if st != "A" && st != "D" {
			st = "M" // a type change reads as a modification
		}
		cs = append(cs, change{status: st, rel: rel})
	}
	return cs, nil
}

// dir is .yoi/ relative to the top level.
func (s Source) dir() string {
	if s.Prefix == "" {
		return record.Dir
	}
	return s.Prefix
}

// tooBig is a blob over MaxRead, left unread.
type tooBig struct{ size, limit int64 }

func (e *tooBig) Error() string {
	return fmt.Sprintf("is %s bytes, over the limit of %s (%s)", quote.Thousands(e.size), quote.Thousands(e.limit), config.KeyLintMaxFileBytes)
}

// blob is a record's content at a commit; a *tooBig past MaxRead.
func (s Source) blob(ctx context.Context, commit, rel string) ([]byte, error) {
	spec := commit + ":" + s.dir() + "/" + rel
	if s.MaxRead > 0 {
		out, err := s.Repo.Git.Run(ctx, "cat-file", "-s", spec)
		if err != nil {
			return nil, fmt.Errorf("the size of %s at %.12s: %w", record.DisplayPath(rel), commit, err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("the size of %s at %.12s: git said %q", record.DisplayPath(rel), commit, out)
		}
		if n > s.MaxRead {
			return nil, &tooBig{size: n, limit: s.MaxRead}
		}
	}
	b, err := s.Repo.Git.Run(ctx, "cat-file", "blob", spec)
	if err != nil {
		return nil, fmt.Errorf("read %s at %.12s: %w", record.DisplayPath(rel), commit, err)
	}
	return b, nil
}
