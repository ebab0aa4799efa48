package claudecode

import (
	"io"
	"testing"
)

// TestDecodeStdinLeftOpen: an agent that writes the payload and leaves
// stdin open gets its answer; the hook does not wait for an end of input
// that never comes.
func TestDecodeStdinLeftOpen(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte(`{"hook_event_name":"SessionStart","session_id":"s1","cwd":"/r"}` + "\n"))
	type result struct {
		kind, session string
		err           error
	}
	done := make(chan result, 1)
	go func() {
		ev, err := Decode(pr, 0)
		done <- result{string(ev.Kind), ev.Session, err}
	}()
	r := <-done // a hang here fails the test by its timeout
	if r.err != nil || r.kind != "session_start" || r.session != "s1" {
		t.Fatalf("Decode = %+v", r)
	}
}
