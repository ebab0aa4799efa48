package llm

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var replyLimit = Limit{Bytes: 1 << 20, Setting: "yoimem.llm.maxReplyBytes"}

// TestCommandReplyLimit: a command printing without end on stdout (itself
// or through a child) is stopped at the reply limit, its process group
// killed, and the call fails with ErrTooLarge naming the limit.
func TestCommandReplyLimit(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	tests := []struct {
		name, body string
	}{
		{"itself", `cat >/dev/null; exec cat /dev/zero`},
		{"through a child", `cat >/dev/null; cat /dev/zero & echo $! > "` + pidFile + `"; wait`},
		{"a line without end", `cat >/dev/null; yes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A limit not kept reads without end until quick's deadline:
			// ErrTimeout, not ErrTooLarge.
			_, err := openCommand(t, tt.body, Options{MaxReply: replyLimit}).Call(quick(t), userRequest("x"))
			e := wantKind(t, err, ErrTooLarge)
			if !strings.Contains(e.Message, "more than 1,048,576 bytes") || !strings.Contains(e.Message, "(yoimem.llm.maxReplyBytes)") {
				t.Errorf("message %q does not name the limit and its setting", e.Message)
			}
			if data, err := os.ReadFile(pidFile); err == nil {
				pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
				deadline := time.Now().Add(30 * time.Second) // generous: it must die, however slowly
				for pid > 1 && alive(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if pid > 1 && alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("child %d survived", pid)
				}
				os.Remove(pidFile)
			}
		})
	}
	// At the limit exactly is a reply.
	resp, err := openCommand(t, `cat >/dev/null; head -c 1048576 /dev/zero | tr '\0' a`, Options{MaxReply: replyLimit}).Call(quick(t), userRequest("x"))
	if err != nil || len(resp.Text) != 1<<20 {
		t.Fatalf("a reply at the limit: %d bytes, %v", len(resp.Text), err)
	}
}

// TestCommandStderrBounded: stderr is read to its end whatever its size
// (the command must not block), and the error quotes its first lines only.
func TestCommandStderrBounded(t *testing.T) {
	body := `cat >/dev/null; echo "first line" >&2; head -c 50000000 /dev/zero | tr '\0' e >&2; echo >&2; echo last >&2; exit 4`
	_, err := openCommand(t, body, Options{}).Call(quick(t), userRequest("x"))
	e := wantKind(t, err, ErrCommand)
	if !strings.Contains(e.Message, "exit status 4: first line") || len(e.Message) > 4096 {
		t.Errorf("message (%d bytes) %.400q", len(e.Message), e.Message)
	}
}

// TestRequestLimit: a request over the request limit is refused before
// anything runs, as too long for the model (extract splits such a range).
func TestRequestLimit(t *testing.T) {
	lim := Limit{Bytes: 1000, Setting: "yoimem.llm.maxRequestBytes"}
	marker := filepath.Join(t.TempDir(), "ran")
	req := userRequest(strings.Repeat("w", 2000))
	for _, p := range []Provider{
		openCommand(t, `touch "`+marker+`"; cat >/dev/null; echo hi`, Options{MaxRequest: lim}),
		openBridge(t, "anthropic:claude-test", answering(`{"response":{"text":"hi"}}`), Options{MaxRequest: lim}),
	} {
		_, err := p.Call(quick(t), req)
		e := wantKind(t, err, ErrContextLength)
		if !strings.Contains(e.Message, "the request is 2,") || !strings.Contains(e.Message, "over the limit of 1,000 (yoimem.llm.maxRequestBytes)") {
			t.Errorf("%s: message %q", p.Name(), e.Message)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran")
	}
}

// TestRepairTooLarge: an invalid reply whose repair request (which echoes
// it) would be over the request limit is not sent back: the call fails.
func TestRepairTooLarge(t *testing.T) {
	lim := Limit{Bytes: 4000, Setting: "yoimem.llm.maxRequestBytes"}
	count := filepath.Join(t.TempDir(), "calls")
	body := `cat >/dev/null; echo x >> "` + count + `"; head -c 5000 /dev/zero | tr '\0' a`
	req := userRequest("transcript")
	req.Schema = memorySchema()
	_, err := openCommand(t, body, Options{MaxRequest: lim}).Call(quick(t), req)
	e := wantKind(t, err, ErrInvalidOutput)
	if !strings.Contains(e.Message, "repair request would be too large") {
		t.Errorf("message %q", e.Message)
	}
	if b, _ := os.ReadFile(count); string(b) != "x\n" {
		t.Errorf("the model ran %d times, want once", strings.Count(string(b), "x"))
	}
}

// TestBridgeAnswerLimit: a helper answering without end is stopped at
// the reply limit.
func TestBridgeAnswerLimit(t *testing.T) {
	helper := filepath.Join(t.TempDir(), "helper")
	if err := os.WriteFile(helper, []byte("#!/bin/sh\ncat >/dev/null\nexec cat /dev/zero\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := openBridge(t, "openai:gpt-test", OSExec{}, Options{APIHelper: helper, MaxReply: replyLimit})
	_, err := p.Call(quick(t), userRequest("hi"))
	e := wantKind(t, err, ErrTooLarge)
	if !strings.Contains(e.Message, "answer is more than 1,048,576 bytes") || !strings.Contains(e.Message, "yoimem.llm.maxReplyBytes") {
		t.Errorf("message %q", e.Message)
	}
	var x *Error
	if !errors.As(err, &x) || x.Provider != "openai" {
		t.Errorf("error %v", err)
	}
}
