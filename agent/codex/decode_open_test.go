package codex

import (
	"io"
	"testing"
)

// TestDecodeStdinLeftOpen: see claudecode's test of the same name.
func TestDecodeStdinLeftOpen(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte(`{"hook_event_name":"Stop","session_id":"t1","cwd":"/r","transcript_path":null}`))
	done := make(chan error, 1)
	go func() {
		ev, err := Decode(pr, 0)
		if err == nil && ev.Session != "t1" {
			t.Errorf("session %q", ev.Session)
		}
		done <- err
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
