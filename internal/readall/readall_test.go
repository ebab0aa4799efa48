package readall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

func TestRead(t *testing.T) {
	big := strings.Repeat("0123456789", 2_000_000) // 20 MB: past any fixed buffer
	tests := []struct {
		name     string
		in       string
		limit    int64
		tooLarge bool
	}{
		{"empty", "", 10, false},
		{"no limit", big, 0, false},
		{"at the limit", "0123456789", 10, false},
		{"one over", "0123456789!", 10, true},
		{"far over", big, 1000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(context.Background(), strings.NewReader(tt.in), Limit{Bytes: tt.limit, What: "standard input", Setting: "yoimem.lint.maxFileBytes"})
			if tt.tooLarge {
				var tl *record.TooLargeError
				if !errors.As(err, &tl) || got != nil {
					t.Fatalf("Read = %d bytes, %v; want a refusal", len(got), err)
				}
				if tl.Size != int64(len(tt.in)) || tl.Limit != tt.limit || tl.What != "standard input" || tl.Setting != "yoimem.lint.maxFileBytes" {
					t.Errorf("refusal %+v: want the real size %d", *tl, len(tt.in))
				}
				return
			}
			if err != nil || string(got) != tt.in {
				t.Fatalf("Read = %d bytes, %v; want all %d", len(got), err, len(tt.in))
			}
		})
	}
}

// blocked is an input that never ends, as a terminal or an open pipe.
type blocked struct{ release chan struct{} }

func (b blocked) Read([]byte) (int, error) {
	<-b.release
	return 0, io.EOF
}

func TestReadInterrupted(t *testing.T) {
	in := blocked{make(chan struct{})}
	defer close(in.release)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		got, err := Read(ctx, io.MultiReader(strings.NewReader("partial text"), in), Limit{})
		if got != nil {
			err = errors.New("returned the partial input")
		}
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Read after cancel = %v, want context.Canceled", err)
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Read(context.Background(), io.MultiReader(bytes.NewReader([]byte("x")), errReader{boom}), Limit{What: "standard input"})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "read standard input") {
		t.Fatalf("Read = %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
