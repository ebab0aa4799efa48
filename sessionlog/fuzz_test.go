package sessionlog

import (
	"bytes"
	"io"
	"testing"

	tokencount "github.com/yoimem/git-yoimem/internal/tokens"
)

// FuzzReader reads any bytes in each format: it must not panic, line
// numbers and offsets must add up, CountTokens must agree with the
// entries' usage, and a read resumed after any entry must give what one
// read gives.
func FuzzReader(f *testing.F) {
	// Seeds: the fixtures three lines at a time (whole files make each
	// minimization of an interesting input slow).
	for i, fx := range fixtures {
		lines := bytes.SplitAfter(readFixture(f, fx.file), []byte("\n"))
		for j := 0; j < len(lines); j += 3 {
			f.Add(bytes.Join(lines[j:min(j+3, len(lines))], nil), uint8(i), uint16(j))
		}
	}
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":5}}}\n{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":5}}}"), uint8(1), uint16(1))
	f.Add([]byte("\n\r\n{\"a\":[[[[\n{\"type\":\"user\",\"text\":\"\\ud800\"}\n"), uint8(0), uint16(2))
	// Token counters at and past the limits (2^53, 2^63-1, 2^63, negative).
	f.Add([]byte("{\"type\":\"usage\",\"input_tokens\":9007199254740992}\n{\"type\":\"usage\",\"input_tokens\":9007199254740992}\n"), uint8(0), uint16(1))
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":9223372036854775807,\"cache_read_input_tokens\":9223372036854775807}}}\n"), uint8(1), uint16(0))
	f.Add([]byte("{\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":{\"total_token_usage\":{\"input_tokens\":9223372036854775808},\"last_token_usage\":{\"input_tokens\":-5}}}}\n"), uint8(2), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, fi uint8, cut uint16) {
		format := Formats()[int(fi)%len(Formats())]
		_, _ = Detect(data)
		entries, r := readAll(t, data, format, Options{})
		checkPositions(t, data, entries, r)
		tokens, calls := usageSum(entries)
		for _, e := range entries {
			if u := e.Usage; u != nil && (u.InputTokens < 0 || u.InputTokens > tokencount.Max || u.OutputTokens < 0 || u.OutputTokens > tokencount.Max) {
				t.Fatalf("entry %d: usage %+v out of range", e.Index, *u)
			}
		}
		tc, err := CountTokens(bytes.NewReader(data), format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tc.InputTokens != tokens || tc.Calls != calls || tc.Offset != r.Offset() || tc.Index != r.Index() {
			t.Fatalf("CountTokens %+v, reader %d tokens in %d calls to line %d byte %d", tc, tokens, calls, r.Index(), r.Offset())
		}
		// Resume after entry k.
		k := int(cut) % (len(entries) + 1)
		first := NewReader(bytes.NewReader(data), format, Options{})
		for range k {
			if _, err := first.Next(); err != nil {
				t.Fatal(err)
			}
		}
		opts := Options{StartIndex: first.Index(), StartOffset: first.Offset(), Seen: first.Seen(), SessionID: first.SessionID()}
		rest, _ := readAll(t, data[first.Offset():], format, opts)
		if got, want := render(append(append([]Entry(nil), entries[:k]...), rest...)), render(entries); !bytes.Equal(got, want) {
			t.Fatalf("resumed after entry %d:\n%s", k, lineDiff(want, got))
		}
	})
}

func checkPositions(t *testing.T, data []byte, entries []Entry, r *Reader) {
	t.Helper()
	last, end := 0, int64(0)
	for _, e := range entries {
		if e.Index <= last || e.Offset < end || e.End <= e.Offset || e.End > int64(len(data)) || data[e.End-1] != '\n' {
			t.Fatalf("entry at line %d, bytes %d-%d, after line %d ending at %d", e.Index, e.Offset, e.End, last, end)
		}
		if e.Index != last+bytes.Count(data[end:e.Offset], []byte("\n"))+1 {
			t.Fatalf("entry at byte %d has line %d", e.Offset, e.Index)
		}
		last, end = e.Index, e.End
	}
	off := r.Offset()
	if off < end || off > int64(len(data)) || (off > 0 && data[off-1] != '\n') || bytes.IndexByte(data[off:], '\n') >= 0 {
		t.Fatalf("reader stopped at byte %d of %d", off, len(data))
	}
	if r.Index() != bytes.Count(data[:off], []byte("\n")) {
		t.Fatalf("reader stopped at line %d, byte %d", r.Index(), off)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the end: %v", err)
	}
}
