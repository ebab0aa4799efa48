package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// StateVersion is the version of the machine-local state format.
const StateVersion = 1

// State is what this machine remembers of one session log, under the git
// common directory (never committed): the pointer (for Claude Code and
// Codex logs, which we must not write to; a native log carries its own,
// mirrored here) and how far the log has been scanned for tokens, so that
// a check after one more turn reads only that turn.
type State struct {
	Version int      `json:"version"`
	Format  string   `json:"format"`
	Session string   `json:"session_id"`
	Log     string   `json:"log"` // the path it was read from, for people
	Pointer Position `json:"pointer"`
	Scan    Scan     `json:"scan"`
}

// Position is a place in a log: after line Index, at byte Offset.
type Position struct {
	Index  int   `json:"index"`
	Offset int64 `json:"offset"`
}

// Scan is how far the log was read for tokens.
type Scan struct {
	Position
	Tokens int64    `json:"tokens_since_pointer"`
	Calls  int      `json:"calls_since_pointer"`
	Seen   []string `json:"seen,omitempty"` // recent message ids, so a resumed scan counts no call twice
	// Guard is a digest of the bytes just before Offset: a log rewritten
	// or replaced since (the same path, other content) no longer matches,
	// and the state starts over instead of pointing into other text.
	Guard string `json:"guard,omitempty"`
	// At is when the scan last read new bytes.
	At time.Time `json:"at,omitzero"`
}

// GuardBytes is how many bytes before a position Guard covers.
const GuardBytes = 256

// GuardOf is the guard of the bytes before a position.
func GuardOf(before []byte) string {
	sum := sha256.Sum256(before)
	return hex.EncodeToString(sum[:12])
}

// Due reports whether the tokens since the pointer reach threshold.
func (s State) Due(threshold int64) bool {
	return s.Scan.Tokens >= threshold && s.Scan.Index > s.Pointer.Index
}

// MovePointer records that everything through the scan position was
// extracted: the tokens since the pointer start again from zero.
func (s *State) MovePointer() {
	s.Pointer = s.Scan.Position
	s.Scan.Tokens, s.Scan.Calls = 0, 0
}

// Marshal renders the state file.
func (s State) Marshal() []byte {
	s.Version = StateVersion
	b, _ := json.MarshalIndent(s, "", "  ") // plain values: cannot fail
	return append(b, '\n')
}

// ParseState reads a state file.
func ParseState(name string, b []byte) (State, error) {
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return State{}, fmt.Errorf("%s: %w", name, err)
	}
	if s.Version != StateVersion {
		return State{}, fmt.Errorf("%s: version %d; this git-yoimem reads version %d", name, s.Version, StateVersion)
	}
	if s.Scan.Tokens < 0 || s.Scan.Calls < 0 {
		return State{}, fmt.Errorf("%s: negative tokens_since_pointer or calls_since_pointer", name)
	}
	if !tokens.Valid(s.Scan.Tokens) {
		return State{}, fmt.Errorf("%s: tokens_since_pointer %d is over %d", name, s.Scan.Tokens, tokens.Max)
	}
	if s.Pointer.Index < 0 || s.Pointer.Offset < 0 || s.Scan.Offset < s.Pointer.Offset || s.Scan.Index < s.Pointer.Index {
		return State{}, fmt.Errorf("%s: positions out of order (pointer %+v, scan %+v)", name, s.Pointer, s.Scan.Position)
	}
	return s, nil
}

// PointerDomain is the native log's extension domain for the pointer.
const PointerDomain = "memory.extract"

// NativePointer is the payload of the extension entry extract appends to a
// native log once a range is safely staged.
type NativePointer struct {
	Through int    `json:"through"` // last entry extracted (line number)
	Offset  int64  `json:"offset"`  // byte offset just after it
	Staging string `json:"staging,omitempty"`
}

// NativePointerLine is the log line that records p.
func NativePointerLine(session string, at time.Time, p NativePointer) []byte {
	line := struct {
		Type      string        `json:"type"`
		TS        string        `json:"ts"`
		SessionID string        `json:"session_id"`
		Domain    string        `json:"domain"`
		Payload   NativePointer `json:"payload"`
	}{"extension", at.UTC().Format(time.RFC3339Nano), session, PointerDomain, p}
	b, _ := json.Marshal(line) // plain values: cannot fail
	return append(b, '\n')
}

// ParseNativePointer reads a pointer payload; ok is false for another
// domain or a payload that does not make sense.
func ParseNativePointer(domain string, payload []byte) (NativePointer, bool) {
	if domain != PointerDomain {
		return NativePointer{}, false
	}
	var p NativePointer
	if err := json.Unmarshal(payload, &p); err != nil || p.Through < 1 || p.Offset < 1 {
		return NativePointer{}, false
	}
	return p, true
}
