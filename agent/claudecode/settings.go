package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Hook events we register, in the order they are written, with the
// argument of `git yoimem hook claude-code <event>`.
var hookEvents = []struct{ Name, Arg string }{
	{"SessionStart", "session-start"},
	{"UserPromptSubmit", "user-prompt-submit"},
	{"PreToolUse", "pre-tool-use"},
	{"Stop", "stop"},
	{"PreCompact", "pre-compact"},
	{"SessionEnd", "session-end"},
}

// ToolMatcher is the PreToolUse matcher: the tools GuardTool checks.
const ToolMatcher = "Write|Edit|MultiEdit|NotebookEdit|Bash"

// DefaultCommand runs git-yoimem from the hooks.
const DefaultCommand = "git yoimem"

// SettingsOptions says how our hooks are written.
type SettingsOptions struct {
	// Command is how a hook runs git-yoimem (DefaultCommand when empty),
	// e.g. a full path to git-yoimem.
	Command string
}

// HookCommand is the command line a hook for a Claude Code event runs.
func HookCommand(command, arg string) string {
	if command == "" {
		command = DefaultCommand
	}
	return command + " hook claude-code " + arg
}

func group(event, cmd string) []kv {
	var g []kv
	if event == "PreToolUse" {
		g = append(g, kv{"matcher", ToolMatcher})
	}
	return append(g, kv{"hooks", []any{[]kv{{"type", "command"}, {"command", cmd}}}})
}

// ours tells whether a matcher group (its JSON text) is one of ours: its
// handlers all run `… hook claude-code <event>` of git-yoimem.
func ours(text []byte, arg string) bool {
	var g map[string]json.RawMessage
	if json.Unmarshal(text, &g) != nil {
		return false
	}
	for k := range g {
		if k != "matcher" && k != "hooks" {
			return false
		}
	}
	var hs []map[string]any
	if json.Unmarshal(g["hooks"], &hs) != nil || len(hs) == 0 {
		return false
	}
	for _, h := range hs {
		cmd, _ := h["command"].(string)
		if len(h) != 2 || h["type"] != "command" || !isOurCommand(cmd, arg) {
			return false
		}
	}
	return true
}

func isOurCommand(cmd, arg string) bool {
	base, ok := strings.CutSuffix(cmd, " hook claude-code "+arg)
	return ok && strings.Contains(base, "yoimem")
}

func open(old []byte) (*doc, error) {
	b := old
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}\n")
	}
	if _, err := parseDoc(b); err != nil {
		return nil, err
	}
	return &doc{b: append([]byte(nil), b...), st: detectStyle(b)}, nil
}

// MergeSettings adds our hooks to the content of a Claude Code settings
// file (.claude/settings.json, settings.local.json, ~/.claude/settings.json):
// one matcher group per event, running `git yoimem hook claude-code
// <event>`, after the user's own. Nothing else changes: the user's
// entries, key order, indentation and spacing keep their bytes. Merging
// twice is merging once. Empty content is an empty object. Content that
// is not a JSON object (comments are not JSON) is an error naming the
// problem; the caller writes nothing then.
func MergeSettings(old []byte, opts SettingsOptions) ([]byte, error) {
	d, err := open(old)
	if err != nil {
		return nil, err
	}
	root := d.root()
	_, hooks := root.member("hooks")
	if hooks == nil {
		var all []kv
		for _, e := range hookEvents {
			all = append(all, kv{e.Name, []any{group(e.Name, HookCommand(opts.Command, e.Arg))}})
		}
		key := "hooks"
		d.add(root, &key, all, true)
		return d.b, nil
	}
	if hooks.kind != '{' {
		return nil, fmt.Errorf(`"hooks" is not a JSON object`)
	}
	for _, e := range hookEvents {
		_, hooks = d.root().member("hooks")
		g := group(e.Name, HookCommand(opts.Command, e.Arg))
		_, arr := hooks.member(e.Name)
		switch {
		case arr == nil:
			key := e.Name
			d.add(hooks, &key, []any{g}, false)
		case arr.kind != '[':
			return nil, fmt.Errorf(`"hooks"."%s" is not a JSON array`, e.Name)
		case !d.hasOurs(arr, e.Arg):
			d.add(arr, nil, g, false)
		}
	}
	return d.b, nil
}

func (d *doc) hasOurs(arr *node, arg string) bool {
	for _, it := range arr.items {
		if ours(d.b[it.val.start:it.val.end], arg) {
			return true
		}
	}
	return false
}

// UnmergeSettings takes out of settings content exactly what
// MergeSettings added: our matcher groups, and the keys it created for
// them. Everything else keeps its bytes. Content without our hooks is
// returned unchanged.
func UnmergeSettings(old []byte) ([]byte, error) {
	d, err := open(old)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(old)) == 0 {
		return old, nil
	}
	root := d.root()
	hi, hooks := root.member("hooks")
	if hooks == nil || hooks.kind != '{' {
		return old, nil
	}
	if v, ok := d.onlyOurs(hooks); ok && d.created(root, hi, "hooks", v) {
		d.remove(root, hi, true)
		return d.b, nil
	}
	for _, e := range hookEvents {
		for {
			_, hooks = d.root().member("hooks")
			ei, arr := hooks.member(e.Name)
			if arr == nil || arr.kind != '[' {
				break
			}
			if len(arr.items) == 1 && ours(d.b[arr.items[0].val.start:arr.items[0].val.end], e.Arg) &&
				d.created(hooks, ei, e.Name, []any{d.groupAsWritten(arr.items[0].val)}) {
				d.remove(hooks, ei, false)
				break
			}
			i := d.ourIndex(arr, e.Arg)
			if i < 0 {
				break
			}
			d.remove(arr, i, false)
		}
	}
	return d.b, nil
}

func (d *doc) ourIndex(arr *node, arg string) int {
	for i := len(arr.items) - 1; i >= 0; i-- {
		if ours(d.b[arr.items[i].val.start:arr.items[i].val.end], arg) {
			return i
		}
	}
	return -1
}

// groupAsWritten is one of our groups as values, to render it as add
// would have (the command as found, which may name another git-yoimem).
func (d *doc) groupAsWritten(n *node) []kv {
	var g struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	_ = json.Unmarshal(d.b[n.start:n.end], &g)
	var out []kv
	if g.Matcher != nil {
		out = append(out, kv{"matcher", *g.Matcher})
	}
	var hs []any
	for _, h := range g.Hooks {
		hs = append(hs, []kv{{"type", "command"}, {"command", h.Command}})
	}
	return append(out, kv{"hooks", hs})
}

// onlyOurs tells whether a hooks object holds our groups only, one per
// event, in our order, and returns it as values.
func (d *doc) onlyOurs(hooks *node) ([]kv, bool) {
	if len(hooks.items) != len(hookEvents) {
		return nil, false
	}
	var v []kv
	for i, e := range hookEvents {
		it := hooks.items[i]
		if it.key != e.Name || it.val.kind != '[' || len(it.val.items) != 1 {
			return nil, false
		}
		g := it.val.items[0].val
		if !ours(d.b[g.start:g.end], e.Arg) {
			return nil, false
		}
		v = append(v, kv{e.Name, []any{d.groupAsWritten(g)}})
	}
	return v, true
}
