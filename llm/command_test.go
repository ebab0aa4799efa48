package llm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script writes an sh script and returns the model string that runs it.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "model.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return "command:sh '" + p + "'"
}

func openCommand(t *testing.T, body string, opts Options) Provider {
	t.Helper()
	p, err := Open(script(t, body), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCommand(t *testing.T) {
	valid := `{"memories":["use make"]}`
	envelope := jsonOf(t, map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "Sure:\n" + valid,
		"usage": map[string]any{"input_tokens": 3, "cache_creation_input_tokens": 20, "cache_read_input_tokens": 100, "output_tokens": 9}})
	tests := []struct {
		name      string
		body      string
		schema    bool
		wantText  string
		wantJSON  string
		wantUsage Usage
	}{
		{"text", `cat >/dev/null; echo "  hello "`, false, "hello", "", Usage{}},
		{"echoes the prompt", `cat`, false, "System:\nYou extract memories.\n\nUser:\ntranscript", "", Usage{}},
		{"JSON in a fence", "cat >/dev/null; printf 'Here you go:\\n```json\\n%s\\n```\\nDone.\\n' '" + valid + "'", true, "", valid, Usage{}},
		{"JSON among text", "cat >/dev/null; echo 'Result: " + valid + " (end)'", true, "", valid, Usage{}},
		{"claude envelope", "cat >/dev/null; cat <<'EOF'\n" + envelope + "\nEOF", true, "Sure:\n" + valid, valid, Usage{InputTokens: 123, OutputTokens: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := userRequest("transcript")
			if tt.schema {
				req.Schema = memorySchema()
			}
			resp, err := openCommand(t, tt.body, Options{}).Call(quick(t), req)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantText != "" && resp.Text != tt.wantText {
				t.Errorf("text %q, want %q", resp.Text, tt.wantText)
			}
			if string(resp.JSON) != tt.wantJSON || resp.Usage != tt.wantUsage {
				t.Errorf("JSON %s usage %+v", resp.JSON, resp.Usage)
			}
		})
	}
}

func TestCommandSchemaPromptAndRepair(t *testing.T) {
	dir := t.TempDir()
	// The first run answers badly; the second sees the repair request.
	body := `in=$(cat); n=$(ls "` + dir + `" | wc -l); echo "$in" > "` + dir + `/prompt$n"
if [ "$n" -eq 0 ]; then echo '{"memories":"one"}'; else echo '{"memories":["one"]}'; fi`
	req := userRequest("transcript")
	req.Schema = memorySchema()
	resp, err := openCommand(t, body, Options{}).Call(quick(t), req)
	if err != nil || string(resp.JSON) != `{"memories":["one"]}` {
		t.Fatalf("%+v %v", resp, err)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "prompt0"))
	if !contains(string(first), "Reply with only a JSON object matching this JSON schema:", memorySchemaJSON) {
		t.Errorf("prompt lacks the schema instruction:\n%s", first)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "prompt1"))
	if !contains(string(second), "Assistant:\n{\"memories\":\"one\"}", "does not match the schema") {
		t.Errorf("repair prompt:\n%s", second)
	}
}

func TestCommandFailures(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		tools bool
		kind  error
		msg   []string
	}{
		{"nonzero exit", "cat >/dev/null; echo first >&2; echo second >&2; exit 3", false, ErrCommand, []string{"exit status 3", "first\nsecond"}},
		{"empty output", "cat >/dev/null", false, ErrEmpty, nil},
		{"claude error", `cat >/dev/null; echo '{"type":"result","subtype":"error_max_turns","is_error":true,"result":"too many turns"}'`, false, ErrCommand, []string{"error_max_turns", "too many turns"}},
		{"tools refused", "echo never", true, ErrBadRequest, []string{"does not support tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := userRequest("x")
			if tt.tools {
				req.Tools = []Tool{recallTool()}
			}
			_, err := openCommand(t, tt.body, Options{}).Call(quick(t), req)
			if e := wantKind(t, err, tt.kind); !contains(e.Message, tt.msg...) {
				t.Errorf("message %q lacks %q", e.Message, tt.msg)
			}
		})
	}
}

func TestCommandNotFound(t *testing.T) {
	p, err := Open("command:/nonexistent/model-cli --flag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Call(quick(t), userRequest("x"))
	if e := wantKind(t, err, ErrCommand); !strings.Contains(e.Message, "/nonexistent/model-cli") {
		t.Errorf("message %q", e.Message)
	}
}

func TestCommandTimeoutKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	body := `sleep 30 & echo $! > "` + pidFile + `"; wait`
	// No deadline but the option's: a timeout not kept lets the model
	// answer (nothing) after its sleep, which is not ErrTimeout. No
	// assertion on how long it took.
	_, err := openCommand(t, body, Options{Timeout: 300 * time.Millisecond}).Call(context.Background(), userRequest("x"))
	wantKind(t, err, ErrTimeout)
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The killed sleep may linger briefly as a zombie of init; wait for it
	// (generously: what is asserted is that it dies, not how fast).
	deadline := time.Now().Add(30 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("child sleep %d survived the timeout", pid)
	}
}

// alive reports whether pid runs (and is not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return err != nil && !os.IsNotExist(err)
	}
	fields := strings.Fields(string(stat))
	return len(fields) < 3 || fields[2] != "Z"
}

func TestSplitArgv(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"claude -p --output-format json", []string{"claude", "-p", "--output-format", "json"}, false},
		{`  a   b  `, []string{"a", "b"}, false},
		{`a 'b c' "d e"`, []string{"a", "b c", "d e"}, false},
		{`a\ b c\\d`, []string{"a b", `c\d`}, false},
		{`"x \"y\" \$HOME \n"`, []string{`x "y" $HOME \n`}, false},
		{`'$HOME' ~ *`, []string{"$HOME", "~", "*"}, false},
		{`a'b'"c"d`, []string{"abcd"}, false},
		{`'' ""`, []string{"", ""}, false},
		{`a 'b`, nil, true},
		{`a "b`, nil, true},
		{`a \`, nil, true},
		{"   ", nil, true},
	}
	for _, tt := range tests {
		got, err := splitArgv(tt.in)
		if (err != nil) != tt.err || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitArgv(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestExtractObject(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{" \n{\"a\":1}\n", `{"a":1}`},
		{"```json\n{\"a\":1}\n```", `{"a":1}`},
		{"Here:\n```\n{\"a\":1}\n```\nbye", `{"a":1}`},
		{`Sure! {"a":{"b":2}} hope that helps`, `{"a":{"b":2}}`},
		{`{"a":`, `{"a":`},
		{`no json`, `no json`},
	}
	for _, tt := range tests {
		if got := string(ExtractObject(tt.in)); got != tt.want {
			t.Errorf("ExtractObject(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if !json.Valid(ExtractObject("```json\n[1]\n```")) {
		t.Error("fenced array")
	}
}

func TestCommandIgnoresStdin(t *testing.T) {
	req := userRequest(strings.Repeat("long transcript ", 100_000))
	resp, err := openCommand(t, "echo early", Options{}).Call(quick(t), req)
	if err != nil || resp.Text != "early" {
		t.Fatalf("%+v %v", resp, err)
	}
}
