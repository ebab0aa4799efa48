package agentcli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/llm"
)

// The placeholders a command: consolidation model's argv may hold; each
// is replaced wherever it occurs in a word.
const (
	PlaceholderMCPConfig  = "{mcp_config}"  // the MCP configuration (Claude Code's --mcp-config shape)
	PlaceholderPromptFile = "{prompt_file}" // the brief, also given on stdin
	PlaceholderRunID      = "{run_id}"      // the run's ID, for git yoimem mcp --run
)

// runFiles are a run's files under the runs directory: its directory
// (the brief and the MCP configuration, removed at the end) and its log
// (kept: the transcript of the CLI's run).
type runFiles struct {
	dir, prompt, config, log string
}

// writeFiles writes the brief into <runs>/<run-id>/ (0700).
func (e Engine) writeFiles(runID string, v *agent.Served) (runFiles, error) {
	if err := CheckRunID(runID); err != nil {
		return runFiles{}, err
	}
	perm, err := e.Shared.Get()
	if err != nil {
		return runFiles{}, fmt.Errorf("the runs directory: %w", err)
	}
	if err := perm.Dirs(e.RunsDir, 0o700); err != nil {
		return runFiles{}, fmt.Errorf("the runs directory: %w", err)
	}
	dir := filepath.Join(e.RunsDir, runID)
	_ = os.RemoveAll(dir) // a dead run's with the same ID
	if err := os.Mkdir(dir, 0o700); err != nil {
		return runFiles{}, fmt.Errorf("the run's directory: %w", err)
	}
	f := runFiles{dir: dir, prompt: filepath.Join(dir, "prompt.md"), config: filepath.Join(dir, "mcp.json"), log: filepath.Join(e.RunsDir, runID+".log")}
	if err := os.WriteFile(f.prompt, []byte(v.Prompt(ServerName)), 0o600); err != nil {
		f.remove()
		return runFiles{}, fmt.Errorf("the run's brief: %w", err)
	}
	return f, nil
}

// mcpConfig is Claude Code's --mcp-config shape (also .mcp.json's).
type mcpConfig struct {
	MCPServers map[string]mcpServer `json:"mcpServers"`
}

type mcpServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// writeConfig writes the MCP configuration: one server, argv, with the
// run's token in its environment (0600: the token is the key).
func (f runFiles) writeConfig(argv []string, token string) error {
	c := mcpConfig{MCPServers: map[string]mcpServer{ServerName: {Type: "stdio", Command: argv[0], Args: argv[1:], Env: map[string]string{EnvToken: token}}}}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(f.config, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("the run's MCP configuration: %w", err)
	}
	return nil
}

func (f runFiles) remove() { os.RemoveAll(f.dir) }

// expand replaces the placeholders in argv's words.
func expand(argv []string, f runFiles, runID string) []string {
	r := strings.NewReplacer(PlaceholderMCPConfig, f.config, PlaceholderPromptFile, f.prompt, PlaceholderRunID, runID)
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

// runLog is a run's log: the command, each tool call, what the CLI
// printed. Writes are serialized; a failing write is dropped (the log
// serves inspection, never the run).
type runLog struct {
	mu sync.Mutex
	f  *os.File
}

// maxLoggedResult bounds a tool result's text in the log.
const maxLoggedResult = 2000

func openLog(path string) (*runLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the run's log: %w", err)
	}
	return &runLog{f: f}, nil
}

func (l *runLog) note(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.f, format+"\n", args...)
}

func (l *runLog) start(argv []string) {
	l.note("%s agent CLI: %s", time.Now().UTC().Format(time.RFC3339), strings.Join(argv, " "))
}

func (l *runLog) call(name string, r agent.CallResult) {
	status := "ok"
	if r.IsError {
		status = "refused"
	}
	text := r.Content
	if len(text) > maxLoggedResult {
		cut := maxLoggedResult
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut-- // not inside a character: the log stays UTF-8
		}
		text = text[:cut] + fmt.Sprintf("… (%d bytes)", len(r.Content))
	}
	l.note("tool %s: %s\n%s", strings.TrimSpace(name+" "+r.Target), status, strings.TrimRight(text, "\n"))
}

func (l *runLog) output(res llm.ExecResult) {
	l.note("exit status %d\n--- stdout ---\n%s\n--- stderr ---\n%s", res.ExitCode, res.Stdout, res.Stderr)
}

func (l *runLog) Close() error { return l.f.Close() }

// KeepLogs is how many runs' logs the runs directory keeps: the newest.
const KeepLogs = 20

// pruneLogs removes the logs of dir but the keep newest (by time of
// change). It is best effort: a log it cannot remove stays.
func pruneLogs(dir string, keep int) {
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(logs) <= keep {
		return
	}
	type entry struct {
		path string
		mod  time.Time
	}
	var es []entry
	for _, p := range logs {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			es = append(es, entry{p, fi.ModTime()})
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].mod.After(es[j].mod) })
	for _, e := range es[min(keep, len(es)):] {
		os.Remove(e.path)
	}
}
