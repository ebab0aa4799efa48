package sessionlog

import (
	"errors"
	"io"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// TokenCount is what CountTokens found.
type TokenCount struct {
	InputTokens int64    // deduplicated input tokens of the calls counted, at most tokens.Max
	Calls       int      // API calls counted
	Index       int      // line number of the last complete line scanned (Options.StartIndex of a later scan)
	Offset      int64    // byte offset just after it (Options.StartOffset)
	Seen        []string // recent message ids (Options.Seen)
}

// CountTokens sums the deduplicated input tokens of the complete lines of
// r, as the Reader's entries' Usage would, at a fraction of the cost: lines
// that cannot carry usage are not decoded. Its time is proportional to the
// bytes read. The extract trigger calls it on what was appended since the
// last check.
func CountTokens(r io.Reader, f Format, opts Options) (TokenCount, error) {
	p, err := newParser(f)
	if err != nil {
		return TokenCount{}, err
	}
	lines := newLineReader(r, opts)
	st := state{seen: newSeenSet(opts.Seen)}
	var tc TokenCount
	for {
		l, err := lines.next()
		if err != nil {
			tc.Index, tc.Offset, tc.Seen = lines.index, lines.offset, st.seen.list()
			if errors.Is(err, io.EOF) {
				return tc, nil
			}
			return tc, err
		}
		if l.tooLong || !p.mayCarryUsage(l.text) {
			continue
		}
		if u := p.usage(l.text, &st); u != nil {
			tc.InputTokens = tokens.Add(tc.InputTokens, u.InputTokens)
			tc.Calls++
		}
	}
}
