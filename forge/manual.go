package forge

import (
	"fmt"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// ManualCommand is the shell command that opens r's request on h by hand
// once its tool is installed and logged in, with the description read
// from r.BodyFile; "" for a host no tool serves. gh reads the file
// itself (--body-file); glab mr create takes the description as an
// argument, so the command reads the file into it (--description="$(cat
// FILE)", which drops the file's trailing newlines; past about 128 KiB
// the system refuses so long an argument).
func ManualCommand(h Host, r Request) string {
	switch h.Kind {
	case GitHub:
		return "gh " + quote.ShellLine(ghCreate(h, r, r.BodyFile)...)
	case GitLab:
		line := args(words("mr", "create"), flag("--repo", h.RepoFlag()), flag("--source-branch", r.Head),
			flag("--target-branch", r.Base), flag("--title", r.Title), words("--yes"))
		return "glab " + quote.ShellLine(line...) + ` --description="$(cat ` + quote.Shell(r.BodyFile) + `)"`
	}
	return ""
}

// writeBody writes the description for the manual command.
func writeBody(path string, body []byte) error {
	if err := atomicfile.Write(path, body, 0o644); err != nil {
		return fmt.Errorf("pull request description: %w", err)
	}
	return nil
}
