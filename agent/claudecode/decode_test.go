package claudecode

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

// TestDecodeRecorded decodes a recorded payload of every event (shapes
// from Claude Code's hook reference) into the Event in testdata/golden.
func TestDecodeRecorded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "events", "*.json"))
	if len(files) < 10 {
		t.Fatalf("%d recorded events", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := Decode(strings.NewReader(string(in)), DefaultLimit)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.MarshalIndent(ev, "", "  ")
			golden(t, filepath.Join("decode", name+".json"), append(out, '\n'))
		})
	}
}

func TestDecodeKinds(t *testing.T) {
	for name, want := range map[string]agent.Kind{
		"SessionStart": agent.SessionStart, "UserPromptSubmit": agent.UserPrompt, "PreToolUse": agent.PreTool,
		"Stop": agent.Stop, "PreCompact": agent.PreCompact, "SessionEnd": agent.SessionEnd,
		"PostToolUse": agent.Unknown, "SubagentStop": agent.Unknown, "Notification": agent.Unknown,
		"sessionstart": agent.Unknown, "FutureEvent": agent.Unknown,
	} {
		ev, err := Decode(strings.NewReader(`{"hook_event_name":"`+name+`","session_id":"s"}`), DefaultLimit)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ev.Kind != want || ev.Name != name || ev.Session != "s" {
			t.Errorf("%s: %+v; want kind %s", name, ev, want)
		}
	}
}

func TestDecodeSource(t *testing.T) {
	for in, want := range map[string]string{
		`{"hook_event_name":"SessionStart","source":"compact"}`: "compact",
		`{"hook_event_name":"PreCompact","trigger":"manual"}`:   "manual",
		`{"hook_event_name":"SessionEnd","reason":"logout"}`:    "logout",
	} {
		ev, err := Decode(strings.NewReader(in), DefaultLimit)
		if err != nil || ev.Source != want {
			t.Errorf("%s: %q, %v; want %q", in, ev.Source, err, want)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"   \n", "empty"},
		{"not json", "not JSON"},
		{`["SessionStart"]`, "not a JSON object"},
		{`"SessionStart"`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{"hook_event_name":"Stop"`, "not JSON"},
		{`{"session_id":"s"}`, "hook_event_name"},
		{`{"hook_event_name":""}`, "hook_event_name"},
		{`{"hook_event_name":7}`, "hook_event_name"},
		{`{"hook_event_name":"Stop","session_id":5}`, "session_id"},
		{`{"hook_event_name":"PreToolUse","tool_name":["Write"]}`, "tool_name"},
		{`{"hook_event_name":"Stop"} {"hook_event_name":"Stop"}`, "after the JSON object"},
		{`{"hook_event_name":"Stop"} x`, "after the JSON object"},
		{"{\"hook_event_name\":\"Stop\",\"cwd\":\"\xff\"}", "UTF-8"},
	} {
		_, err := Decode(strings.NewReader(tc.in), DefaultLimit)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Claude Code") {
			t.Errorf("Decode(%q) = %v; want an error naming %q", tc.in, err, tc.want)
		}
	}
}

// endless is an input that never ends: Decode must stop at the limit.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.read += int64(len(p))
	return len(p), nil
}

func TestDecodeTooLarge(t *testing.T) {
	r := &endless{}
	_, err := Decode(io.MultiReader(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"`), r), 4096)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 4096 {
		t.Fatalf("err = %v; want a *TooLargeError at 4096", err)
	}
	if r.read > 1<<16 {
		t.Errorf("read %d bytes past a limit of 4096", r.read)
	}
	for _, want := range []string{"Claude Code", "4,096 bytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %s", err, want)
		}
	}
	tl.Setting = "yoimem.hook.maxInputBytes"
	if !strings.Contains(err.Error(), "yoimem.hook.maxInputBytes") {
		t.Errorf("%q does not name the setting", err)
	}
	// at the limit exactly, it decodes
	in := `{"hook_event_name":"Stop"}`
	if _, err := Decode(strings.NewReader(in), int64(len(in))); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if _, err := Decode(strings.NewReader(in), int64(len(in)-1)); !errors.As(err, &tl) {
		t.Errorf("one over the limit: %v", err)
	}
}

func TestDecodeNoLimitUsesDefault(t *testing.T) {
	_, err := Decode(&endless{}, 0)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != DefaultLimit {
		t.Fatalf("err = %v; want the default limit", err)
	}
}

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "events", "*.json"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_input":null}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, in []byte) {
		ev, err := Decode(strings.NewReader(string(in)), 1<<12)
		if err != nil {
			if ev.Name != "" || ev.Kind != "" {
				t.Fatalf("an event with an error: %+v", ev)
			}
			return
		}
		if ev.Name == "" || ev.Kind == "" {
			t.Fatalf("decoded without a name or kind: %+v", ev)
		}
		for _, resp := range []agent.Response{{}, {Deny: true, Reason: "r"}, {Context: agent.Context{Summary: ev.Prompt}}} {
			out, code := Encode(ev, resp)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if len(out) > 0 && !json.Valid(out) {
				t.Fatalf("output not JSON: %s", out)
			}
		}
	})
}
