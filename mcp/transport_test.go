package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
)

const (
	initLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initedLn = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	// afterLine is the valid request every bad input is followed by.
	afterLine = `{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"retry"}}}`
)

// reply is one line the server wrote, decoded.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	hasID bool
}

// serve runs the real server over input until input ends and returns
// every line it wrote. It fails the test when the server does not end.
func serve(t testing.TB, store memory.Store, write bool, max int, input string) ([]reply, error) {
	t.Helper()
	var out bytes.Buffer
	err := runServer(t, store, write, max, strings.NewReader(input), &out)
	return parseReplies(t, out.Bytes()), err
}

func runServer(t testing.TB, store memory.Store, write bool, max int, in io.Reader, out io.Writer) error {
	t.Helper()
	srv := NewServer(&memory.Tools{Store: store, Lint: lint.DefaultOptions()}, Options{Write: write, Search: memory.Options{ExcerptLines: 1}, Version: "test"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, testTransport(in, out, max)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		t.Fatalf("server did not end within the time allowed")
		return nil
	}
}

func testTransport(in io.Reader, out io.Writer, max int) sdk.Transport {
	return &Transport{In: in, Out: out, MaxMessageBytes: max}
}

func parseReplies(t testing.TB, out []byte) []reply {
	t.Helper()
	var rs []reply
	for _, line := range bytes.Split(out, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r reply
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("server wrote a line that is not JSON: %q (%v)", line, err)
		}
		var keys map[string]json.RawMessage
		_ = json.Unmarshal(line, &keys)
		_, r.hasID = keys["id"]
		_, notification := keys["method"]
		switch {
		case r.JSONRPC == "2.0" && notification && !r.hasID:
			continue // a notification of the server's
		case r.JSONRPC != "2.0" || !r.hasID || (r.Result == nil) == (r.Error == nil):
			t.Fatalf("server wrote a line that is not a JSON-RPC 2.0 response: %s", line)
		}
		rs = append(rs, r)
	}
	return rs
}

// syncStore is the tools' MapStore (safe for the concurrent tool calls
// the server makes) with a reader for the tests.
type syncStore struct{ *memory.MapStore }

func newStore() *syncStore {
	return &syncStore{&memory.MapStore{Files: map[string][]byte{"knowledge/retry-policy.md": []byte(rec)}}}
}

