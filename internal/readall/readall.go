// Package readall reads a whole input, such as standard input, for a
// command: under a size limit that refuses with the input's real size
// (never a cut input), and giving up at once when the command's context
// ends (Ctrl-C), so that nothing partial is ever used.
package readall

import (
	"context"
	"fmt"
	"io"

	"github.com/yoimem/git-yoimem/record"
)

// Limit bounds an input: Bytes (0: no limit), and for the refusal, what
// the input is and the setting or flag that sets Bytes.
type Limit struct {
	Bytes   int64
	What    string // e.g. "standard input"
	Setting string // e.g. "yoimem.lint.maxFileBytes"
}

// Read returns all of r. Past lim.Bytes it reads on only to count, and
// returns a *record.TooLargeError with the real size. When ctx ends first
// it returns ctx's error at once; the read it leaves blocked (a terminal,
// an open pipe) ends with the input or the process, and its bytes are
// never returned.
func Read(ctx context.Context, r io.Reader, lim Limit) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := read(r, lim)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		return nil, fmt.Errorf("read %s: %w", lim.What, ctx.Err())
	}
}

func read(r io.Reader, lim Limit) ([]byte, error) {
	if lim.Bytes <= 0 {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", lim.What, err)
		}
		return b, nil
	}
	b, err := io.ReadAll(io.LimitReader(r, lim.Bytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", lim.What, err)
	}
	if int64(len(b)) <= lim.Bytes {
		return b, nil
	}
	rest, err := io.Copy(io.Discard, r) // the real size, in constant memory
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", lim.What, err)
	}
	return nil, &record.TooLargeError{What: lim.What, Size: int64(len(b)) + rest, Limit: lim.Bytes, Setting: lim.Setting}
}
