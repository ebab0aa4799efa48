package metrics

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// writeCounter counts the writes it is given.
type writeCounter struct {
	bytes.Buffer
	writes int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestWriteEventsOneWrite: the events of one Append reach the journal in
// one write, so that they cost one system call (SessionStart records a
// few hundred) and another process appending to the same journal at the
// same time cannot come between them; the lines are WriteEvent's.
func TestWriteEventsOneWrite(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 300} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var events []Event
			var want bytes.Buffer
			for i := range n {
				e := Event{ID: fmt.Sprintf("id-%d", i), Time: at, Session: "s", Record: fmt.Sprintf(".yoi/knowledge/k-%d.md", i), How: HowInject, Tokens: int64(i)}
				events = append(events, e)
				if err := WriteEvent(&want, e); err != nil {
					t.Fatal(err)
				}
			}
			var w writeCounter
			if err := writeEvents(&w, events); err != nil {
				t.Fatal(err)
			}
			if wantWrites := min(n, 1); w.writes != wantWrites {
				t.Errorf("%d events took %d writes, want %d", n, w.writes, wantWrites)
			}
			if w.String() != want.String() {
				t.Errorf("wrote\n%s\nwant\n%s", w.String(), want.String())
			}
		})
	}
}
