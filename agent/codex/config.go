package codex

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// MCPServer is the name our server has in config.toml's [mcp_servers].
const MCPServer = "yoimem"

// ConfigOptions says what MergeConfig adds to config.toml.
type ConfigOptions struct {
	// Write registers `git yoimem mcp --write` (the memory tools may
	// write) rather than the read-only `git yoimem mcp`.
	Write bool
	// Notify also sets notify, for a Codex without hooks: Codex then runs
	// `git yoimem hook codex notify <payload>` after each turn.
	Notify bool
}

// NotifyArgv is the notify command we set: Codex appends the payload.
var NotifyArgv = []string{"git", "yoimem", "hook", "codex", "notify"}

// NotifyTakenError is a config.toml whose notify is the user's own:
// Codex runs one notify command, and we do not replace it.
type NotifyTakenError struct {
	Existing []string // the user's command, when it is a list of strings
	Value    any      // notify as decoded
}

func (e *NotifyTakenError) Error() string {
	return fmt.Sprintf("config.toml already has notify = %s, the user's own, and Codex runs one notify command: "+
		"have it also run `%s '<payload>'` (the payload is its last argument), or use Codex's hooks instead",
		tomlValue(e.Value), strings.Join(NotifyArgv, " "))
}

// The comment lines that begin what we add: Unmerge takes out exactly
// these blocks, so the user's own lines are never touched.
const (
	mcpComment    = "# git-yoimem's memory tools (added by git yoimem install; git yoimem uninstall removes this table)"
	notifyComment = "# git-yoimem: extract memory after each turn (added by git yoimem install; git yoimem uninstall removes it)"
)

func serverBlock(write bool, nl string) string {
	return mcpComment + nl + "[mcp_servers." + MCPServer + "]" + nl + `command = "git"` + nl +
		"args = " + tomlValue(toAny(mcpArgs(write))) + nl
}

func notifyBlock(nl string) string {
	return notifyComment + nl + "notify = " + tomlValue(toAny(NotifyArgv)) + nl
}

func mcpArgs(write bool) []string {
	if write {
		return []string{"yoimem", "mcp", "--write"}
	}
	return []string{"yoimem", "mcp"}
}

// MergeConfig adds our MCP server to the content of a Codex config.toml
// ($CODEX_HOME/config.toml, or a project's .codex/config.toml, which
// Codex reads only for a project the user trusts: [projects."<path>"]
// trust_level = "trusted" in their own config; seen with Codex 0.169) as
// [mcp_servers.yoimem] at the end, or switches its --write; with Notify
// it also sets notify, before the first table (a top-level key). It edits
// text: every other byte (comments, order, blank lines, CRLF) is kept.
// Merging twice is merging once. Content that is not TOML is an error
// naming the line; a server named yoimem that is not ours is an error;
// the user's own notify is a *NotifyTakenError. The result is checked to
// parse and to hold the old values plus exactly ours.
func MergeConfig(old []byte, opts ConfigOptions) ([]byte, error) {
	v, err := parseConfig(old)
	if err != nil {
		return nil, err
	}
	nl := newline(old)
	b, err := mergeServer(bytes.Clone(old), v, opts.Write, nl)
	if err != nil {
		return nil, err
	}
	if opts.Notify {
		if b, err = mergeNotify(b, v, nl); err != nil {
			return nil, err
		}
	}
	if err := checkMerged(old, b, opts); err != nil {
		return nil, err
	}
	return b, nil
}

func mergeServer(b []byte, v map[string]any, write bool, nl string) ([]byte, error) {
	servers, _ := v["mcp_servers"].(map[string]any)
	cur, ok := servers[MCPServer]
	if !ok && inlineServers().Match(b) {
		// TOML (and Codex's parser) cannot add a table to an inline one
		return nil, errors.New("config.toml: mcp_servers is written as one inline table (mcp_servers = {…}); write its servers as [mcp_servers.<name>] tables to install ours")
	}
	if !ok {
		if len(b) == 0 {
			return []byte(serverBlock(write, nl)), nil
		}
		return append(append(b, nl...), serverBlock(write, nl)...), nil
	}
	isWrite, ours := ourServer(cur)
	switch {
	case !ours:
		return nil, fmt.Errorf("config.toml: [mcp_servers.%s] is already a server that is not git-yoimem's (%s); rename it to install ours", MCPServer, tomlValue(cur))
	case isWrite == write:
		return b, nil
	}
	at := blockAt(b, serverBlock(isWrite, nl))
	if at < 0 {
		return nil, fmt.Errorf("config.toml: [mcp_servers.%s] runs git %s, written by hand; set its args to %s yourself or remove the table to let install write it",
			MCPServer, strings.Join(mcpArgs(isWrite), " "), tomlValue(toAny(mcpArgs(write))))
	}
	return slices.Concat(b[:at], []byte(serverBlock(write, nl)), b[at+len(serverBlock(isWrite, nl)):]), nil
}

func mergeNotify(b []byte, v map[string]any, nl string) ([]byte, error) {
	cur, ok := v["notify"]
	if ok {
		if isNotify(cur) {
			return b, nil
		}
		e := &NotifyTakenError{Value: cur}
		if s, ok := stringList(cur); ok {
			e.Existing = s
		}
		return nil, e
	}
	at := bomLen(b)
	if len(b) == at {
		return slices.Concat(b[:at], []byte(notifyBlock(nl))), nil
	}
	return slices.Concat(b[:at], []byte(notifyBlock(nl)+nl), b[at:]), nil
}

