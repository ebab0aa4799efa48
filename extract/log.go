package extract

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/tokens"
	"github.com/yoimem/git-yoimem/sessionlog"
)

// SessionLog is an agent session log opened for extract. It is only ever
// read, except that a native log gets the pointer appended as one line.
type SessionLog struct {
	Path    string
	Format  sessionlog.Format // "" for an empty log: no format to tell yet
	Session string            // the session id in the log, else the file's name
}

// logError is a failed stat or open of a session log, naming it once and
// quoted as git quotes a path (the name is the caller's: it may hold a
// newline or a terminal escape).
func logError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("session log %s: %w", quote.PathValue(path, false), err)
}

// headBytes is how much of a log is read to detect its format and session.
const headBytes = 64 << 10

// OpenLog opens a session log: it detects the format (unless given:
// native, claude-code or codex) and the session id.
func OpenLog(path, format string) (*SessionLog, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, logError(path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("session log %s is not a regular file", quote.PathValue(path, false))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, logError(path, err)
	}
	defer f.Close()
	head := make([]byte, headBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read session log %s: %w", quote.PathValue(path, false), err)
	}
	head = head[:n]
	l := &SessionLog{Path: path}
	if format != "" {
		if l.Format, err = sessionlog.ParseFormat(format); err != nil {
			return nil, fmt.Errorf("--format: %w", err)
		}
	} else if len(bytes.TrimSpace(head)) == 0 {
		l.Session = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		return l, nil // empty: no format to tell yet (format "")
	} else if l.Format, err = sessionlog.Detect(head); err != nil {
		return nil, fmt.Errorf("session log %s: %w (give --format native|claude-code|codex)", quote.PathValue(path, false), err)
	}
	r := sessionlog.NewReader(bytes.NewReader(head), l.Format, sessionlog.Options{})
	for r.SessionID() == "" {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	l.Session = r.SessionID()
	if l.Session == "" {
		l.Session = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return l, nil
}

// safeName tells whether s may be used in a file name as it is: a letter
// or digit, then letters, digits, '.', '_' or '-', at most 128 in all.
func safeName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i, c := range []byte(s) {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// Key names the log's machine-local state: the agent (format), the
// session, and the file's name when it does not hold the session id. A
// Claude Code sub-agent's transcript (<session>/subagents/agent-<id>.jsonl)
// carries its parent's session id; it is another log, with its own lines
// and pointer. Parts that are not safe in a file name become a digest.
func (l *SessionLog) Key() string {
	k := string(l.Format) + "-" + safeOrDigest(l.Session)
	if base := strings.TrimSuffix(filepath.Base(l.Path), filepath.Ext(l.Path)); !strings.Contains(base, l.Session) {
		k += "-" + safeOrDigest(base)
	}
	return k
}

func safeOrDigest(s string) string {
	if safeName(s) {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + hex.EncodeToString(sum[:16])
}

// scanned is what one scan added: the ledger's reading.
type scanned struct {
	from, to int
	tokens   int64
}

// scan brings st.Scan to the end of the log's complete lines (those
// ending at or before byte until, when until > 0), counting the input
// tokens of the new part only: a check after one more turn reads that
// turn. A log that no longer matches the state (shorter, or other bytes
// before the scan position) starts the state over.
func (l *SessionLog) scan(st *State, now time.Time, until int64) (scanned, error) {
	f, err := os.Open(l.Path)
	if err != nil {
		return scanned{}, logError(l.Path, err)
	}
	defer f.Close()
	if ok, err := guardHolds(f, st.Scan.Position, st.Scan.Guard); err != nil {
		return scanned{}, err
	} else if !ok {
		*st = State{Format: string(l.Format), Session: l.Session, Log: l.Path}
	}
	if _, err := f.Seek(st.Scan.Offset, io.SeekStart); err != nil {
		return scanned{}, fmt.Errorf("read session log %s: %w", l.Path, err)
	}
	opts := sessionlog.Options{StartIndex: st.Scan.Index, StartOffset: st.Scan.Offset, Seen: st.Scan.Seen, SessionID: l.Session}
	var res scanned
	if l.Format == sessionlog.Native {
		res, err = l.scanNative(bounded(f, st.Scan.Offset, until), st, opts, until)
	} else {
		res, err = l.scanForeign(bounded(f, st.Scan.Offset, until), st, opts)
	}
	if err != nil {
		return scanned{}, err
	}
	if res.to >= res.from {
		st.Scan.At = now.UTC()
	}
	st.Scan.Guard, err = guardAt(f, st.Scan.Offset)
	return res, err
}

func (l *SessionLog) scanForeign(f io.Reader, st *State, opts sessionlog.Options) (scanned, error) {
	tc, err := sessionlog.CountTokens(f, l.Format, opts)
	if err != nil {
		return scanned{}, fmt.Errorf("read session log %s: %w", l.Path, err)
	}
	res := scanned{from: st.Scan.Index + 1, to: tc.Index, tokens: tc.InputTokens}
	st.Scan.Index, st.Scan.Offset, st.Scan.Seen = tc.Index, tc.Offset, tc.Seen
	st.Scan.Tokens = tokens.Add(st.Scan.Tokens, tc.InputTokens)
	st.Scan.Calls += tc.Calls
	return res, nil
}

// scanNative also finds pointers in the log: a native log carries its own
// (an extension entry), which wins over what this machine remembers.
func (l *SessionLog) scanNative(f io.Reader, st *State, opts sessionlog.Options, until int64) (scanned, error) {
	return l.scanNativeAfter(f, st, opts, st.Scan.Index, until)
}

// bounded reads f, positioned at offset, up to byte until (0: to the end).
func bounded(f io.Reader, offset, until int64) io.Reader {
	if until <= 0 {
		return f
	}
	return io.LimitReader(f, max(0, until-offset))
}

// scanNativeAfter scans from opts' position; the ledger reading counts only
// lines after ledgerAfter, which an earlier scan has not counted.
func (l *SessionLog) scanNativeAfter(f io.Reader, st *State, opts sessionlog.Options, ledgerAfter int, until int64) (scanned, error) {
	r := sessionlog.NewReader(f, l.Format, opts)
	res := scanned{from: ledgerAfter + 1}
	type usage struct {
		index  int
		tokens int64
	}
	var calls []usage
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return scanned{}, fmt.Errorf("read session log %s: %w", l.Path, err)
		}
		if e.Usage != nil {
			calls = append(calls, usage{e.Index, e.Usage.InputTokens})
			if e.Index > ledgerAfter {
				res.tokens = tokens.Add(res.tokens, e.Usage.InputTokens)
			}
		}
		if e.Extension != nil {
			if p, ok := ParseNativePointer(e.Extension.Domain, e.Extension.Payload); ok && p.Through > st.Pointer.Index && p.Offset <= e.Offset {
				if p.Through < st.Scan.Index {
					// The pointer is behind this scan's start: count again
					// from it (once; the log is the authority).
					st.Pointer = Position{Index: p.Through, Offset: p.Offset}
					st.Scan = Scan{Position: st.Pointer}
					return l.rescanFromPointer(st, ledgerAfter, until)
				}
				st.Pointer = Position{Index: p.Through, Offset: p.Offset}
				st.Scan.Tokens, st.Scan.Calls = 0, 0
				for _, c := range calls {
					if c.index > p.Through {
						st.Scan.Tokens = tokens.Add(st.Scan.Tokens, c.tokens)
						st.Scan.Calls++
					}
				}
				calls = calls[:0]
			}
			// The pointer line extract appended right after the pointer it
			// records is bookkeeping, not activity: the pointer steps over
			// it, so that it alone never makes a run due (each run would
			// append another) nor is extracted.
			if p, ok := ParseNativePointer(e.Extension.Domain, e.Extension.Payload); ok && p.Through == st.Pointer.Index && p.Offset == st.Pointer.Offset && e.Offset == st.Pointer.Offset {
				st.Pointer = Position{Index: e.Index, Offset: e.End}
			}
		}
	}
	for _, c := range calls {
		st.Scan.Tokens = tokens.Add(st.Scan.Tokens, c.tokens)
		st.Scan.Calls++
	}
	res.to = r.Index()
	st.Scan.Index, st.Scan.Offset, st.Scan.Seen = r.Index(), r.Offset(), r.Seen()
	return res, nil
}

// rescanFromPointer counts the tokens after a pointer found behind the
// scan position. The ledger reading counts only lines after ledgerAfter,
// where the scan that found the pointer began: the ledger has the rest.
func (l *SessionLog) rescanFromPointer(st *State, ledgerAfter int, until int64) (scanned, error) {
	f, err := os.Open(l.Path)
	if err != nil {
		return scanned{}, logError(l.Path, err)
	}
	defer f.Close()
	if _, err := f.Seek(st.Scan.Offset, io.SeekStart); err != nil {
		return scanned{}, fmt.Errorf("read session log %s: %w", l.Path, err)
	}
	opts := sessionlog.Options{StartIndex: st.Scan.Index, StartOffset: st.Scan.Offset, SessionID: l.Session}
	return l.scanNativeAfter(bounded(f, st.Scan.Offset, until), st, opts, ledgerAfter, until)
}

// guardHolds tells whether the bytes before pos still have the digest
// guard; a position at the start always holds.
func guardHolds(f *os.File, pos Position, guard string) (bool, error) {
	if pos.Offset == 0 {
		return true, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	if fi.Size() < pos.Offset {
		return false, nil
	}
	g, err := guardAt(f, pos.Offset)
	return err == nil && g == guard, err
}

// guardOf is the guard of the bytes before offset of the log.
func (l *SessionLog) guardOf(offset int64) (string, error) {
	f, err := os.Open(l.Path)
	if err != nil {
		return "", logError(l.Path, err)
	}
	defer f.Close()
	return guardAt(f, offset)
}

func guardAt(f *os.File, offset int64) (string, error) {
	start := max(0, offset-GuardBytes)
	b := make([]byte, offset-start)
	if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read session log %s: %w", f.Name(), err)
	}
	return GuardOf(b), nil
}

// readRange reads the entries between the pointer and the scan position.
func (l *SessionLog) readRange(st State) ([]sessionlog.Entry, error) {
	f, err := os.Open(l.Path)
	if err != nil {
		return nil, logError(l.Path, err)
	}
	defer f.Close()
	if _, err := f.Seek(st.Pointer.Offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read session log %s: %w", l.Path, err)
	}
	r := sessionlog.NewReader(io.LimitReader(f, st.Scan.Offset-st.Pointer.Offset), l.Format, sessionlog.Options{
		StartIndex: st.Pointer.Index, StartOffset: st.Pointer.Offset, SessionID: l.Session,
	})
	entries, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("read session log %s: %w", l.Path, err)
	}
	return entries, nil
}

// appendPointer writes the native pointer line to the log, durably. It
// appends only at a line boundary: a half-written last line (the agent
// mid-write) would be glued to ours, so the pointer then waits for the
// next run (the machine-local state has it meanwhile).
func (l *SessionLog) appendPointer(line []byte) (bool, error) {
	f, err := os.OpenFile(l.Path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return false, fmt.Errorf("append the pointer to %s: %w", l.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			return false, nil
		}
	}
	if _, err := f.Write(line); err != nil {
		return false, fmt.Errorf("append the pointer to %s: %w", l.Path, err)
	}
	if err := f.Sync(); err != nil {
		return false, fmt.Errorf("append the pointer to %s: %w", l.Path, err)
	}
	return true, nil
}
