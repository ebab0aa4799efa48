package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/metrics"
)

type statsOptions struct {
	format string
}

func newStatsCommand(env Env, g *globalOptions) *cli.Command {
	var opts statsOptions
	return &cli.Command{
		Name:      "stats",
		Usage:     "usage of records: frequency per million input tokens, protection, knowledge candidates",
		UsageText: "git yoimem stats [--format text|json]",
		Description: `Reads the usage events (this machine's per-session journals and the
committed .yoi/metrics/) and the token ledger, and lists each used record
with its uses, frequency (its last yoimem.metrics.window invokes per
million input tokens since the oldest of them) and whether it is
protected (frequency >= yoimem.metrics.protectFrequency), then the
knowledge-candidate report. --format json prints {"records", "candidates"}.`,
		Flags: []cli.Flag{formatFlag(&opts.format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 0 {
				return usageError("stats takes no arguments")
			}
			return runStats(c.Context, env, g, opts)
		},
	}
}

type statsJSON struct {
	Records    []metrics.Stat      `json:"records"`
	Candidates []metrics.Candidate `json:"candidates"`
}

func runStats(ctx context.Context, env Env, g *globalOptions, opts statsOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	stats, cands, err := usageStats(w)
	if err != nil {
		return cannotRun(err)
	}
	if opts.format == "json" {
		out := statsJSON{Records: stats, Candidates: cands}
		if out.Records == nil {
			out.Records = []metrics.Stat{}
		}
		if out.Candidates == nil {
			out.Candidates = []metrics.Candidate{}
		}
		return writeJSON(env, out)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RECORD\tUSES\tPER MTOKEN\tPROTECTED")
	for _, s := range stats {
		freq := "-"
		if s.Known {
			freq = fmt.Sprintf("%.2f", s.Frequency)
		}
		fmt.Fprintf(tw, ".yoi/%s\t%d\t%s\t%t\n", s.Record, s.Uses, freq, s.Protected)
	}
	tw.Flush()
	if len(cands) > 0 {
		b.WriteString("\nknowledge candidates:\n")
		for _, c := range cands {
			fmt.Fprintf(&b, "  .yoi/%s  %.2f per Mtoken, %d uses in %d sessions\n", c.Record, c.Frequency, c.Uses, c.Sessions)
		}
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}
