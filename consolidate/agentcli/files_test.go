package agentcli

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/consolidate/agent"
)

// TestExpand: the placeholders are replaced wherever they occur in a
// word; other braces (TOML's inline tables) are left alone.
func TestExpand(t *testing.T) {
	f := runFiles{config: "/r/mcp.json", prompt: "/r/prompt.md"}
	got := expand([]string{"cli", "--mcp-config={mcp_config}", "{prompt_file}", "-c", "x.args=[\"--run\",\"{run_id}\"]", "-c", "x.env={A=\"b\"}", "{unknown}"}, f, "run-1")
	want := []string{"cli", "--mcp-config=/r/mcp.json", "/r/prompt.md", "-c", "x.args=[\"--run\",\"run-1\"]", "-c", "x.env={A=\"b\"}", "{unknown}"}
	if !slices.Equal(got, want) {
		t.Errorf("%q\nwant %q", got, want)
	}
}

// TestEnv: the CLI's environment has this run's variables once, an outer
// run's (a consolidation started from a run's CLI) replaced.
func TestEnv(t *testing.T) {
	e := Engine{Env: []string{"PATH=/bin", EnvToken + "=outer", EnvRunID + "=outer", "HOME=/h"}}
	got := e.env(runFiles{config: "/c", prompt: "/p"}, "run-1", "tok")
	want := []string{"PATH=/bin", "HOME=/h", EnvRunID + "=run-1", EnvToken + "=tok", EnvMCPConfig + "=/c", EnvPromptFile + "=/p"}
	if !slices.Equal(got, want) {
		t.Errorf("%q\nwant %q", got, want)
	}
}

// TestHello: what connects without a well-formed hello is answered with
// the reason and closed; nothing reaches the handler.
func TestHello(t *testing.T) {
	dir := t.TempDir()
	l, err := listen(dir, runID)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	handled := make(chan bool, 4)
	go l.serve(context.Background(), func(context.Context, net.Conn) { handled <- true })
	for _, c := range []struct{ hello, want string }{
		{"not json\n", "not JSON"},
		{`{"run_id":"` + runID + `","token":"` + strings.Repeat("0", 64) + `"}` + "\n", "wrong token"},
		{`{"run_id":"other","token":"x"}` + "\n", "not other"},
		{strings.Repeat("x", maxHello+10), "no hello line"},
	} {
		conn, err := net.Dial("unix", l.socket)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Write([]byte(c.hello)); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(conn).ReadString('\n')
		if !strings.Contains(line, c.want) || strings.Contains(line, `"ok"`) {
			t.Errorf("hello %.40q: answer %q; want %q", c.hello, line, c.want)
		}
		conn.Close()
	}
	select {
	case <-handled:
		t.Error("a refused connection reached the handler")
	default:
	}
	fi, err := os.Stat(l.addrFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("address file %v %v; want 0600", fi, err)
	}
}

// TestLogCall: each tool call is logged as "tool <name> [<target>]:
// <status>" and its answer; a long answer is cut on a character boundary
// with its size.
func TestLogCall(t *testing.T) {
	long := strings.Repeat("é", maxLoggedResult) // two bytes each: a cut at maxLoggedResult bytes falls between them or not
	for _, c := range []struct {
		name string
		r    agent.CallResult
		want string
	}{
		{"memory_read", agent.CallResult{Target: "e1", Content: "e1: staging entry\n"}, "tool memory_read e1: ok\ne1: staging entry\n"},
		{"report", agent.CallResult{Content: "Report received."}, "tool report: ok\nReport received.\n"},
		{"memory_write", agent.CallResult{Target: ".yoi/x.md", IsError: true, Content: "no"}, "tool memory_write .yoi/x.md: refused\nno\n"},
		{"memory_search", agent.CallResult{Target: "q", Content: long + "x"}, "tool memory_search q: ok\n" + long[:maxLoggedResult] + fmt.Sprintf("… (%d bytes)\n", len(long)+1)},
		{"memory_search", agent.CallResult{Target: "q", Content: "x" + long}, "tool memory_search q: ok\nx" + long[:maxLoggedResult-2] + fmt.Sprintf("… (%d bytes)\n", len(long)+1)},
	} {
		path := filepath.Join(t.TempDir(), "run.log")
		l, err := openLog(path)
		if err != nil {
			t.Fatal(err)
		}
		l.call(c.name, c.r)
		l.Close()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%s: logged %.200q…\nwant %.200q…", c.name, b, c.want)
		}
		if !utf8.Valid(b) {
			t.Errorf("%s: the log is not valid UTF-8", c.name)
		}
	}
}
