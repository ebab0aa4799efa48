package agent

// Response is a hook's answer. The zero Response lets the agent go on
// with nothing added. Each agent's encoder says which fields an event
// honours; a field an event cannot carry is left out of the output.
type Response struct {
	// Context is text added to what the model sees (SessionStart: the
	// always-on context; UserPrompt: the #slug expansions). The agent
	// shows it to the model, not to the user; the encoder fits it within
	// the agent's output cap (Context.Fit).
	Context Context
	// Deny refuses a tool call (PreTool); Reason is shown to the model so
	// that it can use the right tool instead.
	Deny   bool
	Reason string
	// Message is shown to the user, not the model (e.g. "memory extract
	// failed: …").
	Message string
	// Block stops the prompt from reaching the model (UserPrompt), with
	// Reason shown to the user. Hooks that must never make the agent wait
	// (Stop, PreCompact, SessionEnd) never block.
	Block bool
}
