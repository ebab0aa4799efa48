package record

import (
	"errors"
	"fmt"
	"testing"
)

func TestTooLargeError(t *testing.T) {
	tests := []struct {
		err  *TooLargeError
		want string
	}{
		{&TooLargeError{Path: "knowledge/x.md", Size: 1734112, Limit: 1048576, Setting: "yoimem.lint.maxFileBytes"},
			".yoi/knowledge/x.md is 1,734,112 bytes, over the limit of 1,048,576 (yoimem.lint.maxFileBytes)"},
		{&TooLargeError{What: "standard input", Size: 17825793, Limit: 16777216, Setting: "--max-input-bytes"},
			"standard input is 17,825,793 bytes, over the limit of 16,777,216 (--max-input-bytes)"},
		{&TooLargeError{What: "the reply", Size: 101, Limit: 100}, "the reply is 101 bytes, over the limit of 100"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q\nwant      %q", got, tt.want)
		}
		var tl *TooLargeError
		if !errors.As(fmt.Errorf("wrapped: %w", tt.err), &tl) || tl != tt.err {
			t.Errorf("errors.As does not find %v", tt.err)
		}
	}
}
