package main

import (
	"context"
	"fmt"
	"github.com/yoimem/git-yoimem/memlog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/record"
)

// memCommit times MemoryBranch.Commit of FILES changed records against
// git's plumbing path building the same kind of commit on another ref.
func memCommit(repo string, runs, files int) error {
	ctx := context.Background()
	recs, err := records(repo, files)
	if err != nil {
		return err
	}
	r, err := gitstore.Locate(ctx, gitstore.Git{Dir: repo})
	if err != nil {
		return err
	}
	objs, err := gitstore.OpenObjects(r)
	if err != nil {
		return err
	}
	base, err := gitstore.ResolveBase(ctx, r, "")
	if err != nil {
		return err
	}
	mb := &gitstore.MemoryBranch{Repo: r, Objects: objs, Branch: "yoimem/bench-memory", Base: base, Prefix: ".yoi"}
	tmp, err := os.MkdirTemp("", "gitbench-plumbing-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	nonce := time.Now().UnixNano()
	var ours, plumbing []time.Duration
	for i := -2; i < runs; i++ {
		// Each side writes blobs of its own, new to the repository: a
		// side that found its blobs written (by the other side, or by an
		// earlier gitbench) would skip the writes.
		var contents [2][][]byte
		for _, p := range recs {
			b, err := os.ReadFile(filepath.Join(repo, ".yoi", p))
			if err != nil {
				return err
			}
			for side := range contents {
				contents[side] = append(contents[side], fmt.Appendf(slices.Clip(b), "\nRound %d of %d, side %d.\n", i, nonce, side))
			}
		}
		d, err := oursOnce(ctx, mb, recs, contents[0], i)
		if err != nil {
			return err
		}
		dp, err := plumbingOnce(repo, tmp, base, recs, contents[1], i)
		if err != nil {
			return err
		}
		if i >= 0 {
			ours, plumbing = append(ours, d), append(plumbing, dp)
		}
	}
	mo, mp := median(ours), median(plumbing)
	fmt.Printf("memory-branch commit of %d records (git-yoimem): median %s\n", files, ms(mo))
	fmt.Printf("same commit through git plumbing with a temporary index: median %s\n", ms(mp))
	fmt.Printf("ratio git-yoimem / plumbing: %.2f (goal <= 0.25)\n", float64(mo)/float64(mp))
	return nil
}

func oursOnce(ctx context.Context, mb *gitstore.MemoryBranch, recs []string, contents [][]byte, i int) (time.Duration, error) {
	var cs record.ChangeSet
	for j, p := range recs {
		if err := cs.Put(record.Change{Path: p, Content: contents[j]}); err != nil {
			return 0, err
		}
	}
	msg := (&memlog.Message{RunID: fmt.Sprintf("bench-%d", i), Engine: "rules", Ops: []memlog.Op{{Kind: memlog.OpUpdate, Path: recs[0], Reason: "bench"}}})
	text, err := msg.Format()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	_, err = mb.Commit(ctx, gitstore.CommitRequest{Changes: &cs, Message: text, Author: gitstore.Signature{Name: "bench", Email: "bench@localhost", When: time.Now()}})
	return time.Since(start), err
}

// plumbingOnce builds a commit on refs/heads/yoimem/bench-plumbing the way
// a script would with git alone; the files to hash are written untimed.
func plumbingOnce(repo, tmp, base string, recs []string, contents [][]byte, i int) (time.Duration, error) {
	var paths []string
	for j := range recs {
		p := filepath.Join(tmp, fmt.Sprintf("f%d", j))
		if err := os.WriteFile(p, contents[j], 0o644); err != nil {
			return 0, err
		}
		paths = append(paths, p)
	}
	ref := "refs/heads/yoimem/bench-plumbing"
	parent, err := git(repo, nil, nil, "rev-parse", "--verify", "-q", ref)
	if err != nil {
		parent = ""
	}
	index := filepath.Join(tmp, "index")
	os.Remove(index)
	env := []string{"GIT_INDEX_FILE=" + index}
	start := time.Now()
	from := parent
	if from == "" {
		from = base
	}
	if _, err := git(repo, env, nil, "read-tree", from); err != nil {
		return 0, err
	}
	hashes, err := git(repo, nil, []byte(strings.Join(paths, "\n")+"\n"), "hash-object", "-w", "--stdin-paths")
	if err != nil {
		return 0, err
	}
	var info strings.Builder
	for j, h := range strings.Fields(hashes) {
		fmt.Fprintf(&info, "100644 %s\t.yoi/%s\n", h, recs[j])
	}
	if _, err := git(repo, env, []byte(info.String()), "update-index", "--index-info"); err != nil {
		return 0, err
	}
	tree, err := git(repo, env, nil, "write-tree")
	if err != nil {
		return 0, err
	}
	commit, err := git(repo, nil, nil, "commit-tree", tree, "-p", from, "-m", fmt.Sprintf("bench %d", i))
	if err != nil {
		return 0, err
	}
	old := parent
	if old == "" {
		old = strings.Repeat("0", 40)
	}
	if _, err := git(repo, nil, nil, "update-ref", "-m", "bench", ref, commit, old); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}
