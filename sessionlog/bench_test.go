package sessionlog

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/yoimem/git-yoimem/bench/gentranscript/transcript"
)

// genTranscript is a ~10 MB tool-heavy Claude Code transcript.
func genTranscript(b *testing.B) ([]byte, transcript.Stats) {
	b.Helper()
	var buf bytes.Buffer
	st, err := transcript.Write(&buf, transcript.Config{Bytes: 10e6, ToolHeavy: true, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return buf.Bytes(), st
}

// TestGeneratedTranscript checks the reader against what the generator
// says it wrote.
func TestGeneratedTranscript(t *testing.T) {
	var buf bytes.Buffer
	st, err := transcript.Write(&buf, transcript.Config{Bytes: 5e6, ToolHeavy: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if f, err := Detect(data[:min(len(data), 64<<10)]); err != nil || f != ClaudeCode {
		t.Fatalf("Detect: %q %v", f, err)
	}
	entries, r := readAll(t, data, ClaudeCode, Options{})
	tokens, calls := usageSum(entries)
	if len(entries) != st.Lines || tokens != st.InputTokens || calls != st.Calls || r.Offset() != st.Bytes {
		t.Fatalf("read %d entries, %d tokens in %d calls to byte %d; wrote %+v", len(entries), tokens, calls, r.Offset(), st)
	}
	if float64(st.ToolBytes) < 0.8*float64(st.Bytes) {
		t.Errorf("tool-heavy transcript: tool results are %d of %d bytes", st.ToolBytes, st.Bytes)
	}
	var compactions, sidechains, other int
	for _, e := range entries {
		switch {
		case e.Kind == KindCompaction:
			compactions++
		case e.Sidechain:
			sidechains++
		case e.Kind == KindOther && e.Problem != "":
			other++
		}
		for _, res := range e.ToolResults {
			if len(res.Summary) > SummaryBytes+len(ellipsis) {
				t.Fatalf("line %d: summary of %d bytes", e.Index, len(res.Summary))
			}
		}
	}
	if compactions == 0 || sidechains == 0 || other != 0 {
		t.Errorf("%d compactions, %d sidechain entries, %d lines not understood", compactions, sidechains, other)
	}
	// One more turn, checked from where the first read stopped.
	tc, err := CountTokens(bytes.NewReader(data), ClaudeCode, Options{})
	if err != nil {
		t.Fatal(err)
	}
	turn, err := transcript.AppendTurn(&buf, transcript.Config{Seed: 3}, int64(len(data)), "")
	if err != nil {
		t.Fatal(err)
	}
	more, err := CountTokens(bytes.NewReader(buf.Bytes()[tc.Offset:]), ClaudeCode, Options{StartIndex: tc.Index, StartOffset: tc.Offset, Seen: tc.Seen})
	if err != nil || more.InputTokens != turn.InputTokens || more.Calls != 1 || more.Index != tc.Index+turn.Lines {
		t.Fatalf("after one more turn: %+v %v; appended %+v", more, err, turn)
	}
}

func BenchmarkReadClaudeCode(b *testing.B) {
	data, _ := genTranscript(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data), ClaudeCode, Options{})
		for {
			if _, err := r.Next(); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func BenchmarkCountTokens(b *testing.B) {
	data, _ := genTranscript(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := CountTokens(bytes.NewReader(data), ClaudeCode, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountTokensOneTurn is the extract trigger's check after one
// more turn: only the appended bytes are scanned.
func BenchmarkCountTokensOneTurn(b *testing.B) {
	data, _ := genTranscript(b)
	tc, err := CountTokens(bytes.NewReader(data), ClaudeCode, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Write(data)
	if _, err := transcript.AppendTurn(&buf, transcript.Config{Seed: 1}, int64(len(data)), ""); err != nil {
		b.Fatal(err)
	}
	tail := buf.Bytes()[tc.Offset:]
	opts := Options{StartIndex: tc.Index, StartOffset: tc.Offset, Seen: tc.Seen}
	b.SetBytes(int64(len(tail)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := CountTokens(bytes.NewReader(tail), ClaudeCode, opts); err != nil {
			b.Fatal(err)
		}
	}
}