// UnmergeConfig takes out of config.toml content exactly what
// MergeConfig added: our [mcp_servers.yoimem] and notify blocks, with
// the line ends put before them. A server or notify that is ours in
// meaning but written by the user stays. Everything else keeps its
// bytes.
func UnmergeConfig(old []byte) ([]byte, error) {
	if _, err := parseConfig(old); err != nil {
		return nil, err
	}
	nl := newline(old)
	b := bytes.Clone(old)
	for _, write := range []bool{false, true} {
		block := serverBlock(write, nl)
		if at := blockAt(b, block); at >= 0 {
			head := b[:at]
			if at > 0 {
				head = bytes.TrimSuffix(head, []byte(nl))
			}
			b = slices.Concat(head, b[at+len(block):])
		}
	}
	if at := blockAt(b, notifyBlock(nl)); at >= 0 || bytes.HasPrefix(b[bomLen(b):], []byte(notifyBlock(nl))) {
		at = max(at, bomLen(b))
		rest := b[at+len(notifyBlock(nl)):]
		b = slices.Concat(b[:at], bytes.TrimPrefix(rest, []byte(nl)))
	}
	if _, err := parseConfig(b); err != nil {
		return nil, fmt.Errorf("config.toml without git-yoimem's entries: %w", err)
	}
	return b, nil
}

// blockAt is where block begins at a line start in b (the last one), or -1.
func blockAt(b []byte, block string) int {
	for end := len(b); ; {
		i := bytes.LastIndex(b[:end], []byte(block))
		if i <= 0 || b[i-1] == '\n' {
			return i
		}
		end = i
	}
}

// inlineServers finds mcp_servers given whole as a key's value. Compiled
// on first use, not at every command's start; a once-value, not mutable
// state.
var inlineServers = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*("mcp_servers"|'mcp_servers'|mcp_servers)[ \t]*=`)
})

func parseConfig(b []byte) (map[string]any, error) {
	v := map[string]any{}
	if _, err := toml.Decode(string(b), &v); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			// the line of the error's first byte: the parser counts a
			// newline that ends a bad line as the next line's
			line := pe.Position.Line
			if at := pe.Position.Start; at >= 0 && at <= len(b) {
				line = bytes.Count(b[:at], []byte("\n")) + 1
			}
			return nil, fmt.Errorf("config.toml is not valid TOML at line %d: %s", line, pe.Message)
		}
		return nil, fmt.Errorf("config.toml is not valid TOML: %w", err)
	}
	return v, nil
}

// checkMerged: merged parses and holds old's values plus exactly ours.
func checkMerged(old, merged []byte, opts ConfigOptions) error {
	got, err := parseConfig(merged)
	if err != nil {
		return fmt.Errorf("config.toml with [mcp_servers.%s] added does not parse (%w); if mcp_servers is an inline table, write it as [mcp_servers.<name>] tables", MCPServer, err)
	}
	want, _ := parseConfig(old)
	servers, ok := want["mcp_servers"].(map[string]any)
	if !ok {
		servers = map[string]any{}
		want["mcp_servers"] = servers
	}
	servers[MCPServer] = map[string]any{"command": "git", "args": toAny(mcpArgs(opts.Write))}
	if opts.Notify {
		want["notify"] = toAny(NotifyArgv)
	}
	if !reflect.DeepEqual(got, want) {
		return errors.New("config.toml: adding git-yoimem's entries would change other values (mcp_servers or notify written in a way the merge does not handle); add them by hand")
	}
	return nil
}

// ourServer tells whether a decoded server is ours, and whether --write.
func ourServer(v any) (write, ok bool) {
	m, _ := v.(map[string]any)
	args, _ := stringList(m["args"])
	if len(m) != 2 || m["command"] != "git" {
		return false, false
	}
	switch {
	case slices.Equal(args, mcpArgs(false)):
		return false, true
	case slices.Equal(args, mcpArgs(true)):
		return true, true
	}
	return false, false
}

func isNotify(v any) bool {
	s, ok := stringList(v)
	return ok && slices.Equal(s, NotifyArgv)
}

// stringList is a decoded TOML array of strings as a []string.
func stringList(v any) ([]string, bool) {
	a, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(a))
	for i, e := range a {
		if out[i], ok = e.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// tomlValue writes a decoded value for a message or a line we add:
// strings quoted, arrays in brackets.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = tomlValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// newline is the line end to write in b: CRLF when b has one, or ends
// in a carriage return that a bare LF would make one.
func newline(b []byte) string {
	if bytes.Contains(b, []byte("\r\n")) || bytes.HasSuffix(b, []byte("\r")) {
		return "\r\n"
	}
	return "\n"
}

func bomLen(b []byte) int {
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		return 3
	}
	return 0
}

// HasNotify tells whether config.toml content sets notify to our
// command.
func HasNotify(b []byte) bool {
	v, err := parseConfig(b)
	return err == nil && isNotify(v["notify"])
}
