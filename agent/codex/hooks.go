package codex

import (
	"github.com/yoimem/git-yoimem/internal/jsonedit"
)

// ToolMatcher is the PreToolUse matcher: Codex's shell and its file tool,
// the calls GuardTool checks (Codex also matches apply_patch by the
// names Write and Edit).
const ToolMatcher = "Bash|apply_patch"

// Hook events we register, in the order they are written, with the
// argument of `git yoimem hook codex <event>`. Codex has no SessionEnd;
// its other events (PostToolUse, PermissionRequest, PostCompact,
// Subagent*, StopFailure) we do not act on.
var hookEvents = []jsonedit.HookEvent{
	{Name: "SessionStart", Arg: "session-start"},
	{Name: "UserPromptSubmit", Arg: "user-prompt-submit"},
	{Name: "PreToolUse", Arg: "pre-tool-use", Matcher: ToolMatcher},
	{Name: "Stop", Arg: "stop"},
	{Name: "PreCompact", Arg: "pre-compact"},
}

// DefaultCommand runs git-yoimem from the hooks.
const DefaultCommand = jsonedit.DefaultCommand

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
	return jsonedit.AgentHookCommand(command, "codex", arg)
}

func hooks(command string) jsonedit.Hooks {
	return jsonedit.AgentHooks(hookEvents, command, "codex")
}

// ours tells whether a matcher group (its JSON text) is one of ours.
func ours(text []byte, arg string) bool { return hooks("").IsOurGroup(text, arg) }

// MergeHooks adds our hooks to the content of a Codex hooks file
// (.codex/hooks.json in a project, ~/.codex/hooks.json for the user):
// one matcher group per event, running `git yoimem hook codex <event>`,
// after the user's own. Nothing else changes: the user's entries, key
// order, indentation and spacing keep their bytes. Merging twice is
// merging once. Empty content is an empty object. Content that is not a
// JSON object (comments are not JSON) is an error naming the problem;
// the caller writes nothing then.
//
// Codex runs the hooks of a hooks.json only once the user has trusted
// them (its /hooks review stores a hash per hook in config.toml, under
// [hooks.state]); until then, and after each change of the file, they
// are listed but do not run (seen with Codex 0.169). notify needs no
// such review.
func MergeHooks(old []byte, opts HooksOptions) ([]byte, error) {
	return hooks(opts.Command).Merge(old)
}

// UnmergeHooks takes out of hooks.json content exactly what MergeHooks
// added: our matcher groups, and the keys it created for them.
// Everything else keeps its bytes. Content without our hooks is returned
// unchanged.
func UnmergeHooks(old []byte) ([]byte, error) {
	return hooks("").Unmerge(old)
}
