package rules

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/record"
)

// TestIndexKeepsNoRecordBytes: the index of a memory keeps what it
// matches topics by, not the records' bytes: a run over 10,000 records
// read from git would otherwise hold all of them at once.
func TestIndexKeepsNoRecordBytes(t *testing.T) {
	files, _ := benchCorpus(300)
	idx, err := loadIndex(context.Background(), record.MapSnapshot(files), 0)
	if err != nil {
		t.Fatal(err)
	}
	for p, k := range idx.byPath {
		if k.content != nil {
			t.Fatalf("the index keeps the %d bytes of %s", len(k.content), p)
		}
	}
}

// TestRunRecordUnreadable: a record that the index read but that cannot
// be read again when its draft is made fails the run with an error naming
// it; nothing is changed.
func TestRunRecordUnreadable(t *testing.T) {
	sc := scenario{base: map[string]string{"memory/summary.md": summary, "memory/decisions/log-format.md": decisionFile("resolved", "# Log format\n\nText.\n", "s0")}}
	in := sc.input(sc.base, []extract.Staging{stage("e1", "s1", 1, decided("Log format", "JSON", "why"))}, now)
	base, reads := in.Base, 0
	in.Base.Read = func(p string) ([]byte, error) {
		if p == "memory/decisions/log-format.md" {
			if reads++; reads > 1 {
				return nil, errors.New("disk on fire")
			}
		}
		return base.Read(p)
	}
	s, err := consolidate.NewSession(in)
	if err != nil {
		t.Fatal(err)
	}
	err = (Engine{}).Run(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "read .yoi/memory/decisions/log-format.md: disk on fire") {
		t.Fatalf("Run = %v, want an error naming the record", err)
	}
	if len(s.Ops()) != 0 {
		t.Errorf("the run changed memory: %v", s.Ops())
	}
}
