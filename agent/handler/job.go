package handler

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// Job is a background run to make: the extract check of a session's
// transcript, then the consolidation check.
type Job struct {
	Agent      string `json:"agent"`
	Event      string `json:"event"` // the hook that asked for it
	Session    string `json:"session_id"`
	Transcript string `json:"transcript"`
	// Until bounds extract at this byte offset of the transcript (0: to
	// its end): extract.RunOptions.Until.
	Until    int64     `json:"until,omitempty"`
	Enqueued time.Time `json:"enqueued"`
}

// BackgroundArg is the event argument of the hidden command that runs a
// job: `git yoimem hook <agent> background -- EVENT SESSION TRANSCRIPT
// UNTIL` (Args; ParseArgs reads it back).
const BackgroundArg = "background"

// Args are the arguments of the command that runs the job; "--" keeps a
// session id or path that begins with "-" an argument.
func (j Job) Args() []string {
	return []string{"hook", j.Agent, BackgroundArg, "--", j.Event, j.Session, j.Transcript, strconv.FormatInt(j.Until, 10)}
}

// ParseJob reads the job of agentName from the arguments after
// BackgroundArg (and "--"): EVENT SESSION TRANSCRIPT UNTIL.
func ParseJob(agentName string, args []string) (Job, error) {
	if len(args) != 4 {
		return Job{}, fmt.Errorf("%s takes EVENT SESSION TRANSCRIPT UNTIL; got %d argument(s)", BackgroundArg, len(args))
	}
	until, err := strconv.ParseInt(args[3], 10, 64)
	if err != nil || until < 0 {
		return Job{}, fmt.Errorf("%s: UNTIL %q: want a byte offset, 0 for none", BackgroundArg, args[3])
	}
	if args[1] == "" || args[2] == "" {
		return Job{}, fmt.Errorf("%s: the session and the transcript must not be empty", BackgroundArg)
	}
	return Job{Agent: agentName, Event: args[0], Session: args[1], Transcript: args[2], Until: until}, nil
}

// Spawner starts background runs as detached processes: Exe (this
// program) with Job.Args, in its own session (setsid: no terminal, no
// signal of the agent's reaches it), stdin from /dev/null, stdout and
// stderr appended to Log. It does not wait.
type Spawner struct {
	Exe      string   // the program to run (os.Executable)
	Dir      string   // its working directory: the workspace root
	Env      []string // its environment (nil: this process's)
	Log      string   // the agent's log (LogFile)
	LogBytes int64    // rotation size (0: DefaultLogBytes)
	// Shared is the repository's core.sharedRepository, for a log created.
	Shared sharedperm.Source
}

// Spawn starts the job's process and returns once it has started.
func (s Spawner) Spawn(j Job) error {
	f, err := OpenLog(s.Log, s.LogBytes, s.Shared)
	if err != nil {
		return err
	}
	defer f.Close() // the child has its own descriptor
	cmd := exec.Command(s.Exe, j.Args()...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdin = nil // /dev/null
	cmd.Stdout, cmd.Stderr = f, f
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", s.Exe, err)
	}
	return cmd.Process.Release()
}

// pendingFile holds the job a trigger left for the session's running
// background run.
func pendingFile(dir, agentName, session string) string {
	return filepath.Join(runsDir(dir, agentName), fileName(session)+".next")
}

// leave writes the job for whoever holds the session's lock, with the
// shared bits (core.sharedRepository, from shared).
func leave(path string, j Job, shared sharedperm.Source) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	perm, err := shared.Get()
	if err != nil {
		return err
	}
	if err := perm.Dirs(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return perm.WriteFile(path, b, 0o644, false)
}

// take reads and removes the job left at path; ok is false when none is.
func take(path string) (j Job, ok bool, err error) {
	b, err := readStateFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return j, false, nil
	}
	if err != nil {
		return j, false, err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return j, false, err
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return j, false, fmt.Errorf("pending job %s: %w", path, err)
	}
	return j, true, nil
}
