package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/readall"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type memoryOptions struct {
	op, path          string
	format            string
	create, overwrite bool
	expect            string
	old, new          string
}

func newMemoryCommand(env Env, g *globalOptions) *cli.Command {
	var opts memoryOptions
	return &cli.Command{
		Name:      "memory",
		Usage:     "the memory tools for agents that run shell commands: read, write, edit, delete",
		ArgsUsage: "read|write|edit|delete PATH",
		UsageText: "git yoimem memory read PATH [--format text|json]\ngit yoimem memory write PATH [--create | --overwrite] [--expect BLOB] < FILE\ngit yoimem memory edit PATH --old TEXT --new TEXT [--expect BLOB]\ngit yoimem memory delete PATH [--expect BLOB]",
		Description: `The same tools an MCP client or the consolidation agent gets, on records
of the working tree. PATH is a record's path, from the workspace root or
from .yoi/: .yoi/knowledge/retry.md or knowledge/retry.md.

   read PATH [--format json]       print the record; json adds its blob id
                                   (what 'git hash-object' prints for it)
   write PATH < FILE               create a new record; refused when PATH
                                   exists (edit it instead)
   write PATH --overwrite < FILE   replace the record whole (or create it)
   edit PATH --old TEXT --new TEXT replace the one occurrence of TEXT
   delete PATH                     remove it (decisions are replaced, not
                                   deleted; the summary is rewritten)

--expect BLOB (write, edit, delete) changes the record only if it is still
the version read (its blob id from 'read --format json'); otherwise the
change is refused: "changed since you read it". --expect on write
replaces the record like --overwrite. --create (write) only creates.

Every write is linted first, as automation: only records under memory/ and
knowledge/, never workflow/, never a read-only file, never over
yoimem.lint.maxFileBytes. Writers wait for each other (at most 30 seconds,
then exit 3), so concurrent edits are all kept. A refusal lists the
findings and exits 1; nothing is written.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "create", Usage: "write: only create a new record (refused when it exists)", Destination: &opts.create},
			&cli.BoolFlag{Name: "overwrite", Usage: "write: replace the record if it exists", Destination: &opts.overwrite},
			&cli.StringFlag{Name: "expect", Usage: "write, edit, delete: refuse unless the record's blob id is still `BLOB`", Destination: &opts.expect},
			&cli.StringFlag{Name: "old", Usage: "edit: the `TEXT` to replace", Destination: &opts.old},
			&cli.StringFlag{Name: "new", Usage: "edit: the replacement `TEXT`", Destination: &opts.new},
			formatFlag(&opts.format),
		},
		Action: func(c *cli.Context) error {
			opts.op, opts.path = c.Args().Get(0), c.Args().Get(1)
			if err := checkMemoryArgs(c.NArg(), opts.op); err != nil {
				return err
			}
			if err := checkMemoryFlags(c, opts); err != nil {
				return err
			}
			return runMemory(c.Context, env, g, opts)
		},
	}
}

var memoryOps = []string{"read", "write", "edit", "delete"}

// checkMemoryArgs: an operation and one PATH.
func checkMemoryArgs(n int, op string) error {
	switch {
	case n == 0:
		return usageError("memory needs an operation and a PATH")
	case !slices.Contains(memoryOps, op):
		return choiceError("memory operation", op, memoryOps, "git yoimem memory")
	case n == 1:
		return usageError("memory %s needs a PATH", op)
	case n > 2:
		return usageError("memory %s takes one PATH", op)
	}
	return nil
}

// memoryFlagOps says which operations take each flag: a flag given to
// another is a mistake to report, not to ignore.
var memoryFlagOps = map[string][]string{
	"create": {"write"}, "overwrite": {"write"}, "expect": {"write", "edit", "delete"},
	"old": {"edit"}, "new": {"edit"}, "format": {"read"},
}

func checkMemoryFlags(c *cli.Context, opts memoryOptions) error {
	for flag, ops := range memoryFlagOps {
		if c.IsSet(flag) && !slices.Contains(ops, opts.op) {
			return usageError("--%s is not an option of memory %s", flag, opts.op)
		}
	}
	if opts.create && (opts.overwrite || opts.expect != "") {
		return usageError("--create only creates; --overwrite and --expect replace: give one or the other")
	}
	if err := memory.CheckExpect(opts.expect); err != nil {
		return usageError("--%v", err) // --expect "…" is not a blob id: …
	}
	if opts.op == "edit" && (!c.IsSet("old") || !c.IsSet("new")) {
		return usageError("memory edit needs --old TEXT and --new TEXT")
	}
	return checkFormat(opts.format)
}

func runMemory(ctx context.Context, env Env, g *globalOptions, opts memoryOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	tools := w.Tools()
	if opts.op == "read" {
		return memoryRead(env, g, w, tools, opts)
	}
	var warnings []lint.Finding
	switch opts.op {
	case "write":
		content, rerr := readRecord(ctx, env, w)
		if rerr != nil {
			return rerr
		}
		warnings, err = tools.Write(ctx, opts.path, content, memory.WriteOptions{Create: opts.create, Overwrite: opts.overwrite, Expect: opts.expect})
	case "edit":
		warnings, err = tools.Edit(ctx, opts.path, opts.old, opts.new, opts.expect)
	case "delete":
		warnings, err = tools.Delete(ctx, opts.path, opts.expect)
	}
	if err != nil {
		return memoryError(env, w, err)
	}
	for _, f := range warnings {
		warnf(env.Stderr, "%s:%d:%d: %s: %s", record.DisplayPath(f.Path), f.Line, f.Col, f.Rule, f.Message)
	}
	rel, _ := record.ToolPath(opts.path) // the tool took it: it is clean
	statusf(env.Stderr, "%s %s", map[string]string{"write": "wrote", "edit": "edited", "delete": "deleted"}[opts.op], record.DisplayPath(rel))
	return nil
}

// readRecord reads a record to write from stdin, after checking there is
// a .yoi/ to write it to (no one types a record to be told there is not).
// It takes no lock: a writer waiting on its input holds no one up.
func readRecord(ctx context.Context, env Env, w *workspace.Workspace) ([]byte, error) {
	if _, err := os.Lstat(w.YoiDir()); errors.Is(err, fs.ErrNotExist) {
		return nil, noYoi(w, gitstore.ErrNoYoi)
	}
	content, err := readall.Read(ctx, env.Stdin, readall.Limit{
		Bytes: w.Config.Int(config.KeyLintMaxFileBytes), What: "standard input", Setting: config.KeyLintMaxFileBytes,
	})
	var tl *record.TooLargeError
	switch {
	case err == nil, errors.Is(err, context.Canceled):
		return content, err
	case errors.As(err, &tl):
		return nil, tooLargeError(err, tl)
	}
	return nil, cannotRun(err)
}

// memoryReadJSON is memory read --format json.
type memoryReadJSON struct {
	Path    string `json:"path"`
	Blob    string `json:"blob"`
	Content string `json:"content"`
}

func memoryRead(env Env, g *globalOptions, w *workspace.Workspace, tools *memory.Tools, opts memoryOptions) error {
	r, err := tools.Read(opts.path)
	if err != nil {
		return memoryError(env, w, err)
	}
	recordUse(env, g, w, metrics.HowRead, r.Path)
	if opts.format == "json" {
		return writeJSON(env, memoryReadJSON{Path: record.DisplayPath(r.Path), Blob: r.Blob, Content: string(r.Content)})
	}
	_, err = env.Stdout.Write(r.Content)
	return err
}

// memoryError is toolError, but for a workspace without .yoi/, which
// says what to do (exit 2).
func memoryError(env Env, w *workspace.Workspace, err error) error {
	if errors.Is(err, gitstore.ErrNoYoi) {
		return noYoi(w, err)
	}
	return toolError(err)
}

// toolError maps the tools' errors to exit codes: interrupted (130, run
// says so), the writers' lock held too long (3), I/O failures (2), and
// refusals (1): lint findings, a read-only or missing record, a change
// since it was read, a size over its limit, edit's "does not occur".
func toolError(err error) error {
	var tl *record.TooLargeError
	var pe *fs.PathError
	switch {
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, gitstore.ErrRecordsLocked):
		return &exitError{code: exitLocked, err: err, hints: []string{"another git-yoimem is writing the records; run this again once it is done"}}
	case errors.As(err, &tl):
		return tooLargeError(err, tl)
	case errors.Is(err, record.ErrChanged):
		return &exitError{code: exitFindings, err: err, hints: []string{"read it again ('git yoimem memory read PATH --format json' gives its blob id) and redo the change"}}
	case errors.As(err, &pe):
		return cannotRun(err)
	}
	return &exitError{code: exitFindings, err: err}
}
