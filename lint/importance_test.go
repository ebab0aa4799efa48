package lint

import (
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/record"
)

// TestLowImportanceSize: size x importance. The size side is the record
// file's estimated tokens (so a page of kanji weighs more than a page of
// ASCII of the same length); the importance side fires for a record used
// below the protection frequency and for one nobody used over the unused
// span, never for unknown usage, a protected record or the summary.
func TestLowImportanceSize(t *testing.T) {
	big := strings.Repeat("x", 1200)     // about 300 tokens
	kanji := strings.Repeat("字", 300)    // about 300 tokens
	ascii300 := strings.Repeat("x", 300) // about 75 tokens
	usages := map[string]Usage{
		"memory/requests/rare.md":    {Frequency: 0.2, Known: true},
		"memory/requests/hot.md":     {Frequency: 3, Known: true},
		"memory/requests/unused.md":  {Known: true, Unused: true, Idle: 12_345_678},
		"memory/requests/unknown.md": {},
		"memory/requests/kanji.md":   {Known: true, Unused: true, Idle: 20_000_000},
		"memory/requests/ascii.md":   {Known: true, Unused: true, Idle: 20_000_000},
		"memory/summary.md":          {Known: true, Unused: true, Idle: 20_000_000},
	}
	files := map[string][]byte{
		"memory/summary.md":          []byte(summary(big)),
		"memory/requests/rare.md":    []byte(request(big)),
		"memory/requests/hot.md":     []byte(request(big)),
		"memory/requests/unused.md":  []byte(request(big)),
		"memory/requests/unknown.md": []byte(request(big)),
		"memory/requests/kanji.md":   []byte(request(kanji)),
		"memory/requests/ascii.md":   []byte(request(ascii300)),
		"memory/requests/small.md":   []byte(request("x")),
	}
	o := DefaultOptions()
	o.LowImportanceTokens = 200
	var created []time.Time
	o.Usage = func(rec *record.Record) Usage {
		created = append(created, rec.CreatedAt)
		if u, ok := usages[rec.Path]; ok {
			return u
		}
		return Usage{Known: true, Unused: true, Idle: 1 << 30}
	}
	rep := Tree(record.MapSnapshot(files), o, nil)
	got := map[string]string{}
	for _, f := range rep.Findings {
		if f.Rule == RuleLowImportance {
			got[f.Path] = f.Message
		}
	}
	want := map[string]string{
		"memory/requests/rare.md":   "about 330 tokens, used 0.20 times per million input tokens (below 1.00): room to compress",
		"memory/requests/unused.md": "about 330 tokens, not used in the last 12,345,678 input tokens: room to compress",
		"memory/requests/kanji.md":  "about 330 tokens, not used in the last 20,000,000 input tokens: room to compress",
	}
	for p, msg := range want {
		if got[p] != msg {
			t.Errorf("%s: %q, want %q", p, got[p], msg)
		}
	}
	for p, msg := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: unexpected %q", p, msg)
		}
	}
	for _, c := range created {
		if !c.Equal(time.Date(2026, 1, 5, 9, 30, 0, 0, time.UTC)) {
			t.Errorf("Usage was given a record whose created_at is %v", c)
		}
	}
}

// TestLowImportanceOff: a threshold of 0 or no Usage turns the check off.
func TestLowImportanceOff(t *testing.T) {
	files := map[string][]byte{
		"memory/summary.md":      []byte(summary("")),
		"memory/requests/big.md": []byte(request(strings.Repeat("x", 8000))),
	}
	unused := func(*record.Record) Usage { return Usage{Known: true, Unused: true, Idle: 1 << 30} }
	for name, set := range map[string]func(*Options){
		"threshold 0": func(o *Options) { o.LowImportanceTokens = 0; o.Usage = unused },
		"no usage":    func(o *Options) { o.Usage = nil },
	} {
		o := DefaultOptions()
		set(&o)
		if hasRule(Tree(record.MapSnapshot(files), o, nil).Findings, RuleLowImportance) {
			t.Errorf("%s: low-importance-size fired", name)
		}
	}
}
