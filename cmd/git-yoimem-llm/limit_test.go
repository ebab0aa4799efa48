//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"github.com/yoimem/git-yoimem/internal/quote"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// rssLimit is the peak RSS the issue allows the helper.
const rssLimit = 256 << 20

// flood answers with a JSON prefix in a wire format and then a string
// that does not end until the client goes away (up to 3 GiB): a 200 MB
// reply cost the helper 3.8 GB before it was bounded.
func flood(prefix string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(prefix))
		chunk := []byte(strings.Repeat("a", 256<<10))
		for sent := 0; sent < 3<<30; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
}

// runHelper runs the test binary as git-yoimem-llm with args and stdin,
// and returns its stdout, stderr, exit code and peak RSS.
func runHelper(t *testing.T, stdin *os.File, data []byte, args ...string) (string, string, int, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	var environ []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "OPENAI_") {
			environ = append(environ, kv)
		}
	}
	cmd.Env = append(environ, helperEnv+"=1", "ANTHROPIC_API_KEY="+testKey, "OPENAI_API_KEY="+testKey)
	if stdin != nil {
		cmd.Stdin = stdin
	} else {
		cmd.Stdin = bytes.NewReader(data)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, fixture.PeakRSS(cmd)
}

// TestHelperReplyFlood: a server streaming a reply without end, in either
// wire format, is read up to the call's max_reply (the default, 16 MiB),
// then the helper answers too_large, makes no other request, and stays
// small.
func TestHelperReplyFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("streams gigabytes")
	}
	for _, api := range []struct{ model, prefix string }{
		{"anthropic:claude-test", `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"text","text":"`},
		{"openai:gpt-test", `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":{"role":"assistant","refusal":null,"content":"`},
	} {
		t.Run(api.model, func(t *testing.T) {
			srv := flood(api.prefix)
			defer srv.Close()
			call, _ := json.Marshal(map[string]any{
				"model":   api.model,
				"options": map[string]any{"base_url": srv.URL, "timeout_ms": 60000, "max_retries": 2, "max_reply": map[string]any{"bytes": 16 << 20, "setting": "yoimem.llm.maxReplyBytes"}},
				"request": map[string]any{"messages": []any{map[string]any{"role": "user", "text": "hi"}}, "schema": map[string]any{"name": "memories", "json": json.RawMessage(`{"type":"object"}`)}},
			})
			stdout, stderr, code, rss := runHelper(t, nil, call, "call")
			t.Logf("%s streaming without end: exit %d, peak RSS %s bytes; answer %s", api.model, code, quote.Thousands(rss), strings.TrimSpace(stdout))
			var ans struct {
				Error struct{ Kind, Message string }
			}
			if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.Error.Kind != "too_large" ||
				!strings.Contains(ans.Error.Message, "more than 16,777,216 bytes") || !strings.Contains(ans.Error.Message, "yoimem.llm.maxReplyBytes") {
				t.Errorf("exit %d, answer %s, stderr %s", code, stdout, stderr)
			}
			if rss <= 0 || rss > rssLimit {
				t.Errorf("peak RSS %s bytes, want under %s", quote.Thousands(rss), quote.Thousands(rssLimit))
			}
		})
	}
}

// TestHelperStdinFlood: a caller writing without end to the helper's
// stdin is read up to --max-input-bytes (or the default), then refused.
func TestHelperStdinFlood(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	for _, args := range [][]string{{"call"}, {"call", "--max-input-bytes=1000000"}} {
		_, stderr, code, rss := runHelper(t, zero, nil, args...)
		t.Logf("%q with endless stdin: exit %d, peak RSS %s bytes: %s", args, code, quote.Thousands(rss), strings.TrimSpace(stderr))
		if code != 2 || !strings.Contains(stderr, "stdin is more than") || !strings.Contains(stderr, "--max-input-bytes") {
			t.Errorf("exit %d, stderr %s", code, stderr)
		}
		if rss <= 0 || rss > rssLimit {
			t.Errorf("peak RSS %s bytes, want under %s", quote.Thousands(rss), quote.Thousands(rssLimit))
		}
	}
}
