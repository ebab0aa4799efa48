package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/internal/jsonedit"
)

// Hook events we register, in the order they are written, with the
// argument of `git yoimem hook codex <event>`. Codex has no SessionEnd;
// its other events (PostToolUse, PermissionRequest, PostCompact,
// Subagent*, StopFailure) we do not act on.
var hookEvents = []struct{ Name, Arg string }{
	{"SessionStart", "session-start"},
	{"UserPromptSubmit", "user-prompt-submit"},
	{"PreToolUse", "pre-tool-use"},
	{"Stop", "stop"},
	{"PreCompact", "pre-compact"},
}

// ToolMatcher is the PreToolUse matcher: Codex's shell and its file tool,
// the calls GuardTool checks (Codex also matches apply_patch by the
// names Write and Edit).
const ToolMatcher = "Bash|apply_patch"

// DefaultCommand runs git-yoimem from the hooks.
const DefaultCommand = "git yoimem"

// HooksOptions says how our hooks are written.
type HooksOptions struct {
	// Command is how a hook runs git-yoimem (DefaultCommand when empty),
	// e.g. a full path to git-yoimem.
	Command string
}

// HookCommand is the command line a hook for a Codex event runs, arg
// being the event as `git yoimem hook codex` takes it (session-start,
// user-prompt-submit, pre-tool-use, stop, pre-compact, notify).
func HookCommand(command, arg string) string {
	if command == "" {
		command = DefaultCommand
	}
	return command + " hook codex " + arg
}

func group(event, cmd string) []jsonedit.KV {
	var g []jsonedit.KV
	if event == "PreToolUse" {
		g = append(g, jsonedit.KV{K: "matcher", V: ToolMatcher})
	}
	return append(g, jsonedit.KV{K: "hooks", V: []any{[]jsonedit.KV{{K: "type", V: "command"}, {K: "command", V: cmd}}}})
}

// ours tells whether a matcher group (its JSON text) is one of ours: its
// handlers all run `… hook codex <event>` of git-yoimem.
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
	base, ok := strings.CutSuffix(cmd, " hook codex "+arg)
	return ok && strings.Contains(base, "yoimem")
}

// MergeHooks adds our hooks to the content of a Codex hooks file
// (.codex/hooks.json in a project, ~/.codex/hooks.json for the user):
// one matcher group per event, running `git yoimem hook codex <event>`,
// after the user's own. Nothing else changes: the user's
// entries, key order, indentation and spacing keep their bytes. Merging
// twice is merging once. Empty content is an empty object. Content that
// is not a JSON object (comments are not JSON) is an error naming the
// problem; the caller writes nothing then.
func MergeHooks(old []byte, opts HooksOptions) ([]byte, error) {
	d, err := jsonedit.Open(old)
	if err != nil {
		return nil, err
	}
	root := d.Root()
	_, hooks := root.Member("hooks")
	if hooks == nil {
		var all []jsonedit.KV
		for _, e := range hookEvents {
			all = append(all, jsonedit.KV{K: e.Name, V: []any{group(e.Name, HookCommand(opts.Command, e.Arg))}})
		}
		key := "hooks"
		d.Add(root, &key, all, true)
		return d.B, nil
	}
	if hooks.Kind != '{' {
		return nil, fmt.Errorf(`"hooks" is not a JSON object`)
	}
	for _, e := range hookEvents {
		_, hooks = d.Root().Member("hooks")
		g := group(e.Name, HookCommand(opts.Command, e.Arg))
		_, arr := hooks.Member(e.Name)
		switch {
		case arr == nil:
			key := e.Name
			d.Add(hooks, &key, []any{g}, false)
		case arr.Kind != '[':
			return nil, fmt.Errorf(`"hooks"."%s" is not a JSON array`, e.Name)
		case !hasOurs(d, arr, e.Arg):
			d.Add(arr, nil, g, false)
		}
	}
	return d.B, nil
}

func hasOurs(d *jsonedit.Doc, arr *jsonedit.Node, arg string) bool {
	for _, it := range arr.Items {
		if ours(d.B[it.Val.Start:it.Val.End], arg) {
			return true
		}
	}
	return false
}

// UnmergeHooks takes out of hooks.json content exactly what MergeHooks
// added: our matcher groups, and the keys it created for
// them. Everything else keeps its bytes. Content without our hooks is
// returned unchanged.
func UnmergeHooks(old []byte) ([]byte, error) {
	d, err := jsonedit.Open(old)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(old)) == 0 {
		return old, nil
	}
	root := d.Root()
	hi, hooks := root.Member("hooks")
	if hooks == nil || hooks.Kind != '{' {
		return old, nil
	}
	if v, ok := onlyOurs(d, hooks); ok && d.Created(root, hi, "hooks", v) {
		d.Remove(root, hi, true)
		return d.B, nil
	}
	for _, e := range hookEvents {
		for {
			_, hooks = d.Root().Member("hooks")
			ei, arr := hooks.Member(e.Name)
			if arr == nil || arr.Kind != '[' {
				break
			}
			if len(arr.Items) == 1 && ours(d.B[arr.Items[0].Val.Start:arr.Items[0].Val.End], e.Arg) &&
				d.Created(hooks, ei, e.Name, []any{groupAsWritten(d, arr.Items[0].Val)}) {
				d.Remove(hooks, ei, false)
				break
			}
			i := ourIndex(d, arr, e.Arg)
			if i < 0 {
				break
			}
			d.Remove(arr, i, false)
		}
	}
	return d.B, nil
}

func ourIndex(d *jsonedit.Doc, arr *jsonedit.Node, arg string) int {
	for i := len(arr.Items) - 1; i >= 0; i-- {
		if ours(d.B[arr.Items[i].Val.Start:arr.Items[i].Val.End], arg) {
			return i
		}
	}
	return -1
}

// groupAsWritten is one of our groups as values, to render it as add
// would have (the command as found, which may name another git-yoimem).
func groupAsWritten(d *jsonedit.Doc, n *jsonedit.Node) []jsonedit.KV {
	var g struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	_ = json.Unmarshal(d.B[n.Start:n.End], &g)
	var out []jsonedit.KV
	if g.Matcher != nil {
		out = append(out, jsonedit.KV{K: "matcher", V: *g.Matcher})
	}
	var hs []any
	for _, h := range g.Hooks {
		hs = append(hs, []jsonedit.KV{{K: "type", V: "command"}, {K: "command", V: h.Command}})
	}
	return append(out, jsonedit.KV{K: "hooks", V: hs})
}

// onlyOurs tells whether a hooks object holds our groups only, one per
// event, in our order, and returns it as values.
func onlyOurs(d *jsonedit.Doc, hooks *jsonedit.Node) ([]jsonedit.KV, bool) {
	if len(hooks.Items) != len(hookEvents) {
		return nil, false
	}
	var v []jsonedit.KV
	for i, e := range hookEvents {
		it := hooks.Items[i]
		if it.Key != e.Name || it.Val.Kind != '[' || len(it.Val.Items) != 1 {
			return nil, false
		}
		g := it.Val.Items[0].Val
		if !ours(d.B[g.Start:g.End], e.Arg) {
			return nil, false
		}
		v = append(v, jsonedit.KV{K: e.Name, V: []any{groupAsWritten(d, g)}})
	}
	return v, true
}
