package sessionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Options say where in a file a read starts, for resuming mid-file.
type Options struct {
	// StartIndex is the line number of the line before r's first byte
	// (0 at the start of the file): a previous Reader.Index.
	StartIndex int
	// StartOffset is the byte offset of r's first byte in the file: a
	// previous Reader.Offset.
	StartOffset int64
	// Seen are the message ids a previous read counted (Reader.Seen), so
	// that a resumed read counts no call twice.
	Seen []string
	// SessionID is the session's id for lines that do not carry one (a
	// Codex rollout names it on its first line only).
	SessionID string
	// MaxLineBytes: a longer line is read to its end without being kept
	// and reported as KindOther. 0 means DefaultMaxLineBytes.
	MaxLineBytes int
}

// parser reads the lines of one format.
type parser interface {
	// entry fills in e (whose position and KindOther are set) from a
	// non-blank line.
	entry(text []byte, st *state, e *Entry)
	// usage is the line's usage, deduplicated through st, or nil. It gives
	// what entry puts in Entry.Usage, at less cost.
	usage(text []byte, st *state) *Usage
	// mayCarryUsage is false only for lines that cannot carry usage.
	mayCarryUsage(text []byte) bool
}

// state is what a read carries from one line to the next.
type state struct {
	seen      *seenSet
	sessionID string
}

func newParser(f Format) (parser, error) {
	switch f {
	case Native:
		return nativeParser{}, nil
	case ClaudeCode:
		return claudeParser{}, nil
	case Codex:
		return codexParser{}, nil
	}
	_, err := ParseFormat(string(f))
	return nil, err
}

// Reader reads the entries of a session log.
type Reader struct {
	lines *lineReader
	p     parser
	st    state
	err   error
}

// NewReader reads r, a log in format f, from the position opts gives.
func NewReader(r io.Reader, f Format, opts Options) *Reader {
	p, err := newParser(f)
	return &Reader{
		lines: newLineReader(r, opts),
		p:     p,
		st:    state{seen: newSeenSet(opts.Seen), sessionID: opts.SessionID},
		err:   err,
	}
}

// Next returns the next entry, or io.EOF after the last complete line.
// Blank lines count as lines but yield no entry; every other complete line
// yields one, KindOther if it is not understood. A final line without its
// '\n' is not read: Offset and Index stay before it, and if the stream
// grows, a later Next reads it once it is complete. Only a read error from
// r stops a Reader.
func (r *Reader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	for {
		l, err := r.lines.next()
		if err != nil {
			return Entry{}, err
		}
		e := Entry{Index: l.index, Offset: l.start, End: l.end, Kind: KindOther}
		switch {
		case l.tooLong:
			e.Problem = fmt.Sprintf("line longer than %d bytes", r.lines.max)
		case blank(l.text):
			continue
		default:
			r.p.entry(l.text, &r.st, &e)
		}
		if e.SessionID == "" {
			e.SessionID = r.st.sessionID
		}
		r.st.sessionID = e.SessionID
		return e, nil
	}
}

// Offset is the byte offset just after the last complete line read: where
// a later read resumes (Options.StartOffset).
func (r *Reader) Offset() int64 { return r.lines.offset }

// Index is the line number of the last complete line read
// (Options.StartIndex of a later read).
func (r *Reader) Index() int { return r.lines.index }

// Seen returns the most recent message ids counted, at most SeenWindow of
// them, oldest first (Options.Seen of a later read).
func (r *Reader) Seen() []string { return r.st.seen.list() }

// SessionID is the session id of the last entry read, or Options.SessionID.
func (r *Reader) SessionID() string { return r.st.sessionID }

// ReadAll reads entries until io.EOF.
func (r *Reader) ReadAll() ([]Entry, error) {
	var out []Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
}

// problem is the Entry.Problem of a line the walker rejected.
func problem(text []byte) string {
	if i := skipSpace(text, 0); i < len(text) && text[i] != '{' && json.Valid(text) {
		return "not a JSON object"
	}
	return "not JSON"
}

// parseTime reads an RFC 3339 time value; anything else is the zero time.
func parseTime(v []byte) time.Time {
	in := rawInner(v)
	if len(in) == 0 || bytes.IndexByte(in, '\\') >= 0 {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, string(in))
	if err != nil {
		return time.Time{}
	}
	return t
}

// typeName joins a type and a subtype for Entry.Type.
func typeName(typ, sub []byte) string {
	t := stringValue(typ)
	if s := stringValue(sub); s != "" {
		return t + ":" + s
	}
	return t
}
