package metrics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// TestClockTokenRange: the clock's running total stops at 2^53 however
// many readings add up, a reading out of range (negative, over 2^53)
// counts 0, and no frequency turns negative.
func TestClockTokenRange(t *testing.T) {
	tests := []struct {
		name  string
		ticks []int64
		want  int64
	}{
		{"at the limit", []int64{tokens.Max}, tokens.Max},
		{"two at the limit", []int64{tokens.Max, tokens.Max}, tokens.Max},
		{"many large", []int64{1 << 62, 1 << 62, 1 << 62, 1 << 62}, 0},
		{"2^63-1 then small", []int64{1<<63 - 1, 5}, 5},
		{"negative", []int64{-2, 7}, 7},
		{"min int64", []int64{-1 << 63, 3}, 3},
		{"just under", []int64{tokens.Max - 1, 1}, tokens.Max},
		{"over by one", []int64{tokens.Max - 1, 2}, tokens.Max},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ticks []Tick
			for i, n := range tt.ticks {
				ticks = append(ticks, Tick{Time: at(i + 1), Session: "s", From: 10 * i, To: 10*i + 9, Tokens: n})
			}
			c := NewClock(ticks)
			if c.Now() != tt.want {
				t.Errorf("Now %d, want %d", c.Now(), tt.want)
			}
			for i := range ticks {
				if v := c.At(at(i + 1)); v < 0 || v > tokens.Max {
					t.Errorf("At(%d) = %d out of range", i+1, v)
				}
			}
			f, known := Frequency([]Event{{Time: at(0), Record: "r", How: HowRead}}, c, 10)
			if f < 0 || known && f <= 0 {
				t.Errorf("frequency %v (known %v)", f, known)
			}
		})
	}
}

// TestStatsInjectTokensSaturate: injection costs add up to at most 2^53.
func TestStatsInjectTokensSaturate(t *testing.T) {
	evs := []Event{
		{ID: "1", Time: at(1), Record: "r", How: HowInject, Tokens: tokens.Max},
		{ID: "2", Time: at(2), Record: "r", How: HowInject, Tokens: tokens.Max},
		{ID: "3", Time: at(3), Record: "r", How: HowInject, Tokens: -1 << 63},
	}
	st := Stats(evs, NewClock(nil), 10, 1.0)
	if len(st) != 1 || st[0].InjectTokens != tokens.Max {
		t.Fatalf("stats %+v", st)
	}
}

// TestLedgerOutOfRange: a ledger line whose tokens are out of range is an
// error naming the file and line, like any other damaged line.
func TestLedgerOutOfRange(t *testing.T) {
	for _, v := range []string{"-2", "9007199254740993", "9223372036854775807"} {
		dir := t.TempDir()
		ledger := `{"time":"2026-01-01T00:01:00Z","session":"s","from":1,"to":2,"tokens":5}` + "\n" +
			`{"time":"2026-01-01T00:02:00Z","session":"s","from":3,"to":4,"tokens":` + v + `}` + "\n" +
			`{"time":"2026-01-01T00:03:00Z","session":"s","from":5,"to":6,"tokens":5}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, "ledger.jsonl"), []byte(ledger), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Local{Dir: dir}.Clock()
		if err == nil || !strings.Contains(err.Error(), "ledger.jsonl:2:") || !strings.Contains(err.Error(), "tokens "+v) {
			t.Errorf("tokens %s: error %v, want one naming ledger.jsonl:2 and the value", v, err)
		}
	}
}

// TestLedgerLines: the ledger is read a line at a time: a torn last line
// is skipped, a bad line before it or a line of 100 KB is an error naming
// the line.
func TestLedgerLines(t *testing.T) {
	good := `{"time":"2026-01-01T00:01:00Z","session":"s","from":1,"to":2,"tokens":5}` + "\n"
	tests := []struct {
		name, ledger, err string
		now               int64
	}{
		{"torn last line", good + `{"time":"2026-01-01T00:02:00Z","sess`, "", 5},
		{"bad line in the middle", good + "nope\n" + good, "ledger.jsonl:2:", 0},
		{"a line too long", good + `{"session":"` + strings.Repeat("x", 100<<10) + `"}` + "\n" + good, "ledger.jsonl:2: a line of more than 65536 bytes", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "ledger.jsonl"), []byte(tt.ledger), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Local{Dir: dir}.Clock()
			if tt.err == "" {
				if err != nil || c.Now() != tt.now {
					t.Fatalf("clock %v, %v", c, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
		})
	}
}
