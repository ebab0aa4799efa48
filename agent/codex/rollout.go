package codex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/agent"
)

// maxSessionID bounds a session ID: Codex's are UUIDs (36 characters).
const maxSessionID = 128

// FindRollout returns the rollout file of a Codex session:
// <codexHome>/sessions/YYYY/MM/DD/rollout-<time>-<sessionID>.jsonl, or
// the same name right in sessions/ or in archived_sessions/. It walks the date directories
// newest first (a session's file is in the day it started; resuming
// appends to it) and reads only directories named as dates, so its work
// is bounded by the days on record. A session ID that is not a plain name
// is an error; no such file is an error wrapping fs.ErrNotExist that
// names the directory looked in.
func FindRollout(codexHome, sessionID string) (string, error) {
	if err := checkSessionID(sessionID); err != nil {
		return "", err
	}
	if codexHome == "" {
		return "", errors.New("no Codex home directory (CODEX_HOME, default ~/.codex) to find the rollout in")
	}
	suffix := "-" + sessionID + ".jsonl"
	sessions := filepath.Join(codexHome, "sessions")
	if _, err := os.Stat(sessions); err != nil {
		return "", fmt.Errorf("Codex's sessions directory %s: %w (is CODEX_HOME right?)", sessions, err)
	}
	p, err := findDated(sessions, suffix, 0)
	if p != "" || err != nil {
		return p, err
	}
	// then rollouts kept flat, in sessions/ itself or archived
	for _, dir := range []string{sessions, filepath.Join(codexHome, "archived_sessions")} {
		if p := findIn(dir, suffix); p != "" {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Codex rollout for session %s under %s (rollout-*%s): %w", sessionID, sessions, suffix, fs.ErrNotExist)
}

func checkSessionID(id string) error {
	if id == "" || len(id) > maxSessionID {
		return fmt.Errorf("Codex session ID %q: want 1 to %d letters, digits or dashes", id, maxSessionID)
	}
	for _, r := range id {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Errorf("Codex session ID %q: %q is not a letter, digit or dash", id, r)
		}
	}
	return nil
}

// dateWidths are the widths of the names at each level: year, month, day.
var dateWidths = []int{4, 2, 2}

// findDated looks for the newest file ending in suffix below dir, a level
// of the date tree (0: years). Unreadable directories are skipped: a
// rollout elsewhere may still be found.
func findDated(dir, suffix string, level int) (string, error) {
	if level == len(dateWidths) {
		return findIn(dir, suffix), nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if level == 0 {
			return "", fmt.Errorf("read Codex's sessions directory: %w", err)
		}
		return "", nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && isDigits(e.Name(), dateWidths[level]) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for _, n := range slices.Backward(names) {
		if p, _ := findDated(filepath.Join(dir, n), suffix, level+1); p != "" {
			return p, nil
		}
	}
	return "", nil
}

// findIn is the last by name (the latest time) of dir's rollout files
// ending in suffix, or "".
func findIn(dir, suffix string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var last string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasPrefix(n, "rollout-") && strings.HasSuffix(n, suffix) && n > last {
			last = n
		}
	}
	if last == "" {
		return ""
	}
	return filepath.Join(dir, last)
}

func isDigits(s string, width int) bool {
	if len(s) != width {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// WithRollout fills in the log of a turn-ending event that names none (a
// null transcript_path): the session's rollout under codexHome
// (FindRollout), when there is one. Any other event, or one that names
// its log, is returned as it is.
func WithRollout(ev agent.Event, codexHome string) agent.Event {
	if ev.LogPath != "" || ev.Session == "" || (ev.Kind != agent.Stop && ev.Kind != agent.PreCompact) {
		return ev
	}
	if path, err := FindRollout(codexHome, ev.Session); err == nil {
		ev.LogPath = path
	}
	return ev
}
