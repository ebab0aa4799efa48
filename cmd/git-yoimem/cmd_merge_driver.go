package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/internal/smallfile"
	"github.com/yoimem/git-yoimem/recmerge"
)

// mergeDriverMaxBytes bounds each of the three files the driver reads:
// far above any record (yoimem.lint.maxFileBytes refuses records over
// 1 MiB by default), low enough that a stray huge file is named, not read.
const mergeDriverMaxBytes = 64 << 20

func newMergeDriverCommand(env Env, _ *globalOptions) *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "merge three versions of a record (git's merge driver for .yoi/**/*.md)",
		UsageText: "git yoimem merge-driver ANCESTOR OURS THEIRS [PATH]",
		Description: `Git runs this as the merge driver 'yoimem' (registered by init and install:
merge.yoimem.driver = git yoimem merge-driver %O %A %B %P, and .gitattributes
.yoi/**/*.md merge=yoimem). The frontmatter is merged field by field with
the record rules, the body line by line; the result is written into OURS.
Exit 0: merged cleanly; 1: a conflict, left between markers in the body
(never in the YAML); 2: a file could not be read or written. See
docs/merging.md.`,
		Action: func(c *cli.Context) error {
			if c.NArg() < 3 || c.NArg() > 4 {
				return usageErrorHint("git config merge.yoimem.driver 'git yoimem merge-driver %O %A %B %P'", "merge-driver takes 3 or 4 arguments (%%O %%A %%B [%%P]), not %d", c.NArg())
			}
			path := c.Args().Get(3)
			if path == "" {
				path = c.Args().Get(1)
			}
			return runMergeDriver(env, c.Args().Get(0), c.Args().Get(1), c.Args().Get(2), path)
		},
	}
}

func runMergeDriver(env Env, basePath, oursPath, theirsPath, path string) error {
	var in [3][]byte
	for i, p := range []string{basePath, oursPath, theirsPath} {
		b, err := smallfile.Read(p, mergeDriverMaxBytes)
		if err != nil {
			return cannotRun(fmt.Errorf("merge %s: %w", path, err), "git leaves "+strconv.Quote(path)+" as a conflict; resolve it by hand")
		}
		in[i] = b
	}
	merged, conflict, err := recmerge.Merge(path, in[0], in[1], in[2])
	if err != nil {
		return cannotRun(err, "git leaves "+strconv.Quote(path)+" as a conflict; resolve it by hand")
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(oursPath); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := atomicfile.Write(oursPath, merged, mode); err != nil {
		return cannotRun(fmt.Errorf("merge %s: write %s: %w", path, oursPath, err))
	}
	if conflict {
		statusf(env.Stderr, "git-yoimem: conflict in %s: markers left in the body", path)
		return silentExit(exitFindings)
	}
	return nil
}
