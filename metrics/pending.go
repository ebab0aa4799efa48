package metrics

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/internal/smallfile"
)

// Pending is what the next consolidation run moves into its memory
// commit (.yoi/metrics/<run-id>.jsonl, see EncodeRun): the events and
// ledger readings of this clone that no run has marked moved, and where
// reading each file stopped.
type Pending struct {
	Data
	marks map[string]mark // by file, relative to Local.Dir, slash-separated
}

// mark is how far a run moved one journal or the ledger. Journals are
// append-only and never rewritten, so a byte offset is a position; the
// hash of the first line tells the same file from one begun again after
// it was removed, which is then pending from its start.
type mark struct {
	Offset int64  `json:"offset"`
	Lines  int    `json:"lines"`
	Head   string `json:"head"`
	Run    string `json:"run,omitempty"`
}

// movedState is the file moved.json: the marks of the runs so far.
type movedState struct {
	Version int             `json:"version"`
	Files   map[string]mark `json:"files"`
}

const (
	movedVersion = 1
	movedName    = "moved.json"
	ledgerName   = "ledger.jsonl"
	eventsName   = "events"
)

func (l Local) movedPath() string { return filepath.Join(l.Dir, movedName) }

// Pending reads what no run has moved yet: the complete lines after each
// file's mark. A line still being appended (no newline yet) is left for
// later, and so is a bad last line (a torn append); a bad line before the
// last is an error naming the file and line. Callers hold the
// consolidation lock, so no other run marks in between.
func (l Local) Pending() (Pending, error) {
	moved, err := l.readMoved()
	if err != nil {
		return Pending{}, err
	}
	p := Pending{marks: map[string]mark{}}
	files, err := l.journalNames()
	if err != nil {
		return Pending{}, err
	}
	for _, name := range append(files, ledgerName) {
		parse, limit := p.addEvent, maxRunLine
		if name == ledgerName {
			parse, limit = p.addTick, maxLedgerLine
		}
		m, err := readFrom(filepath.Join(l.Dir, filepath.FromSlash(name)), moved.Files[name], limit, parse)
		if err != nil {
			return Pending{}, err
		}
		if m.Offset > 0 {
			p.marks[name] = m
		}
	}
	return p, nil
}

func (p *Pending) addEvent(line []byte) error {
	var e Event
	if err := json.Unmarshal(line, &e); err != nil {
		return err
	}
	if e.Record == "" {
		return errors.New("an event names no record") // as ReadRun would say of the run file
	}
	p.Events = append(p.Events, e)
	return nil
}

func (p *Pending) addTick(line []byte) error {
	t, err := parseTick(line)
	if err != nil {
		return err
	}
	p.Ticks = append(p.Ticks, t)
	return nil
}

// MarkMoved records that run's memory commit holds p: the next Pending
// starts after it. Call it once the commit is on the memory branch; if a
// run dies in between, the next run moves the same lines again, which
// still count once (event ids, ledger ranges).
func (l Local) MarkMoved(runID string, p Pending) error {
	if !fileNameOK(runID) {
		return fmt.Errorf("run id %q: %w", runID, ErrBadRunID)
	}
	moved, err := l.readMoved()
	if err != nil {
		return err
	}
	for name := range moved.Files {
		if _, err := os.Stat(filepath.Join(l.Dir, filepath.FromSlash(name))); errors.Is(err, fs.ErrNotExist) {
			delete(moved.Files, name) // a removed file: nothing of it to skip
		}
	}
	for name, m := range p.marks {
		m.Run = runID
		moved.Files[name] = m
	}
	b, err := json.MarshalIndent(moved, "", "  ")
	if err != nil {
		return err
	}
	perm, err := l.Shared.Get()
	if err != nil {
		return err
	}
	if err := perm.Dirs(l.Dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", l.Dir, err)
	}
	return perm.WriteFile(l.movedPath(), append(b, '\n'), 0o644, true)
}

