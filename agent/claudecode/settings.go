package claudecode

import (
	"github.com/yoimem/git-yoimem/internal/jsonedit"
)

// ToolMatcher is the PreToolUse matcher: the tools GuardTool checks.
const ToolMatcher = "Write|Edit|MultiEdit|NotebookEdit|Bash"

// Hook events we register, in the order they are written, with the
// argument of `git yoimem hook claude-code <event>`.
var hookEvents = []jsonedit.HookEvent{
	{Name: "SessionStart", Arg: "session-start"},
	{Name: "UserPromptSubmit", Arg: "user-prompt-submit"},
	{Name: "PreToolUse", Arg: "pre-tool-use", Matcher: ToolMatcher},
	{Name: "Stop", Arg: "stop"},
	{Name: "PreCompact", Arg: "pre-compact"},
	{Name: "SessionEnd", Arg: "session-end"},
}

// DefaultCommand runs git-yoimem from the hooks.
const DefaultCommand = jsonedit.DefaultCommand

// SettingsOptions says how our hooks are written.
type SettingsOptions struct {
	// Command is how a hook runs git-yoimem (DefaultCommand when empty),
	// e.g. a full path to git-yoimem.
	Command string
}

// HookCommand is the command line a hook for a Claude Code event runs.
func HookCommand(command, arg string) string {
	return jsonedit.AgentHookCommand(command, "claude-code", arg)
}

func hooks(command string) jsonedit.Hooks {
	return jsonedit.AgentHooks(hookEvents, command, "claude-code")
}

// ours tells whether a matcher group (its JSON text) is one of ours.
func ours(text []byte, arg string) bool { return hooks("").IsOurGroup(text, arg) }

// MergeSettings adds our hooks to the content of a Claude Code settings
// file (.claude/settings.json, settings.local.json, ~/.claude/settings.json):
// one matcher group per event, running `git yoimem hook claude-code
// <event>`, after the user's own. Nothing else changes: the user's
// entries, key order, indentation and spacing keep their bytes. Merging
// twice is merging once. Empty content is an empty object. Content that
// is not a JSON object (comments are not JSON) is an error naming the
// problem; the caller writes nothing then.
func MergeSettings(old []byte, opts SettingsOptions) ([]byte, error) {
	return hooks(opts.Command).Merge(old)
}

// UnmergeSettings takes out of settings content exactly what
// MergeSettings added: our matcher groups, and the keys it created for
// them. Everything else keeps its bytes. Content without our hooks is
// returned unchanged.
func UnmergeSettings(old []byte) ([]byte, error) {
	return hooks("").Unmerge(old)
}
