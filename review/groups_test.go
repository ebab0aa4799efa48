package review

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/memlog"
)

// TestGroups: categories in the canonical order, an operation under each
// of its categories, then the rest by kind; a category the format does
// not know (a hand-written message) is a group of its own, never lost.
func TestGroups(t *testing.T) {
	ops := []memlog.Op{
		{Kind: memlog.OpAdd, Path: "knowledge/a.md", Reason: "new"},
		{Kind: memlog.OpDrop, Path: "knowledge/b.md", Categories: []memlog.Category{"unused", "outdated"}, Reason: "old"},
		{Kind: memlog.OpTrim, Path: "knowledge/c.md", Categories: []memlog.Category{"bogus"}, Reason: "typo"},
		{Kind: memlog.OpUpdate, Path: "memory/summary.md", Reason: "recent"},
		{Kind: memlog.OpAdd, Path: "knowledge/d.md", Categories: []memlog.Category{"noisy"}, Reason: "cleaned"},
	}
	var got []string
	for _, g := range groups(ops) {
		var paths []string
		for _, op := range g.Ops {
			paths = append(paths, op.Path)
		}
		got = append(got, g.Name+"="+strings.Join(paths, ","))
	}
	want := "outdated=.yoi/knowledge/b.md unused=.yoi/knowledge/b.md noisy=.yoi/knowledge/d.md bogus=.yoi/knowledge/c.md add=.yoi/knowledge/a.md update=.yoi/memory/summary.md"
	if strings.Join(got, " ") != want {
		t.Errorf("groups\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if g := groups(nil); g == nil || len(g) != 0 {
		t.Errorf("no ops: %#v", g)
	}
}
