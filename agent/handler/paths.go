package handler

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/yoimem/git-yoimem/workspace"
)

// StateDir is the agent integrations' machine-local state:
// <git-common-dir>/yoimem/agent.
func StateDir(w *workspace.Workspace) string { return filepath.Join(w.LocalDir(), "agent") }

// LogFile is the log of an agent's hooks and background runs in dir
// (StateDir): <agent>.log, rotated to <agent>.log.1.
func LogFile(dir, agentName string) string { return filepath.Join(dir, fileName(agentName)+".log") }

// runsDir holds the status files and locks of an agent's sessions.
func runsDir(dir, agentName string) string { return filepath.Join(dir, "runs", fileName(agentName)) }

// StatusFile is the status file of an agent's session in dir (StateDir):
// runs/<agent>/<session>.json.
func StatusFile(dir, agentName, session string) string {
	return filepath.Join(runsDir(dir, agentName), fileName(session)+".json")
}

// fileName is s when it is safe as a file name (a letter or digit, then
// letters, digits, '.', '_' or '-', at most 128), else a digest of it:
// a session id comes from the agent's payload.
func fileName(s string) string {
	ok := s != "" && len(s) <= 128
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		ok = alnum || i > 0 && (c == '.' || c == '_' || c == '-')
	}
	if ok {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + hex.EncodeToString(sum[:16])
}
