package agent

import (
	"encoding/json"
	"fmt"
	"path"
	"runtime"
	"strings"
)

// Guard is the policy that generic tools never write memory (the plan:
// writes to memory go through the memory tools, which lint each change).
// It reads a tool call's arguments only: it resolves paths against the
// event's Cwd without touching the file system (a symbolic link into
// .yoi/ is not seen), and it reads a shell command as written (a program
// that writes a path it computes is not seen; inline code, python -c or
// node -e, is judged by the memory paths it names and whether it writes
// at all). It is a guard against an agent's ordinary file writes, not a
// sandbox.
type Guard struct {
	// FoldCase compares path names without case, as case-insensitive file
	// systems do (macOS and Windows by default): .YOI/Memory is then memory.
	FoldCase bool
}

// GuardTool is Guard.Tool with the case rule of this platform's usual
// file system.
func GuardTool(ev Event) (deny bool, reason string) {
	return Guard{FoldCase: runtime.GOOS == "darwin" || runtime.GOOS == "windows"}.Tool(ev)
}

// Tool tells whether a PreTool event must be denied, and why: Write,
// Edit, MultiEdit and NotebookEdit on a path under .yoi/memory or
// .yoi/knowledge, Codex's apply_patch when its patch writes a file
// there, and Bash commands that write there (redirections, tee, cp, mv,
// sed -i, awk -i inplace, rm, git checkout/restore/clean, curl -o, tar
// -x, patch, python -c, …). Everything else is allowed, reads included.
func (g Guard) Tool(ev Event) (deny bool, reason string) {
	if ev.Kind != PreTool {
		return false, ""
	}
	var where string
	switch ev.Tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		where = g.fileTool(ev)
	case "apply_patch": // Codex's file tool
		where = g.patchTool(ev)
	case "Bash":
		where = g.bashTool(ev)
	}
	if where == "" {
		if ev.Cut {
			return g.cut(ev)
		}
		return false, ""
	}
	return true, denyReason(ev.Tool, where)
}

// cut judges a tool call whose input was over the hook's limit, seen
// only in part: a file tool whose path was seen outside memory goes on;
// a write whose path or command was cut off cannot be checked and is
// denied.
func (g Guard) cut(ev Event) (deny bool, reason string) {
	var in map[string]string
	_ = json.Unmarshal(ev.ToolInput, &in)
	switch ev.Tool {
	case "Write", "Edit", "MultiEdit":
		if in["file_path"] != "" {
			return false, ""
		}
	case "NotebookEdit":
		if in["notebook_path"] != "" {
			return false, ""
		}
	case "Bash", "apply_patch":
	default:
		return false, ""
	}
	return true, fmt.Sprintf("git-yoimem: this %s call is too large for the hook to check that it does not write into .yoi/memory or .yoi/knowledge; split it into smaller calls (memory is written with the memory tools: git yoimem memory write|edit|delete, or MCP memory_write, memory_edit, memory_delete)", ev.Tool)
}

// bashTool reads a shell tool's command: a command line, or an argv
// array (Codex's older shell tool).
func (g Guard) bashTool(ev Event) string {
	var in struct {
		Command json.RawMessage `json:"command"`
	}
	if json.Unmarshal(ev.ToolInput, &in) != nil {
		return ""
	}
	var line string
	if json.Unmarshal(in.Command, &line) == nil {
		return g.shell(line, ev.Cwd, 0)
	}
	var argv []string
	if json.Unmarshal(in.Command, &argv) == nil {
		return g.command(argv, ev.Cwd, nil, 0)
	}
	return ""
}

func (g Guard) fileTool(ev Event) string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if json.Unmarshal(ev.ToolInput, &in) != nil {
		return ""
	}
	for _, p := range []string{in.FilePath, in.NotebookPath} {
		if where, ok := g.memoryPath(p, ev.Cwd, false); ok {
			return where
		}
	}
	return ""
}

func denyReason(tool, where string) string {
	return "git-yoimem: " + where + " is project memory, which generic tools (" + tool + ") do not write: " +
		"memory changes go through the memory tools, which check each change and keep it reviewable. " +
		"Use the MCP tools memory_write, memory_edit or memory_delete (server yoimem), " +
		"or the command line: git yoimem memory write|edit|delete <path>."
}

// memoryPath tells whether p, relative to cwd, is .yoi/memory or
// .yoi/knowledge or below them (or, with whole, .yoi itself, for commands
// that remove or move a whole tree), and returns it from .yoi/ on.
func (g Guard) memoryPath(p, cwd string, whole bool) (string, bool) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", false
	}
	if !strings.HasPrefix(p, "/") && cwd != "" {
		p = cwd + "/" + p
	}
	elems := strings.Split(path.Clean(p), "/")
	for i, e := range elems {
		if !g.matches(e, ".yoi") {
			continue
		}
		if i+1 == len(elems) {
			if whole {
				return ".yoi", true
			}
			continue
		}
		if g.matches(elems[i+1], "memory") || g.matches(elems[i+1], "knowledge") {
			return strings.Join(append([]string{".yoi"}, elems[i+1:]...), "/"), true
		}
	}
	return "", false
}

// matches tells whether a path element as written (maybe a glob or a
// brace list) can name the directory name.
func (g Guard) matches(elem, name string) bool {
	if elem == "" {
		return false
	}
	if g.FoldCase {
		elem, name = strings.ToLower(elem), strings.ToLower(name)
	}
	if elem == name {
		return true
	}
	if !strings.ContainsAny(elem, "*?[{") {
		return false
	}
	for _, alt := range braceAlternatives(elem) {
		if ok, err := path.Match(alt, name); ok && err == nil {
			return true
		}
	}
	return false
}

// braceAlternatives expands one level of {a,b} in a path element.
func braceAlternatives(elem string) []string {
	open := strings.IndexByte(elem, '{')
	end := strings.IndexByte(elem, '}')
	if open < 0 || end < open {
		return []string{elem}
	}
	var out []string
	for _, alt := range strings.Split(elem[open+1:end], ",") {
		out = append(out, elem[:open]+alt+elem[end+1:])
	}
	return out
}
