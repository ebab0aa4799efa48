package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"unicode/utf8"
)

// FuzzServerInput feeds arbitrary lines to the real server, each followed
// by a ping of ours: the server never panics, ends when its input does
// (serve fails the test otherwise), writes only JSON-RPC responses, and
// answers every ping and every line that is a valid call with a response
// carrying its id.
func FuzzServerInput(f *testing.F) {
	for _, seed := range []string{
		`not json`, `{`, `[]`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, "\x00", "\xff",
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"retry"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_write","arguments":{"path":"knowledge/x.md","content":"x"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":5}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"check-1"}}`,
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}",
		string(bytes.Repeat([]byte("a"), 5000)),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in bytes.Buffer
		in.WriteString(initLine + "\n")
		lines := bytes.Split(data, []byte("\n"))
		for i, line := range lines {
			in.Write(line)
			fmt.Fprintf(&in, "\n"+`{"jsonrpc":"2.0","id":"check-%d","method":"ping"}`+"\n", i)
		}
		rs, err := serve(t, newStore(), true, 4096, in.String())
		if err != nil {
			t.Fatalf("server ended with %v", err)
		}
		for i, line := range lines {
			if id := fmt.Sprintf(`"check-%d"`, i); len(byID(rs, id)) == 0 {
				t.Fatalf("ping %s after line %q not answered", id, line)
			}
			if id, ok := validCall(line, 4096); ok && len(byID(rs, id)) == 0 {
				t.Fatalf("valid call %q not answered", line)
			}
		}
	})
}

// validCall reports whether line is a call the server must answer, and
// its id as JSON text; written apart from parseLine to check it.
func validCall(line []byte, max int) (string, bool) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > max || !utf8.Valid(line) {
		return "", false
	}
	var m struct {
		JSONRPC *string          `json:"jsonrpc"`
		ID      any              `json:"id"`
		Method  *string          `json:"method"`
		Params  *json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.JSONRPC == nil || *m.JSONRPC != "2.0" || m.Method == nil || *m.Method == "subscriptions/listen" {
		return "", false
	}
	if m.Params != nil {
		if p := bytes.TrimSpace(*m.Params); len(p) == 0 || (p[0] != '{' && p[0] != '[' && string(p) != "null") {
			return "", false
		}
	}
	switch id := m.ID.(type) {
	case string:
		b, _ := json.Marshal(id)
		return string(b), true
	case float64:
		if id != math.Trunc(id) || math.Abs(id) > 1<<53 {
			return "", false
		}
		return fmt.Sprint(int64(id)), true
	}
	return "", false
}
