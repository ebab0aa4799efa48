package record

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// FuzzRoundTrip checks the minimal-diff promise on arbitrary input: a file
// that parses renders back to the same bytes, and setting a field then
// reading it back gives the value while the body stays byte for byte.
func FuzzRoundTrip(f *testing.F) {
	for _, b := range readSeeds(f) {
		f.Add(b)
	}
	for _, b := range readShapes(f) {
		f.Add(b)
	}
	f.Add([]byte("---\na: [1, 2]\n---\n"))
	f.Add([]byte("---\r\nk: v\r\n---\r\nbody\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(30 * time.Second): // a hang, not a slow machine
				panic(fmt.Sprintf("hang on %q", in))
			}
		}()
		d, err := Parse(in)
		if err != nil {
			return
		}
		if !bytes.Equal(d.Bytes(), in) {
			t.Fatalf("round trip changed bytes")
		}
		body := append([]byte(nil), d.Body()...)
		ts := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		if _, err := d.Set(KeyUpdatedAt, TimeNode(ts), Order(KindDecision)); err != nil {
			// An edit may only fail when the input's own layout cannot hold
			// it; the document must then be unchanged.
			if !bytes.Equal(d.Bytes(), in) {
				t.Fatalf("failed edit changed the document")
			}
			return
		}
		if !bytes.Equal(d.Body(), body) {
			t.Fatalf("Set changed the body: %q -> %q", body, d.Body())
		}
		got := d.Get(KeyUpdatedAt)
		if got == nil || got.Value != ts.Format(TimeLayout) {
			t.Fatalf("updated_at not set: %v\n%s", got, d.Bytes())
		}
		again, err := Parse(d.Bytes())
		if err != nil || !bytes.Equal(again.Bytes(), d.Bytes()) {
			t.Fatalf("edited file does not round trip: %v", err)
		}
	})
}
