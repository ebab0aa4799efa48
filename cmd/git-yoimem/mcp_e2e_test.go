package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/internal/fixture"
)

// TestMCPOverStdio drives the built binary (this test binary run as
// git-yoimem, as testscript does) over stdio with the SDK's client.
func TestMCPOverStdio(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := sampleRepo(t)
	bin := filepath.Join(t.TempDir(), "git-yoimem")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp")
	cmd.Dir, cmd.Env = dir, fixture.Env(home)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "knowledge_search memory_read memory_search" {
		t.Fatalf("tools over stdio: %v", names)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "knowledge_search", Arguments: map[string]any{"query": "wal"}})
	if err != nil || res.IsError {
		t.Fatalf("knowledge_search: %v %+v", err, res)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !strings.Contains(text, `"slug":"sqlite-pragmas"`) {
		t.Fatalf("result: %s", text)
	}
}

// mcpBinary runs `git-yoimem args...` (this test binary under that name)
// in dir with input on stdin, and returns what it wrote and its exit code.
func mcpBinary(t *testing.T, dir, home string, input []byte, args ...string) (stdout []byte, stderr string, code int) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "git-yoimem")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, fixture.Env(home)
	cmd.Stdin = bytes.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("git-yoimem %v did not end: %v\nstderr: %s", args, err, errb.String())
	}
	return out.Bytes(), errb.String(), cmd.ProcessState.ExitCode()
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func rpcReplies(t *testing.T, out []byte) map[string][]rpcReply {
	t.Helper()
	got := map[string][]rpcReply{}
	for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if len(out) == 0 {
			break
		}
		var r rpcReply
		if err := json.Unmarshal(line, &r); err != nil || r.ID == nil {
			t.Fatalf("not a JSON-RPC response: %q (%v)", line, err)
		}
		got[string(r.ID)] = append(got[string(r.ID)], r)
	}
	return got
}

const (
	mcpInit   = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	mcpSearch = `{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"wal"}}}` + "\n"
)

// TestMCPBadInputOverStdio sends the binary every malformed line of the
// issue, each followed by a valid request: each bad line is answered with
// a JSON-RPC error, each request after it is served, and the server ends
// with its input, exit 0.
func TestMCPBadInputOverStdio(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := sampleRepo(t)
	bad := []struct {
		line string
		code int
	}{
		{`not json`, -32700},
		{`{`, -32700},
		{`[]`, -32600},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600},
		{`{"jsonrpc":"1.0","id":2,"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600},
		{"\x00\x00", -32700},
		{"\xff\xfe", -32700},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"` + strings.Repeat("a", 17<<20) + `"}}}`, -32600},
	}
	var in bytes.Buffer
	in.WriteString(mcpInit)
	for i, b := range bad {
		in.WriteString(b.line + "\n")
		fmt.Fprintf(&in, mcpSearch, fmt.Sprint("after-", i))
	}
	out, stderr, code := mcpBinary(t, dir, home, in.Bytes(), "mcp")
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	got := rpcReplies(t, out)
	for i := range bad {
		r := got[fmt.Sprintf(`"after-%d"`, i)]
		if len(r) != 1 || r[0].Error != nil || !strings.Contains(string(r[0].Result), "sqlite-pragmas") {
			t.Errorf("request after bad line %d not served: %+v", i, r)
		}
	}
	// the bad lines' replies carry a null id, except jsonrpc 1.0's
	var codes []int
	for _, r := range append(got["null"], got["2"]...) {
		codes = append(codes, r.Error.Code)
	}
	var want []int
	for _, b := range bad {
		want = append(want, b.code)
	}
	if fmt.Sprint(sorted(codes)) != fmt.Sprint(sorted(want)) {
		t.Fatalf("error codes %v, want %v\n%s", codes, want, out)
	}
}

func sorted(v []int) []int {
	v = append([]int(nil), v...)
	sort.Ints(v)
	return v
}

// TestMCPWriteThenEndOfInput: a memory_write, or several, immediately
// followed by the end of input are done and answered before exit 0.
func TestMCPWriteThenEndOfInput(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	const content = "---\nkind: rule\ndescription: d\nmodel_invokation: false\nuser_invocable: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\nBody %d.\n"
	write := func(i int) string {
		args, _ := json.Marshal(map[string]any{"path": fmt.Sprintf("knowledge/new-%d.md", i), "content": fmt.Sprintf(content, i), "create": true})
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_write","arguments":%s}}`+"\n", i, args)
	}
	for _, n := range []int{1, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir, home := sampleRepo(t)
			input := mcpInit
			for i := range n {
				input += write(i)
			}
			out, stderr, code := mcpBinary(t, dir, home, []byte(input), "mcp", "--write")
			if code != 0 {
				t.Fatalf("exit %d, stderr: %s", code, stderr)
			}
			got := rpcReplies(t, out)
			for i := range n {
				r := got[fmt.Sprint(i)]
				if len(r) != 1 || r[0].Error != nil || strings.Contains(string(r[0].Result), `"isError":true`) {
					t.Errorf("write %d not answered or refused: %+v\n%s", i, r, out)
				}
				b, err := os.ReadFile(filepath.Join(dir, ".yoi", "knowledge", fmt.Sprintf("new-%d.md", i)))
				if err != nil || string(b) != fmt.Sprintf(content, i) {
					t.Errorf("write %d not done: %v", i, err)
				}
			}
		})
	}
}

// TestMCPInterrupted: an interrupt stops the server with 130 and says so,
// like every command.
func TestMCPInterrupted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := sampleRepo(t)
	env, _, stderr := testEnv(t, dir, home)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	env.Stdin, env.Stdout = inR, outW
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"git-yoimem", "mcp"}, env) }()
	go io.WriteString(inW, mcpInit)
	if _, err := bufio.NewReader(outR).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, outR)
	cancel()
	select {
	case c := <-code:
		if c != exitInterrupt || stderr.String() != "git-yoimem: interrupted\n" {
			t.Fatalf("exit %d, stderr %q", c, stderr)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// TestMCPLongLineMemory streams a 512 MiB line into the server: it is
// refused with its real size and skipped without being held, so the
// server's peak RSS stays under 256 MiB (the bound; 65-100 MiB
// measured, much of it this test binary), and the request after it is
// served.
func TestMCPLongLineMemory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage")
	}
	const size = 512 << 20
	dir, home := sampleRepo(t)
	bin := filepath.Join(t.TempDir(), "git-yoimem")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp")
	cmd.Dir, cmd.Env = dir, fixture.Env(home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = io.MultiReader(
		strings.NewReader(mcpInit+`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"`),
		io.LimitReader(repeatByte('a'), size),
		strings.NewReader(`"}}}`+"\n"+fmt.Sprintf(mcpSearch, "after")),
	)
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstderr: %s", err, errb.String())
	}
	got := rpcReplies(t, out.Bytes())
	if r := got[`"after"`]; len(r) != 1 || r[0].Error != nil {
		t.Fatalf("request after the long line: %+v", r)
	}
	want := fmt.Sprintf("invalid request: message is %s bytes, over the limit of 16,777,216 (--max-message-bytes)", commaInt(size+len(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":""}}}`)))
	if r := got["null"]; len(r) != 1 || r[0].Error == nil || r[0].Error.Message != want {
		t.Fatalf("long line: %+v, want %q", r, want)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("peak RSS %d MiB reading a %d MiB line", rss>>20, size>>20)
	if rss > 256<<20 {
		t.Fatalf("peak RSS %d MiB reading a %d MiB line", rss>>20, size>>20)
	}
}

type repeatByte byte

func (b repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func commaInt(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
