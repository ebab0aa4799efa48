package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// TestToolErrorCodes: the memory tools' errors map onto the documented exit
// codes.
func TestToolErrorCodes(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code int
	}{
		{"interrupted", fmt.Errorf("wait for the writers' lock: %w", context.Canceled), -1},
		{"lock held", fmt.Errorf("edit .yoi/knowledge/r.md: .git/yoimem/records.lock: %w (waited 30s)", gitstore.ErrRecordsLocked), exitLocked},
		{"refusal", &memory.Refusal{Op: "write", Path: "knowledge/r.md"}, exitFindings},
		{"changed", &memory.ChangedError{Op: "edit", Path: "knowledge/r.md", Expected: "a"}, exitFindings},
		{"changed by an editor", fmt.Errorf("edit .yoi/knowledge/r.md: %w", record.ErrChanged), exitFindings},
		{"too large", &record.TooLargeError{Path: "knowledge/r.md", Size: 2, Limit: 1}, exitFindings},
		{"no such record", fmt.Errorf("read x: %w", memory.ErrNotFound), exitFindings},
		{"read-only", fmt.Errorf("edit x: %w", memory.ErrReadOnly), exitFindings},
		{"I/O", fmt.Errorf("write x: %w", &fs.PathError{Op: "rename", Path: "x", Err: errors.New("disk full")}), exitCannotRun},
	}
	for _, tt := range tests {
		got := toolError(tt.err)
		var ee *exitError
		switch {
		case tt.code == -1:
			if got != tt.err {
				t.Errorf("%s: %v, want the error as it is (run reports 130)", tt.name, got)
			}
		case !errors.As(got, &ee) || ee.code != tt.code:
			t.Errorf("%s: %v, want exit %d", tt.name, got, tt.code)
		}
	}
}
