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
	"sort"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/tokens"
	"github.com/yoimem/git-yoimem/record"
)

// Data is usage as read from its sources: events and token-clock
// readings.
type Data struct {
	Events []Event
	Ticks  []Tick
}

// Add returns d with o's events and readings after its own. Duplicates
// stay: a Judge counts an event ID once, and NewClock a session's range
// once, so data read both pending and committed counts once.
func (d Data) Add(o Data) Data {
	return Data{
		Events: append(append([]Event(nil), d.Events...), o.Events...),
		Ticks:  append(append([]Tick(nil), d.Ticks...), o.Ticks...),
	}
}

// Run files: .yoi/metrics/<run-id>.jsonl, one per consolidation run,
// written whole by the run's memory commit and never changed. Each line
// is one JSON object whose "type" says what it is: "tick" (a Tick) or
// "event" (an Event). A line of another type (a later version's) is
// skipped; a line without a type is an event.
const (
	lineTick  = "tick"
	lineEvent = "event"
)

// maxRunLine bounds one line of a run file, as of a journal.
const maxRunLine = 1 << 20

// ErrBadRunID is the reason RunPath refuses a run id.
var ErrBadRunID = errors.New("a run id is 1 to 128 letters, digits, '.', '_' or '-', beginning with a letter or digit")

// RunPath is the .yoi/-relative path of a run's metrics file. The run id
// names the file, so it follows the rule of session ids.
func RunPath(runID string) (string, error) {
	if !fileNameOK(runID) {
		return "", fmt.Errorf("run id %s: %w", quote.Value(runID), ErrBadRunID)
	}
	return record.MetricsDir + "/" + runID + ".jsonl", nil
}

// EncodeRun is the content of a run file holding d: the readings by time
// (then session and range), then the events by time (then id), so that
// the same data always gives the same bytes. No data gives no bytes.
func EncodeRun(d Data) []byte {
	ticks := append([]Tick(nil), d.Ticks...)
	sort.SliceStable(ticks, func(i, j int) bool {
		a, b := ticks[i], ticks[j]
		switch {
		case !a.Time.Equal(b.Time):
			return a.Time.Before(b.Time)
		case a.Session != b.Session:
			return a.Session < b.Session
		}
		return a.From < b.From
	})
	events := append([]Event(nil), d.Events...)
	sort.SliceStable(events, func(i, j int) bool {
		if !events[i].Time.Equal(events[j].Time) {
			return events[i].Time.Before(events[j].Time)
		}
		return events[i].ID < events[j].ID
	})
	var b bytes.Buffer
	for _, t := range ticks {
		writeLine(&b, struct {
			Type string `json:"type"`
			Tick
		}{lineTick, t})
	}
	for _, e := range events {
		writeLine(&b, struct {
			Type string `json:"type"`
			Event
		}{lineEvent, e})
	}
	return b.Bytes()
}

func writeLine(b *bytes.Buffer, v any) {
	line, err := json.Marshal(v)
	if err != nil {
		panic(err) // events and ticks are plain values: Marshal cannot fail
	}
	b.Write(line)
	b.WriteByte('\n')
}

// ReadRun reads a run file. It was written whole, so every bad line is
// damage: an error naming name and the line.
func ReadRun(r io.Reader, name string) (Data, error) {
	var d Data
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxRunLine)
	n := 0
	for sc.Scan() {
		n++
		if err := d.addRunLine(bytes.TrimSpace(sc.Bytes())); err != nil {
			return Data{}, damaged(RunFile, name, n, "%w", err)
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return Data{}, damaged(RunFile, name, n+1, "a line of more than %d bytes", maxRunLine)
	}
	if err := sc.Err(); err != nil {
		return Data{}, fmt.Errorf("read %s: %w", name, err)
	}
	return d, nil
}

func (d *Data) addRunLine(line []byte) error {
	if len(line) == 0 {
		return nil
	}
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return err
	}
	typ := lineEvent
	if head.Type != nil {
		typ = *head.Type
	}
	switch typ {
	case lineTick:
		t, err := parseTick(line)
		if err != nil {
			return err
		}
		d.Ticks = append(d.Ticks, t)
	case lineEvent:
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return err
		}
		if e.Record == "" {
			return errors.New("an event names no record")
		}
		d.Events = append(d.Events, e)
	}
	return nil
}

// parseTick reads a ledger reading; a count out of range is an error.
func parseTick(line []byte) (Tick, error) {
	var t Tick
	if err := json.Unmarshal(line, &t); err != nil {
		return Tick{}, err
	}
	if !tokens.Valid(t.Tokens) {
		return Tick{}, fmt.Errorf("tokens %d out of range (0 to %d)", t.Tokens, tokens.Max)
	}
	return t, nil
}

// ReadRunFiles reads the run files under yoiDir/metrics (the working
// tree's .yoi/), naming them as commands print paths (.yoi/metrics/…); no
// directory holds none.
func ReadRunFiles(yoiDir string) (Data, error) {
	dir := filepath.Join(yoiDir, filepath.FromSlash(record.MetricsDir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Data{}, nil
	}
	if err != nil {
		return Data{}, fmt.Errorf("read %s: %w", record.DisplayPath(record.MetricsDir), err)
	}
	var d Data
	for _, de := range entries {
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".jsonl") {
			continue
		}
		name := record.DisplayPath(record.MetricsDir + "/" + de.Name())
		f, err := os.Open(filepath.Join(dir, de.Name()))
		if err != nil {
			return Data{}, fmt.Errorf("read %s: %w", name, err)
		}
		run, err := ReadRun(f, name)
		f.Close()
		if err != nil {
			return Data{}, err
		}
		d = d.Add(run)
	}
	return d, nil
}

// ReadRuns reads the run files of a snapshot of .yoi/ (the memory
// branch's tree, before it is merged into the working tree).
func ReadRuns(snap record.Snapshot) (Data, error) {
	var d Data
	for _, e := range snap.Entries {
		if e.Mode != record.ModeRegular || record.Classify(e.Path).Area != record.AreaMetrics || !strings.HasSuffix(e.Path, ".jsonl") {
			continue
		}
		b, err := snap.Read(e.Path)
		if err != nil {
			return Data{}, fmt.Errorf("read %s: %w", record.DisplayPath(e.Path), err)
		}
		run, err := ReadRun(bytes.NewReader(b), record.DisplayPath(e.Path))
		if err != nil {
			return Data{}, err
		}
		d = d.Add(run)
	}
	return d, nil
}
