package metrics

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"github.com/yoimem/git-yoimem/internal/tokens"
)

// Local is the machine-local side of metrics under the git common
// directory: one append-only journal of events per session (so that
// sessions never write the same file), the token ledger, and moved.json,
// how far consolidation runs moved each of them into .yoi/metrics/ (see
// Pending). Nothing here is committed, and nothing is removed.
type Local struct {
	Dir string // <git-common-dir>/yoimem
	// Shared is the repository's core.sharedRepository, read when a
	// file or directory is created (nil: the umask's bits).
	Shared sharedperm.Source
}

func (l Local) eventsDir() string  { return filepath.Join(l.Dir, "events") }
func (l Local) ledgerPath() string { return filepath.Join(l.Dir, "ledger.jsonl") }

// Append records events in the session's journal.
func (l Local) Append(session string, events ...Event) error {
	if err := CheckSession(session); err != nil {
		return fmt.Errorf("session %s: %w", quote.Value(session), err)
	}
	path := filepath.Join(l.eventsDir(), session+".jsonl")
	f, err := sharedperm.OpenAppend(path, 0o644, l.Shared)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if err := writeEvents(f, events); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return f.Close()
}

// writeEvents writes events as WriteEvent's JSON lines in one write: one
// system call however many (SessionStart records hundreds), and in an
// O_APPEND file no other writer's line comes between them.
func writeEvents(w io.Writer, events []Event) error {
	if len(events) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, e := range events {
		if err := WriteEvent(&buf, e); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Tick appends a token-clock reading to the ledger.
func (l Local) Tick(t Tick) error {
	f, err := sharedperm.OpenAppend(l.ledgerPath(), 0o644, l.Shared)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(t)
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Events reads every session journal, moved or not.
func (l Local) Events() ([]Event, error) {
	return readJournals(l.eventsDir())
}

// maxLedgerLine bounds one line of the ledger (a reading is about 150
// bytes): a longer one is damage, reported, not read into memory whole.
const maxLedgerLine = 64 << 10

// Clock is the token clock of the ledger alone.
func (l Local) Clock() (*Clock, error) {
	ticks, err := l.Ticks()
	if err != nil {
		return nil, err
	}
	return NewClock(ticks), nil
}

// Ticks reads the ledger, moved or not, a line at a time. A torn last
// line (a crash mid-append) is skipped; any other bad line, or a count out
// of range, is an error naming it.
func (l Local) Ticks() ([]Tick, error) {
	f, err := os.Open(l.ledgerPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ticks []Tick
	var pending error // a bad line is an error unless it is the last
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), maxLedgerLine)
	n := 0
	for sc.Scan() {
		n++
		if pending != nil {
			return nil, pending
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var t Tick
		if err := json.Unmarshal(line, &t); err != nil {
			pending = damaged(Ledger, l.ledgerPath(), n, "%w", err)
			continue
		}
		if !tokens.Valid(t.Tokens) {
			return nil, damaged(Ledger, l.ledgerPath(), n, "tokens %d out of range (0 to %d)", t.Tokens, tokens.Max)
		}
		ticks = append(ticks, t)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, damaged(Ledger, l.ledgerPath(), n+1, "a line of more than %d bytes", maxLedgerLine)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", l.ledgerPath(), err)
	}
	return ticks, nil
}

// Read is everything this clone recorded: every journal and the ledger,
// moved or not. Stats reads it with the committed run files (Data.Add):
// an event or reading in both counts once.
func (l Local) Read() (Data, error) {
	events, err := l.Events()
	if err != nil {
		return Data{}, err
	}
	ticks, err := l.Ticks()
	if err != nil {
		return Data{}, err
	}
	return Data{Events: events, Ticks: ticks}, nil
}

func readJournals(dir string) ([]Event, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, de := range entries {
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".jsonl") {
			continue
		}
		p := filepath.Join(dir, de.Name())
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		evs, err := ReadEvents(f, p)
		f.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	return out, nil
}

// Stat is the usage of a record that has events. Record is
// .yoi/-relative, as events name it; commands print it from the workspace
// root.
type Stat struct {
	Record string
	Judgement
	InjectTokens int64
}

// Stats computes every used record's frequency and protection. Events
// with the same ID (a journal already moved into a committed file) count
// once.
func Stats(events []Event, clock *Clock, window int, protect float64) []Stat {
	return NewJudge(events, clock, Params{Window: window, Protect: protect}).Stats()
}
