package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// HookEvent is an event that gets one matcher group of ours.
type HookEvent struct {
	Name    string // the event's key under "hooks", e.g. "PreToolUse"
	Arg     string // our command's argument for it, e.g. "pre-tool-use"
	Matcher string // the group's matcher; none when empty
}

// Hooks is one agent's hooks in a settings file of the shape Claude Code
// and Codex share: {"hooks": {"<Event>": [{"matcher": "…", "hooks":
// [{"type": "command", "command": "…"}]}]}}. Merge adds one group per
// event after the user's own; Unmerge takes out exactly what Merge added.
type Hooks struct {
	Events []HookEvent // in the order written
	// Command is the command line of our hook for an event's Arg.
	Command func(arg string) string
	// Ours tells whether a command line is ours for an event's Arg; it
	// may name another git-yoimem than Command does.
	Ours func(cmd, arg string) bool
}

// Merge adds our groups to settings content: one per event, after the
// user's own. Nothing else changes: the user's entries, key order,
// indentation and spacing keep their bytes. Merging twice is merging
// once. Empty content is an empty object. Content that is not a JSON
// object (comments are not JSON) is an error naming the problem.
func (h Hooks) Merge(old []byte) ([]byte, error) {
	d, err := Open(old)
	if err != nil {
		return nil, err
	}
	root := d.Root()
	_, hooks := root.Member("hooks")
	if hooks == nil {
		var all []KV
		for _, e := range h.Events {
			all = append(all, KV{K: e.Name, V: []any{h.group(e)}})
		}
		key := "hooks"
		d.Add(root, &key, all, true)
		return d.B, nil
	}
	if hooks.Kind != '{' {
		return nil, fmt.Errorf(`"hooks" is not a JSON object`)
	}
	for _, e := range h.Events {
		_, hooks = d.Root().Member("hooks")
		_, arr := hooks.Member(e.Name)
		switch {
		case arr == nil:
			key := e.Name
			d.Add(hooks, &key, []any{h.group(e)}, false)
		case arr.Kind != '[':
			return nil, fmt.Errorf(`"hooks"."%s" is not a JSON array`, e.Name)
		case h.ourIndex(d, arr, e.Arg) < 0:
			d.Add(arr, nil, h.group(e), false)
		}
	}
	return d.B, nil
}

func (h Hooks) group(e HookEvent) []KV {
	var g []KV
	if e.Matcher != "" {
		g = append(g, KV{K: "matcher", V: e.Matcher})
	}
	return append(g, KV{K: "hooks", V: []any{[]KV{{K: "type", V: "command"}, {K: "command", V: h.Command(e.Arg)}}}})
}

// IsOurGroup tells whether a matcher group (its JSON text) is one of
// ours for arg: a matcher at most, and handlers that all run our command.
func (h Hooks) IsOurGroup(text []byte, arg string) bool {
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
	for _, hk := range hs {
		cmd, _ := hk["command"].(string)
		if len(hk) != 2 || hk["type"] != "command" || !h.Ours(cmd, arg) {
			return false
		}
	}
	return true
}

// Unmerge takes out of settings content exactly what Merge added: our
// groups, and the keys it created for them. Everything else keeps its
// bytes. Content without our hooks is returned unchanged.
func (h Hooks) Unmerge(old []byte) ([]byte, error) {
	d, err := Open(old)
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
	if v, ok := h.onlyOurs(d, hooks); ok && d.Created(root, hi, "hooks", v) {
		d.Remove(root, hi, true)
		return d.B, nil
	}
	for _, e := range h.Events {
		for {
			_, hooks = d.Root().Member("hooks")
			ei, arr := hooks.Member(e.Name)
			if arr == nil || arr.Kind != '[' {
				break
			}
			if len(arr.Items) == 1 && h.IsOurGroup(d.text(arr.Items[0].Val), e.Arg) &&
				d.Created(hooks, ei, e.Name, []any{groupAsWritten(d, arr.Items[0].Val)}) {
				d.Remove(hooks, ei, false)
				break
			}
			i := h.ourIndex(d, arr, e.Arg)
			if i < 0 {
				break
			}
			d.Remove(arr, i, false)
		}
	}
	return d.B, nil
}

func (d *Doc) text(n *Node) []byte { return d.B[n.Start:n.End] }

// ourIndex is the index of the last of our groups for arg in arr, or -1.
func (h Hooks) ourIndex(d *Doc, arr *Node, arg string) int {
	for i := len(arr.Items) - 1; i >= 0; i-- {
		if h.IsOurGroup(d.text(arr.Items[i].Val), arg) {
			return i
		}
	}
	return -1
}

// groupAsWritten is one of our groups as values, to render it as Add
// would have (the command as found, which may name another git-yoimem).
func groupAsWritten(d *Doc, n *Node) []KV {
	var g struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	_ = json.Unmarshal(d.text(n), &g)
	var out []KV
	if g.Matcher != nil {
		out = append(out, KV{K: "matcher", V: *g.Matcher})
	}
	var hs []any
	for _, hk := range g.Hooks {
		hs = append(hs, []KV{{K: "type", V: "command"}, {K: "command", V: hk.Command}})
	}
	return append(out, KV{K: "hooks", V: hs})
}

// onlyOurs tells whether a hooks object holds our groups only, one per
// event, in our order, and returns it as values.
func (h Hooks) onlyOurs(d *Doc, hooks *Node) ([]KV, bool) {
	if len(hooks.Items) != len(h.Events) {
		return nil, false
	}
	var v []KV
	for i, e := range h.Events {
		it := hooks.Items[i]
		if it.Key != e.Name || it.Val.Kind != '[' || len(it.Val.Items) != 1 {
			return nil, false
		}
		g := it.Val.Items[0].Val
		if !h.IsOurGroup(d.text(g), e.Arg) {
			return nil, false
		}
		v = append(v, KV{K: e.Name, V: []any{groupAsWritten(d, g)}})
	}
	return v, true
}

// DefaultCommand runs git-yoimem from an agent's hooks.
const DefaultCommand = "git yoimem"

// AgentHookCommand is the command line of our hook for an agent's event:
// `<command> hook <agent> <arg>` (command DefaultCommand when empty).
func AgentHookCommand(command, agent, arg string) string {
	if command == "" {
		command = DefaultCommand
	}
	return command + " hook " + agent + " " + arg
}

// AgentHooks are our hooks for an agent's events, each running
// AgentHookCommand(command, agent, arg); a command line is ours when it
// ends in ` hook <agent> <arg>` and runs a git-yoimem, whichever one.
func AgentHooks(events []HookEvent, command, agent string) Hooks {
	return Hooks{
		Events:  events,
		Command: func(arg string) string { return AgentHookCommand(command, agent, arg) },
		Ours: func(cmd, arg string) bool {
			base, ok := strings.CutSuffix(cmd, " hook "+agent+" "+arg)
			return ok && strings.Contains(base, "yoimem")
		},
	}
}
