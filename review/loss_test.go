package review

import (
	"strings"
	"testing"
)

func decision(sources, body string) []byte {
	return []byte("---\ncreated_at: 2025-12-01T10:00:00Z\nupdated_at: 2025-12-03T16:20:00Z\nstatus: resolved\nsources:\n" + sources + "---\n" + body)
}

func TestCompare(t *testing.T) {
	s0 := "  - {session_id: s0, range: [1, 2]}\n"
	s1 := "  - {session_id: s1, range: [3, 4]}\n"
	cases := []struct {
		name          string
		before, after []byte
		removed       bool
		wantLoss      bool
		wantLines     int
		wantSources   string
		wantWhy       string
	}{
		{name: "unchanged", before: decision(s0, "a\nb\nc\n"), after: decision(s0, "a\nb\nc\n")},
		{name: "a third gone is not flagged", before: decision(s0, "a\nb\nc\n"), after: decision(s0, "a\nb\n")},
		{name: "more than a third gone", before: decision(s0, "a\nb\nc\n"), after: decision(s0, "a\n"), wantLoss: true, wantLines: 2},
		{name: "blank lines and indentation do not count", before: decision(s0, "a\n\n  b\n"), after: decision(s0, "a\nb\n\n")},
		{name: "a repeated line kept once lost one", before: decision(s0, "x\nx\n"), after: decision(s0, "x\n"), wantLoss: true, wantLines: 1},
		{name: "a source gone", before: decision(s0+s1, "a\n"), after: decision(s1, "a\n"), wantLoss: true, wantSources: "s0:1-2"},
		{name: "removed", before: decision(s0, "a\nb\n"), removed: true, wantLoss: true, wantLines: 2, wantSources: "s0:1-2"},
		{name: "before does not parse", before: []byte("---\n: [\n---\n"), after: decision(s0, "a\n"), wantWhy: "before the commit does not parse"},
		{name: "after does not parse", before: decision(s0, "a\n"), after: []byte("---\n: [\n---\n"), wantWhy: "after the commit does not parse"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, why := compare("memory/decisions/x.md", tc.before, tc.after, tc.removed)
			if tc.wantWhy != "" || why != "" {
				if tc.wantWhy == "" || !strings.Contains(why, tc.wantWhy) || !strings.Contains(why, ".yoi/memory/decisions/x.md") || l != nil {
					t.Fatalf("why %q, loss %+v; want %q naming the record", why, l, tc.wantWhy)
				}
				return
			}
			if (l != nil) != tc.wantLoss {
				t.Fatalf("loss %+v; want a loss: %v", l, tc.wantLoss)
			}
			if l == nil {
				return
			}
			if l.RemovedLine != tc.wantLines || strings.Join(l.LostSources, ",") != tc.wantSources || l.Removed != tc.removed {
				t.Errorf("loss %+v; want %d lines gone, sources %q", l, tc.wantLines, tc.wantSources)
			}
		})
	}
}
