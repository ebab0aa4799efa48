package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"testing"
)

// BenchmarkIntegrateReplay500: 500 local memory commits, each adding a
// record, replayed onto a remote tip that added another.
// go test ./gitstore -run '^$' -bench IntegrateReplay500 -benchtime 3x
func BenchmarkIntegrateReplay500(b *testing.B) {
	m, dir, env := memRepo(b)
	base := runGit(b, dir, env, "rev-parse", "main")
	var in bytes.Buffer
	fmt.Fprintf(&in, "reset refs/heads/yoimem/memory\nfrom %s\n\n", base)
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&in, "commit refs/heads/yoimem/memory\ncommitter T <t@x> %d +0000\ndata <<EOF\nyoimem: c%d\nEOF\nM 100644 inline .yoi/knowledge/k%d.md\ndata <<EOF\nk%d\nEOF\n\n", 1112911993+i, i, i, i)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	ours := runGit(b, dir, env, "rev-parse", m.Ref())
	theirs := treeCommit(b, dir, env, "yoimem: theirs", []string{base}, ".yoi/knowledge/t.md", "t\n")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runGit(b, dir, env, "update-ref", m.Ref(), ours)
		b.StartTimer()
		res, err := m.Integrate(context.Background(), IntegrateRequest{Theirs: theirs, From: "origin/yoimem/memory", Who: syncWho})
		if err != nil || res.Outcome != Replayed || len(res.Replayed) != 500 {
			b.Fatalf("%s, %d replayed, %v", res.Outcome, len(res.Replayed), err)
		}
	}
}
