package codex

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/agent"
)

// NotifyTurnComplete is the one notify payload type Codex sends: a turn
// ended.
const NotifyTurnComplete = "agent-turn-complete"

// notification is the legacy notify payload (codex-rs/hooks
// legacy_notify.rs), kebab-case keys. The messages are read only to
// check their shape: extract reads the turn from the rollout.
type notification struct {
	Type     *string  `json:"type"`
	Thread   string   `json:"thread-id"`
	Turn     string   `json:"turn-id"`
	Cwd      string   `json:"cwd"`
	Client   string   `json:"client"`
	Inputs   []string `json:"input-messages"`
	LastText *string  `json:"last-assistant-message"`
}

// DecodeNotify reads the JSON Codex appends as the last argument of the
// `notify` command in config.toml. agent-turn-complete is a Stop event
// whose Session is the thread ID (the rollout's session ID); another type
// decodes as agent.Unknown. At most DefaultLimit bytes; malformed input
// is an error naming the problem.
func DecodeNotify(arg string) (agent.Event, error) {
	b, err := readLimited(strings.NewReader(arg), DefaultLimit, "notify payload")
	if err != nil {
		return agent.Event{}, err
	}
	var n notification
	if err := agent.ParseObject(b, &n); err != nil {
		return agent.Event{}, fmt.Errorf("Codex's notify payload: %w", err)
	}
	if n.Type == nil || *n.Type == "" {
		return agent.Event{}, errors.New("Codex's notify payload: no type")
	}
	kind := agent.Unknown
	if *n.Type == NotifyTurnComplete {
		kind = agent.Stop
	}
	return agent.Event{Kind: kind, Name: *n.Type, Session: n.Thread, Cwd: n.Cwd}, nil
}

// Home is Codex's home directory, where its config.toml, hooks.json and
// sessions are: codexHome (CODEX_HOME) when set, else ~/.codex under
// home; "" when neither is known.
func Home(codexHome, home string) string {
	switch {
	case codexHome != "":
		return codexHome
	case home != "":
		return filepath.Join(home, ".codex")
	}
	return ""
}

// NotifyEvent reads the arguments Codex runs `git yoimem hook codex
// notify` with: the payload is the last one (DecodeNotify). A turn's end
// comes back as a Stop whose LogPath is the thread's rollout, found
// under codexHome (FindRollout); another type as agent.Unknown. No
// argument, a malformed payload or no rollout is an error naming it.
func NotifyEvent(args []string, codexHome string) (agent.Event, error) {
	if len(args) == 0 {
		return agent.Event{}, errors.New("notify: no payload (Codex passes it as the last argument)")
	}
	ev, err := DecodeNotify(args[len(args)-1])
	if err != nil || ev.Kind != agent.Stop {
		return ev, err
	}
	if ev.Session == "" {
		return ev, errors.New("Codex's notify payload: no thread-id to find the rollout by")
	}
	p, err := FindRollout(codexHome, ev.Session)
	if err != nil {
		return ev, err
	}
	ev.LogPath = p
	return ev, nil
}