func (s *syncStore) get(path string) string {
	snap, err := s.Snapshot()
	if err != nil {
		return ""
	}
	b, err := snap.Read(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// byID returns the replies carrying id (its JSON text).
func byID(rs []reply, id string) []reply {
	var got []reply
	for _, r := range rs {
		if string(r.ID) == id {
			got = append(got, r)
		}
	}
	return got
}

func TestBadInputIsAnsweredAndServingGoesOn(t *testing.T) {
	const none = 0
	cases := []struct {
		name string
		line string
		code int    // the error expected, none for no reply at all
		id   string // the id it carries (JSON text)
	}{
		{"not json", `not json`, -32700, `null`},
		{"open brace", `{`, -32700, `null`},
		{"empty batch", `[]`, -32600, `null`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, `null`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, -32600, `2`},
		{"no jsonrpc", `{"id":"x","method":"ping"}`, -32600, `"x"`},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":3,"method":"ping"}`, -32600, `3`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, `null`},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, `null`},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, `null`},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, `null`},
		{"fraction id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, `null`},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, `null`},
		{"id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, `null`},
		{"1e400 in arguments", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":1e400}}}`, -1, `4`},
		{"1e400 in params", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":1e400}}`, -1, `5`},
		{"NUL byte", "\x00", -32700, `null`},
		{"NUL after message", `{"jsonrpc":"2.0","id":6,"method":"ping"}` + "\x00", -32700, `null`},
		{"NUL in string", `{"jsonrpc":"2.0","id":"a` + "\x00" + `","method":"ping"}`, -32700, `null`},
		{"0xFF byte", "\xff", -32700, `null`},
		{"0xFF in string", `{"jsonrpc":"2.0","id":"a` + "\xff" + `","method":"ping"}`, -32700, `null`},
		{"number", `42`, -32600, `null`},
		{"string", `"ping"`, -32600, `null`},
		{"null", `null`, -32600, `null`},
		{"empty object", `{}`, -32600, `null`},
		{"two values", `{"jsonrpc":"2.0","id":7,"method":"ping"} {"jsonrpc":"2.0","id":8,"method":"ping"}`, -32700, `null`},
		{"method not a string", `{"jsonrpc":"2.0","id":9,"method":1}`, -32600, `9`},
		{"params a string", `{"jsonrpc":"2.0","id":10,"method":"ping","params":"x"}`, -32600, `10`},
		{"notification with bad params", `{"jsonrpc":"2.0","method":"notifications/initialized","params":1}`, -32600, `null`},
		{"deep nesting", `{"jsonrpc":"2.0","id":11,"method":"ping","params":{"a":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}`, -1, `11`},
		{"blank line", ``, none, ``},
		{"spaces", "  \t ", none, ``},
		{"CRLF", `{"jsonrpc":"2.0","id":12,"method":"ping"}` + "\r", -1, `12`},
		// other input paths: answered or ignored per JSON-RPC
		{"unknown method", `{"jsonrpc":"2.0","id":13,"method":"nope/nope"}`, -32601, `13`},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/nope"}`, none, ``},
		{"notification with an id", `{"jsonrpc":"2.0","id":14,"method":"notifications/initialized"}`, -32600, `14`},
		{"response never asked for", `{"jsonrpc":"2.0","id":99,"result":{}}`, none, ``},
		{"error response never asked for", `{"jsonrpc":"2.0","id":98,"error":{"code":-32000,"message":"x"}}`, none, ``},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, none, ``},
		{"error response with null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, none, ``},
		{"arguments of the wrong type", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":5}}}`, -1, `15`},
		{"arguments not an object", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"knowledge_search","arguments":"retry"}}`, -1, `16`},
		{"params an array", `{"jsonrpc":"2.0","id":17,"method":"tools/call","params":["knowledge_search"]}`, -1, `17`},
		{"unknown tool", `{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, -1, `18`},
		{"huge arguments object", `{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"knowledge_search","arguments":{` + hugeObject(200000) + `"query":"retry"}}}`, -1, `19`},
		{"string id", `{"jsonrpc":"2.0","id":"s","method":"ping"}`, -1, `"s"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			input := initLine + "\n" + initedLn + "\n" + c.line + "\n" + afterLine + "\n"
			rs, err := serve(t, newStore(), false, 0, input)
			if err != nil {
				t.Fatalf("server ended with %v", err)
			}
			after := byID(rs, `"after"`)
			if len(after) != 1 || after[0].Error != nil || !strings.Contains(string(after[0].Result), "retry-policy") {
				t.Fatalf("the request after the bad input was not served: %+v", rs)
			}
			var others []reply
			for _, r := range rs {
				if s := string(r.ID); s != `"after"` && s != `"init"` {
					others = append(others, r)
				}
			}
			switch {
			case c.code == none:
				if len(others) != 0 {
					t.Fatalf("want no reply, got %+v", others)
				}
			case len(others) != 1 || string(others[0].ID) != c.id:
				t.Fatalf("want one reply with id %s, got %+v", c.id, others)
			case c.code > -1 && (others[0].Error == nil || others[0].Error.Code != c.code):
				t.Fatalf("want error %d, got %+v", c.code, others[0])
			case c.code > -1 && others[0].Error.Message == "":
				t.Fatalf("error without a message: %+v", others[0])
			}
		})
	}
}

func hugeObject(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	return b.String()
}

func TestMessageOverTheLimitIsRefused(t *testing.T) {
	const limit = 1 << 20
	long := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"` + strings.Repeat("a", 2*limit) + `"}}}`
	input := initLine + "\n" + long + "\n" + afterLine + "\n"
	rs, err := serve(t, newStore(), false, limit, input)
	if err != nil {
		t.Fatal(err)
	}
	if after := byID(rs, `"after"`); len(after) != 1 || after[0].Error != nil {
		t.Fatalf("the request after the long line was not served: %+v", rs)
	}
	refused := byID(rs, `null`)
	if len(refused) != 1 || refused[0].Error == nil || refused[0].Error.Code != -32600 {
		t.Fatalf("want one -32600 reply with a null id, got %+v", rs)
	}
	want := fmt.Sprintf("invalid request: message is %s bytes, over the limit of 1,048,576 (--max-message-bytes)", commas(int64(len(long))))
	if refused[0].Error.Message != want {
		t.Fatalf("message:\n got %q\nwant %q", refused[0].Error.Message, want)
	}
}

// With input closed, every request already read is handled and answered,
// and its write done, before the server ends.
func TestInputClosedFinishesQueuedRequests(t *testing.T) {
	record := func(slug string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":"w-%s","method":"tools/call","params":{"name":"memory_write","arguments":{"path":"knowledge/%s.md","content":%q,"create":true}}}`, slug, slug, rec)
	}
	for _, n := range []int{1, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			input := initLine + "\n" + initedLn + "\n"
			for i := range n {
				input += record(fmt.Sprintf("r%d", i)) + "\n"
			}
			// the last line ends without a newline
			input += `{"jsonrpc":"2.0","id":"edit","method":"tools/call","params":{"name":"memory_edit","arguments":{"path":"knowledge/retry-policy.md","old":"Retry twice.","new":"Retry once."}}}`
			store := newStore()
			rs, err := serve(t, store, true, 0, input)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				slug := fmt.Sprintf("r%d", i)
				got := byID(rs, `"w-`+slug+`"`)
				if len(got) != 1 || got[0].Error != nil || strings.Contains(string(got[0].Result), `"isError":true`) {
					t.Fatalf("write %s not answered or refused: %+v", slug, rs)
				}
				if store.get("knowledge/"+slug+".md") != rec {
					t.Fatalf("write %s not done", slug)
				}
			}
			if got := byID(rs, `"edit"`); len(got) != 1 || !strings.Contains(store.get("knowledge/retry-policy.md"), "Retry once.") {
				t.Fatalf("the edit read last was not done or not answered: %+v", rs)
			}
		})
	}
}

// A call whose id is already in use by a call in progress is refused with
// that id (the SDK would drop it unanswered); the first call still ends
// with its own answer.
func TestIDInUseIsRefused(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	srv := NewServer(&memory.Tools{Store: newStore(), Lint: lint.DefaultOptions()}, Options{
		Searcher: func(memory.Scope, memory.Query) (memory.Result, error) {
			started <- struct{}{}
			<-release
			return memory.Result{Hits: []memory.Hit{{Slug: "slow"}}}, nil
		},
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), testTransport(inR, outW, 0)) }()
	lines := bufio.NewScanner(outR)
	next := func() reply {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no reply: %v", lines.Err())
		}
		return parseReplies(t, lines.Bytes())[0]
	}
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(initLine)
	next()
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"x"}}}`)
	<-started
	send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if r := next(); string(r.ID) != "7" || r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "id 7 is already in use") {
		t.Fatalf("second call with id 7: %+v", r)
	}
	close(release)
	if r := next(); string(r.ID) != "7" || r.Error != nil || !strings.Contains(string(r.Result), "slow") {
		t.Fatalf("first call: %+v", r)
	}
	// the id is free again
	send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if r := next(); string(r.ID) != "7" || r.Error != nil {
		t.Fatalf("id 7 again: %+v %+v", r, r.Error)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// After Close, Read reports the end (never a nil message without an
// error) and nothing read afterwards is answered.
func TestReadAfterClose(t *testing.T) {
	inR, inW := io.Pipe()
	var out bytes.Buffer
	c, err := (&Transport{In: inR, Out: &out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	go io.WriteString(inW, "not json\n")
	for range c.(*conn).incoming {
		// the reader ends once it has read the line
	}
	for range 100 {
		if msg, err := c.Read(context.Background()); msg != nil || err != io.EOF {
			t.Fatalf("Read after Close: %v, %v", msg, err)
		}
	}
	inW.Close()
	if out.Len() != 0 {
		t.Fatalf("answered after Close: %s", out.String())
	}
}

// Requests before initialize, and an initialize with bad params, are
// answered with errors; the session can still be initialized.
func TestBeforeInitialize(t *testing.T) {
	input := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"retry"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":7}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":"x"}` + "\n" +
		initLine + "\n" + afterLine + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	rs, err := serve(t, newStore(), false, 0, input)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		r := byID(rs, id)
		if len(r) != 1 || r[0].Error == nil {
			t.Errorf("id %s: want an error, got %+v", id, r)
			continue
		}
		// a JSON-RPC error code (-32600 for a request out of turn), never 0
		if c := r[0].Error.Code; c > -32000 || c < -32768 {
			t.Errorf("id %s: error code %d (%s), want a JSON-RPC code", id, c, r[0].Error.Message)
		}
	}
	if r := byID(rs, `"after"`); len(r) != 1 || r[0].Error != nil {
		t.Fatalf("after initialize: %+v", rs)
	}
}
