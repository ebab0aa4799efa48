package codex

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

// TestDecodeRecorded decodes a payload of every Codex hook event (shapes
// from codex-rs/hooks' generated schemas) into the Event in
// testdata/golden/decode.
func TestDecodeRecorded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "events", "*.json"))
	if len(files) < 15 {
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
		"Stop": agent.Stop, "PreCompact": agent.PreCompact,
		"PostToolUse": agent.Unknown, "PermissionRequest": agent.Unknown, "PostCompact": agent.Unknown,
		"SubagentStart": agent.Unknown, "SubagentStop": agent.Unknown, "StopFailure": agent.Unknown,
		"SessionEnd": agent.Unknown, "stop": agent.Unknown, "FutureEvent": agent.Unknown,
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

func TestDecodeFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want agent.Event
	}{
		{`{"hook_event_name":"SessionStart","source":"resume","transcript_path":null}`, agent.Event{Kind: agent.SessionStart, Name: "SessionStart", Source: "resume"}},
		{`{"hook_event_name":"PreCompact","trigger":"manual","transcript_path":"/r.jsonl"}`, agent.Event{Kind: agent.PreCompact, Name: "PreCompact", Source: "manual", LogPath: "/r.jsonl"}},
		{`{"hook_event_name":"UserPromptSubmit","prompt":"#x","cwd":"/w"}`, agent.Event{Kind: agent.UserPrompt, Name: "UserPromptSubmit", Prompt: "#x", Cwd: "/w"}},
		{`{"hook_event_name":"Stop","last_assistant_message":null,"stop_hook_active":true}`, agent.Event{Kind: agent.Stop, Name: "Stop"}},
	} {
		ev, err := Decode(strings.NewReader(tc.in), DefaultLimit)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got, _ := json.Marshal(ev)
		want, _ := json.Marshal(tc.want)
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, want)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"   \n", "empty"},
		{"not json", "not JSON"},
		{`["SessionStart"]`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{"hook_event_name":"Stop"`, "not JSON"},
		{`{"session_id":"s"}`, "hook_event_name"},
		{`{"hook_event_name":""}`, "hook_event_name"},
		{`{"hook_event_name":7}`, "hook_event_name"},
		{`{"hook_event_name":"Stop","session_id":5}`, "session_id"},
		{`{"hook_event_name":"Stop","transcript_path":5}`, "transcript_path"},
		{`{"hook_event_name":"PreToolUse","tool_name":["Bash"]}`, "tool_name"},
		{`{"hook_event_name":"Stop"} {"hook_event_name":"Stop"}`, "after the JSON object"},
		{"{\"hook_event_name\":\"Stop\",\"cwd\":\"\xff\"}", "UTF-8"},
	} {
		_, err := Decode(strings.NewReader(tc.in), DefaultLimit)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Codex") {
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
	for _, want := range []string{"Codex", "4,096 bytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %s", err, want)
		}
	}
	tl.Setting = "yoimem.hook.maxInputBytes"
	if !strings.Contains(err.Error(), "yoimem.hook.maxInputBytes") {
		t.Errorf("%q does not name the setting", err)
	}
	in := `{"hook_event_name":"Stop"}`
	if _, err := Decode(strings.NewReader(in), int64(len(in))); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if _, err := Decode(strings.NewReader(in), int64(len(in)-1)); !errors.As(err, &tl) {
		t.Errorf("one over the limit: %v", err)
	}
	if _, err := Decode(&endless{}, 0); !errors.As(err, &tl) || tl.Limit != DefaultLimit {
		t.Errorf("no limit: %v; want the default", err)
	}
}

// TestDecodeNotifyRecorded decodes the legacy notify payloads (the JSON
// Codex appends to the notify command's argv) in testdata/notify.
func TestDecodeNotifyRecorded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "notify", "*.json"))
	if len(files) < 3 {
		t.Fatalf("%d recorded notify payloads", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := DecodeNotify(string(in))
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.MarshalIndent(ev, "", "  ")
			golden(t, filepath.Join("notify", name+".json"), append(out, '\n'))
		})
	}
}

func TestDecodeNotify(t *testing.T) {
	ev, err := DecodeNotify(`{"type":"agent-turn-complete","thread-id":"t1","turn-id":"u","cwd":"/w","input-messages":["a"],"last-assistant-message":"b"}`)
	if err != nil || ev.Kind != agent.Stop || ev.Session != "t1" || ev.Cwd != "/w" || ev.Name != "agent-turn-complete" {
		t.Errorf("%+v, %v", ev, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"{", "not JSON"},
		{`[]`, "not a JSON object"},
		{`{"thread-id":"t"}`, "no type"},
		{`{"type":""}`, "no type"},
		{`{"type":3}`, "type"},
		{`{"type":"agent-turn-complete","thread-id":7}`, "thread-id"},
		{`{"type":"agent-turn-complete","input-messages":"x"}`, "input-messages"},
		{`{"type":"agent-turn-complete"} x`, "after the JSON object"},
		{strings.Repeat(" ", DefaultLimit+1), "over the limit"},
	} {
		_, err := DecodeNotify(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "notify") {
			t.Errorf("DecodeNotify(%.40q) = %v; want an error naming %q", tc.in, err, tc.want)
		}
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

func FuzzDecodeNotify(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "notify", "*.json"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Add(`{"type":null}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := DecodeNotify(in)
		if err != nil {
			if ev.Name != "" || ev.Kind != "" {
				t.Fatalf("an event with an error: %+v", ev)
			}
			return
		}
		if ev.Name == "" || (ev.Kind != agent.Stop && ev.Kind != agent.Unknown) {
			t.Fatalf("decoded %+v", ev)
		}
		if out, code := Encode(ev, agent.Response{Context: agent.Context{Summary: "s"}, Message: "m"}); len(out) != 0 || code != 0 {
			t.Fatalf("notify answered %q, exit %d", out, code)
		}
	})
}
