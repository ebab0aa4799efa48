package memlog

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func sampleMessage() *Message {
	return &Message{
		Ops: []Op{
			{Kind: OpAdd, Path: "memory/decisions/use-sqlite.md", Reason: "new decision from the session"},
			{Kind: OpUpdate, Path: "knowledge/sqlite-pragmas.md", Reason: "busy_timeout raised\nto 5000"},
			{Kind: OpReplace, Path: "memory/decisions/json-logs.md", Target: "memory/decisions/structured-logging.md", Categories: []Category{CategorySuperseded}, Reason: "slog decision is the canonical one"},
			{Kind: OpDrop, Path: "knowledge/old-ci.md", Categories: []Category{CategoryUnused, CategoryNoisy}, Reason: "not read in 40M tokens: protected records untouched"},
		},
		RunID:    "0193a1b2-7c00-7d11-8e22-33445566aabb",
		Engine:   "rules",
		Consumed: []string{"0193a1b2-0000-7000-8000-000000000001", "0193a1b2-0000-7000-8000-000000000002"},
		Sessions: []string{"sess-1:12-48", "sess-2:3-9"},
	}
}

func TestMessageRoundTrip(t *testing.T) {
	m := sampleMessage()
	text, err := m.Format()
	if err != nil {
		t.Fatal(err)
	}
	want := `yoimem: 1 added, 1 updated, 1 replaced, 1 dropped

add memory/decisions/use-sqlite.md: new decision from the session
update knowledge/sqlite-pragmas.md: busy_timeout raised to 5000
replace memory/decisions/json-logs.md -> memory/decisions/structured-logging.md [superseded]: slog decision is the canonical one
drop knowledge/old-ci.md [unused,noisy]: not read in 40M tokens: protected records untouched

Yoimem-Run: 0193a1b2-7c00-7d11-8e22-33445566aabb
Yoimem-Engine: rules
Yoimem-Consumed: 0193a1b2-0000-7000-8000-000000000001
Yoimem-Consumed: 0193a1b2-0000-7000-8000-000000000002
Yoimem-Session: sess-1:12-48
Yoimem-Session: sess-2:3-9
Yoimem-Categories: outdated=0 superseded=1 unused=1 noisy=1
`
	if text != want {
		t.Fatalf("format:\n%s\nwant:\n%s", text, want)
	}
	got, err := ParseMessage(text)
	if err != nil {
		t.Fatal(err)
	}
	m.Subject = "yoimem: 1 added, 1 updated, 1 replaced, 1 dropped"
	m.Ops[1].Reason = "busy_timeout raised to 5000"
	m.Categories = map[Category]int{CategoryOutdated: 0, CategorySuperseded: 1, CategoryUnused: 1, CategoryNoisy: 1}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("parsed %+v\nwant   %+v", got, m)
	}
	if err := CheckTrailers(text); err != nil {
		t.Fatal(err)
	}
	again, _ := got.Format()
	if again != text {
		t.Fatalf("second round trip differs:\n%s", again)
	}
}

func TestMessageValidate(t *testing.T) {
	for name, mutate := range map[string]func(*Message){
		"no run":            func(m *Message) { m.RunID = "" },
		"no engine":         func(m *Message) { m.Engine = "" },
		"unknown op":        func(m *Message) { m.Ops[0].Kind = "smash" },
		"tidy without cat":  func(m *Message) { m.Ops[3].Categories = nil },
		"bad category":      func(m *Message) { m.Ops[3].Categories = []Category{"stale"} },
		"category twice":    func(m *Message) { m.Ops[3].Categories = []Category{CategoryUnused, CategoryUnused} },
		"replace no target": func(m *Message) { m.Ops[2].Target = "" },
		"add with target":   func(m *Message) { m.Ops[0].Target = "x" },
		"path with space":   func(m *Message) { m.Ops[0].Path = "a b" },
		"multiline trailer": func(m *Message) { m.Model = "a\nb" },
	} {
		m := sampleMessage()
		mutate(m)
		if _, err := m.Format(); err == nil {
			t.Errorf("%s: Format accepted an invalid message", name)
		}
	}
}