// readMoved reads moved.json; none means nothing was moved yet.
func (l Local) readMoved() (movedState, error) {
	st := movedState{Version: movedVersion, Files: map[string]mark{}}
	b, err := smallfile.Read(l.movedPath(), maxMovedBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil || st.Version != movedVersion {
		if err == nil {
			err = fmt.Errorf("version %d, want %d", st.Version, movedVersion)
		}
		return st, fmt.Errorf("%s: %w (removing it makes the next consolidation move every event again; each still counts once)", l.movedPath(), err)
	}
	if st.Files == nil {
		st.Files = map[string]mark{}
	}
	return st, nil
}

// journalNames lists the session journals, as "events/<session>.jsonl".
func (l Local) journalNames() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(l.Dir, eventsName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range entries {
		if de.Type().IsRegular() && strings.HasSuffix(de.Name(), ".jsonl") {
			out = append(out, eventsName+"/"+de.Name())
		}
	}
	return out, nil
}

// readFrom calls parse for every complete, non-blank line of the file at
// path after m (from the start when the file is not the one m was taken
// of) and returns the mark after the last line read. A missing file has
// nothing.
func readFrom(path string, m mark, limit int, parse func([]byte) error) (mark, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return mark{}, nil
	}
	if err != nil {
		return mark{}, err
	}
	defer f.Close()
	head, err := headHash(f, limit)
	if err != nil || head == "" {
		return mark{}, err // no complete line yet
	}
	fi, err := f.Stat()
	if err != nil {
		return mark{}, err
	}
	if m.Head != head || m.Offset > fi.Size() {
		m = mark{Head: head}
	}
	if _, err := f.Seek(m.Offset, io.SeekStart); err != nil {
		return mark{}, fmt.Errorf("read %s: %w", path, err)
	}
	m.Run = ""
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := readLine(br, limit)
		switch {
		case errors.Is(err, errLineTooLong):
			return mark{}, fmt.Errorf("%s:%d: a line of more than %d bytes", path, m.Lines+1, limit)
		case err != nil:
			return m, nil // end of the file, or a line not yet complete
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if perr := parse(t); perr != nil {
				if _, end := br.Peek(1); end != nil {
					return m, nil // the last line: maybe a torn append; left pending
				}
				return mark{}, fmt.Errorf("%s:%d: %w", path, m.Lines+1, perr)
			}
		}
		m.Offset += int64(len(line))
		m.Lines++
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line with its newline; io.EOF (or
// io.ErrUnexpectedEOF for a line without one) at the end.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit+1 {
			return nil, errLineTooLong
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// headHash is the hash of the file's first complete line, or "" when it
// has none yet. It leaves the file's offset anywhere.
func headHash(f *os.File, limit int) (string, error) {
	br := bufio.NewReaderSize(f, 4096)
	line, err := readLine(br, limit)
	switch {
	case errors.Is(err, errLineTooLong):
		return "", fmt.Errorf("%s:1: a line of more than %d bytes", f.Name(), limit)
	case err != nil:
		return "", nil
	}
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:16]), nil
}

// Mark is what p covers, as JSON: where reading each journal and the
// ledger stopped. The consolidation lock keeps it, so that a run
// finishing a crashed one marks the same lines moved (MarkMovedAt) in
// another process. Nothing pending is "{}".
func (p Pending) Mark() (json.RawMessage, error) {
	marks := p.marks
	if marks == nil {
		marks = map[string]mark{}
	}
	return json.Marshal(marks)
}

// MarkMovedAt is MarkMoved for a mark as Mark gave it. A mark that does
// not read as one (a damaged lock) is an error, and nothing is marked.
func (l Local) MarkMovedAt(runID string, m json.RawMessage) error {
	var marks map[string]mark
	if err := json.Unmarshal(m, &marks); err != nil {
		return fmt.Errorf("the usage mark of run %s: %w", runID, err)
	}
	for name, mk := range marks {
		if !markedFile(name) || mk.Offset < 0 || mk.Lines < 0 {
			return fmt.Errorf("the usage mark of run %s: %q at offset %d is no journal or ledger position", runID, name, mk.Offset)
		}
	}
	return l.MarkMoved(runID, Pending{marks: marks})
}

// markedFile: a name Pending marks, a journal ("events/<session>.jsonl")
// or the ledger.
func markedFile(name string) bool {
	if name == ledgerName {
		return true
	}
	base, ok := strings.CutPrefix(name, eventsName+"/")
	return ok && strings.HasSuffix(base, ".jsonl") && !strings.HasPrefix(base, ".") && !strings.ContainsAny(base, `/\`)
}

// maxMovedBytes bounds moved.json (a mark per journal file).
const maxMovedBytes = 64 << 20
