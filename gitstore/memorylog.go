package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/yoimem/git-yoimem/memlog"
)

// MemoryCommit is one memory commit: its hash, author date (ISO 8601, as
// git prints it) and parsed message.
type MemoryCommit struct {
	Commit string `json:"commit"`
	Date   string `json:"date"`
	*memlog.Message
}

// MemoryLog lists the memory commits (commits with a Yoimem-Run trailer)
// reachable from rng, any range git log takes, newest first. bad
// describes commits that look like memory commits but whose message does
// not parse; they are left out. A range git refuses is a *Error.
func MemoryLog(ctx context.Context, r Repo, rng string) (commits []MemoryCommit, bad []string, err error) {
	out, err := r.Git.Run(ctx, "log", "-z", "--grep=^Yoimem-Run: ", "--format=%H%x00%aI%x00%B", rng, "--")
	if err != nil {
		return nil, nil, err
	}
	commits, bad = parseMemoryLog(out)
	return commits, bad, nil
}

// parseMemoryLog reads `git log -z --format=%H%x00%aI%x00%B`: hash, date
// and message, NUL-separated, commits separated by NUL as well.
func parseMemoryLog(out []byte) (commits []MemoryCommit, bad []string) {
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+2 < len(fields); i += 3 {
		hash := string(bytes.TrimSpace(fields[i]))
		if hash == "" {
			continue
		}
		m, err := memlog.ParseMessage(string(fields[i+2]))
		if errors.Is(err, memlog.ErrNotMemoryCommit) {
			continue // the grep matched prose, not a trailer
		}
		if err != nil {
			bad = append(bad, fmt.Sprintf("commit %.12s: %v", hash, err))
			continue
		}
		commits = append(commits, MemoryCommit{Commit: hash, Date: string(fields[i+1]), Message: m})
	}
	return commits, bad
}
