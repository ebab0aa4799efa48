package main

import "strings"

// The program's own help: 'git yoimem help' prints it, and the man page,
// git-yoimem(1), is generated from it and the commands' definitions (see
// manpage_test.go), so that 'git yoimem --help' and 'git help yoimem',
// which git turns into 'man git-yoimem', say the same.

const appUsageText = `git yoimem [-c KEY=VALUE]... [--workspace DIR] [--session ID] COMMAND [ARGS...]
git yoimem help [COMMAND]
git yoimem --version`

const appDescription = `git yoimem gives a git repository a durable, reviewable memory for AI
coding agents: Markdown records with YAML frontmatter under .yoi/ (an
always-on summary, decisions, user requests and reusable knowledge), so
that git diff, git log and pull-request review show what agents remember,
and git revert undoes it. A linter checks the records, git hooks run it on
every commit and push, and agents reach the memory through the commands
below or an MCP server.

Flags may follow a command's arguments, as with git, and '--' ends them;
--help (or -h) anywhere among a command's arguments shows its help.
Settings are read from -c, git config (yoimem.*) and the committed
.yoi/config, in that order; 'git yoimem config' lists them.`

// helpSection is a titled part of the help after the commands, shown
// indented under its title.
type helpSection struct {
	title, text string
}

func exitStatusSection() helpSection {
	return helpSection{"EXIT STATUS", `  0    success; lint found no errors
  1    lint found errors, or an operation was refused
  2    could not run: bad usage, not a git repository, bad configuration, I/O error
  3    another process holds a lock
  130  interrupted`}
}

// helpSections are the parts of the program's help after its commands.
func helpSections() []helpSection {
	return []helpSection{
		exitStatusSection(),
		{"ENVIRONMENT", `  YOIMEM_SESSION     the agent session that reads are recorded for (as --session)
  YOIMEM_NOW         an RFC 3339 time taken as the current time (reproducible demos and tests)
  ANTHROPIC_API_KEY  the key of anthropic: models (ANTHROPIC_BASE_URL: another server)
  OPENAI_API_KEY     the key of openai: models (OPENAI_BASE_URL: another server)`},
		{"FILES", `Paths below .yoi/ at the workspace root (the repository's top level):

  .yoi/config                    the team's settings, git config syntax, committed
  .yoi/memory/summary.md         the always-on summary
  .yoi/memory/decisions/SLUG.md  a decision or an open discussion
  .yoi/memory/requests/SLUG.md   what a user asked for
  .yoi/knowledge/SLUG.md         reusable knowledge, referenced as #SLUG
  .yoi/memory/_staging/          extract output waiting for consolidation, and its lock (ignored)
  .yoi/metrics/RUN.jsonl         the usage a consolidation run moved into its commit

Machine-local state (extract pointers, usage journals, caches) is kept in
$(git rev-parse --git-common-dir)/yoimem/, never committed.`},
		{"SEE ALSO", `git(1), githooks(5), git-config(1); README.md and docs/ of git-yoimem:
the record format, lint rules, hooks, configuration, retrieval, extract,
consolidation and the memory branch.`},
	}
}

// helpTemplate appends sections to a urfave/cli help template, indented
// as cli indents its own.
func helpTemplate(base string, sections []helpSection) string {
	// Written piece by piece, no string per line: the app's template is
	// built at every command's start.
	n := len(base)
	for _, s := range sections {
		n += len(s.title) + 3 + len(s.text) + 4*(strings.Count(s.text, "\n")+1)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(base)
	for _, s := range sections {
		b.WriteString("\n")
		b.WriteString(s.title)
		b.WriteString(":\n")
		for l := range strings.SplitSeq(s.text, "\n") {
			if l != "" {
				b.WriteString("   ")
				b.WriteString(l)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
