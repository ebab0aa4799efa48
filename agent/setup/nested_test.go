package setup

import (
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent/claudecode"
)

// TestEditProjectRoundTrip: the MCP server merged into projects["/p"] of
// ~/.claude.json in every shape Claude Code (or a person) leaves it, and
// taken out again to the same bytes; nothing outside the entry changes.
func TestEditProjectRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string // want: a line the merge must write
	}{
		{"no mcpServers", "{\n  \"projects\": {\n    \"/p\": {\n      \"allowedTools\": []\n    }\n  }\n}\n", "\n      \"mcpServers\": {\n        \"yoimem\": {\n          \"type\": \"stdio\","},
		{"empty mcpServers", "{\n  \"projects\": {\n    \"/p\": {\n      \"mcpServers\": {}\n    }\n  }\n}\n", `"mcpServers": { "yoimem": {"type": "stdio", "command": "git", "args": ["yoimem", "mcp"]}}`},
		{"empty entry", "{\n  \"projects\": {\n    \"/p\": {}\n  }\n}\n", "\n    \"/p\": {\n      \"mcpServers\": {\n        \"yoimem\": {\n"},
		{"one line", `{"projects":{"/q":{},"/p":{"a":1}},"x":[1,2]}`, `"/p":{"a":1,"mcpServers":{"yoimem":{"type":"stdio","command":"git","args":["yoimem","mcp"]}}}`},
		{"tabs", "{\n\t\"projects\": {\n\t\t\"/p\": {\n\t\t\t\"a\": 1\n\t\t}\n\t}\n}\n", "\n\t\t\t\"mcpServers\": {\n\t\t\t\t\"yoimem\": {\n"},
		{"duplicate key: the last is JSON.parse's", "{\"projects\": {\"/p\": {\"old\": 1}, \"/p\": {\"new\": 1}}}", `"/p": {"old": 1}, "/p": {"new": 1,"mcpServers": {"yoimem": {`},
		{"CRLF", "{\r\n  \"projects\": {\r\n    \"/p\": {\r\n      \"a\": 1\r\n    }\r\n  }\r\n}\r\n", "\r\n      \"mcpServers\": {\r\n        \"yoimem\": {\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			merge := func(sub []byte) ([]byte, error) { return claudecode.MergeMCP(sub, false) }
			got, err := editProject([]byte(tc.doc), "/p", true, merge)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("merged:\n%s\nwant it to hold\n%s", got, tc.want)
			}
			again, err := editProject(got, "/p", true, merge)
			if err != nil || string(again) != string(got) {
				t.Errorf("merging twice changed it (%v):\n%s", err, again)
			}
			back, err := editProject(got, "/p", false, claudecode.UnmergeMCP)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != tc.doc {
				t.Errorf("unmerged:\n%q\nwant\n%q", back, tc.doc)
			}
		})
	}
}

func TestEditProjectErrors(t *testing.T) {
	merge := func(sub []byte) ([]byte, error) { return claudecode.MergeMCP(sub, false) }
	for _, tc := range []struct{ name, doc, want string }{
		{"no file", "", "no entry for this project"},
		{"no projects", `{"a": 1}`, "no entry for this project"},
		{"other projects only", `{"projects": {"/q": {}}}`, "no entry for this project"},
		{"not JSON", `{"projects": }`, "not valid JSON"},
		{"projects not an object", `{"projects": []}`, `"projects" is not a JSON object`},
		{"entry not an object", `{"projects": {"/p": 1}}`, `projects["/p"] is not a JSON object`},
		{"a server of ours' name that is not ours", `{"projects": {"/p": {"mcpServers": {"yoimem": {"command": "x"}}}}}`, `projects["/p"]: "mcpServers"."yoimem" is already a server`},
		{"top not an object", `[1]`, "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := editProject([]byte(tc.doc), "/p", true, merge)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(tc.want, "no entry") && !errors.Is(err, ErrNoProjectEntry) {
				t.Errorf("err %v is not ErrNoProjectEntry", err)
			}
			out, err := editProject([]byte(tc.doc), "/p", false, claudecode.UnmergeMCP)
			if strings.Contains(tc.want, "no entry") && (err != nil || string(out) != tc.doc) {
				t.Errorf("unmerge without an entry: %q, %v; want it unchanged", out, err)
			}
		})
	}
}
