package lint

import (
	"slices"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestFileSizeRealSize: file-size names the file's real size, whether the
// listing knows it or only the read does (a staged blob's size is not in
// the index listing; the read refuses it with its size).
func TestFileSizeRealSize(t *testing.T) {
	const p = "memory/requests/big.md"
	tests := []struct {
		name      string
		size      int64 // listed size (-1: unknown)
		read      func(string) ([]byte, error)
		wantSize  string
		wantLimit string
	}{
		{"listed", 1734112, func(string) ([]byte, error) { t.Fatal("read a file listed over the limit"); return nil, nil }, "1,734,112", "1,048,576"},
		{"refused by the read", -1, func(string) ([]byte, error) {
			return nil, &record.TooLargeError{Path: p, Size: 1734112, Limit: 1 << 20, Setting: "yoimem.lint.maxFileBytes"}
		}, "1,734,112", "1,048,576"},
		{"read whole by an unlimited snapshot", -1, func(string) ([]byte, error) { return make([]byte, 1<<20+7), nil }, "1,048,583", "1,048,576"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := record.Snapshot{Entries: []record.Entry{{Path: p, Mode: record.ModeRegular, Size: tt.size}}, Read: tt.read}
			rep := Tree(snap, DefaultOptions(), nil)
			rep.Findings = slices.DeleteFunc(rep.Findings, func(f Finding) bool { return f.Rule == RuleSummaryMissing })
			check(t, rep.Findings, p+":"+RuleFileSize)
			want := tt.wantSize + " bytes, over the limit of " + tt.wantLimit + " (yoimem.lint.maxFileBytes); not parsed"
			if got := rep.Findings[0].Message; got != want {
				t.Errorf("message %q\nwant    %q", got, want)
			}
		})
	}
}