func TestCheckTrailersRefuses(t *testing.T) {
	good, _ := sampleMessage().Format()
	for name, msg := range map[string]string{
		"plain commit":      "fix typo\n\nSigned-off-by: A <a@example.com>\n",
		"counts disagree":   strings.Replace(good, "unused=1", "unused=2", 1),
		"bad counts":        strings.Replace(good, "unused=1", "unused=x", 1),
		"trailers not last": good + "\nA closing remark.\n",
		"no categories":     strings.Replace(good, "Yoimem-Categories: outdated=0 superseded=1 unused=1 noisy=1\n", "", 1),
		"malformed op line": strings.Replace(good, "drop knowledge/old-ci.md [unused,noisy]:", "merge knowledge/old-ci.md [unused,noisy]:", 1),
		"two runs":          good + "Yoimem-Run: 0193a1b2-7c00-7d11-8e22-000000000000\n",
		"two engines":       strings.Replace(good, "Yoimem-Engine: rules\n", "Yoimem-Engine: rules\nYoimem-Engine: llm\n", 1),
		"two categories":    good + "Yoimem-Categories: outdated=0 superseded=1 unused=1 noisy=1\n",
	} {
		if err := CheckTrailers(msg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestTrailersAgreeWithGit: git interpret-trailers --parse finds exactly
// the trailers we write and parse.
func TestTrailersAgreeWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	msgs := []*Message{sampleMessage(), {RunID: "r1", Engine: "llm", Model: "anthropic:claude-sonnet-4-5"}}
	for _, m := range msgs {
		text, err := m.Format()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "-c", "core.commentChar=#", "interpret-trailers", "--parse")
		cmd.Stdin = strings.NewReader(text)
		cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/nonexistent"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		var ours []string
		for _, tr := range ParseTrailers(text) {
			ours = append(ours, tr.Key+": "+tr.Value)
		}
		if got := strings.TrimRight(string(out), "\n"); got != strings.Join(ours, "\n") {
			t.Fatalf("git: %q\nours: %q", got, strings.Join(ours, "\n"))
		}
	}
}

func FuzzMessageRoundTrip(f *testing.F) {
	text, _ := sampleMessage().Format()
	f.Add(text)
	f.Add("subject\n\nYoimem-Run: x\nYoimem-Engine: rules\nYoimem-Categories: outdated=0 superseded=0 unused=0 noisy=0\n")
	f.Fuzz(func(t *testing.T, msg string) {
		m, err := ParseMessage(msg)
		if err != nil || m.Validate() != nil {
			return
		}
		if strings.ContainsAny(m.Subject, "\r") {
			return
		}
		out, err := m.Format()
		if err != nil {
			t.Fatalf("parsed message does not format: %v", err)
		}
		m2, err := ParseMessage(out)
		if err != nil {
			t.Fatalf("formatted message does not parse: %v\n%s", err, out)
		}
		if out2, _ := m2.Format(); out2 != out {
			t.Fatalf("not a fixed point:\n%s\n---\n%s", out, out2)
		}
	})
}

// TestSingleValuedTrailers: Yoimem-Run, -Engine, -Model and -Categories
// appear once; Yoimem-Consumed and -Session once per value. A second
// single-valued trailer (in any letter case) is an error that names it.
func TestSingleValuedTrailers(t *testing.T) {
	good, _ := sampleMessage().Format()
	llm, _ := (&Message{RunID: "r1", Engine: "llm", Model: "anthropic:claude-sonnet-4-5"}).Format()
	for _, tt := range []struct {
		name, msg, want string
	}{
		{"run", good + "Yoimem-Run: other\n", "Yoimem-Run appears 2 times"},
		{"run, other case", good + "yoimem-run: other\n", "Yoimem-Run appears 2 times"},
		{"engine", strings.Replace(good, "Yoimem-Engine: rules\n", "Yoimem-Engine: rules\nYoimem-Engine: rules\n", 1), "Yoimem-Engine appears 2 times"},
		{"model", llm + "Yoimem-Model: openai:gpt-5\n", "Yoimem-Model appears 2 times"},
		{"categories", good + "Yoimem-Categories: outdated=0 superseded=1 unused=1 noisy=0\n", "Yoimem-Categories appears 2 times"},
	} {
		if _, err := ParseMessage(tt.msg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ParseMessage = %v, want %q", tt.name, err, tt.want)
		}
	}
	// Several Consumed and Session trailers are the format.
	m, err := ParseMessage(good)
	if err != nil || len(m.Consumed) != 2 || len(m.Sessions) != 2 {
		t.Fatalf("ParseMessage(good) = %+v, %v", m, err)
	}
}
