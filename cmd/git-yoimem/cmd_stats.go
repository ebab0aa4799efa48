package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type statsOptions struct {
	format string
}

func newStatsCommand(env Env, g *globalOptions) *cli.Command {
	var opts statsOptions
	return &cli.Command{
		Name:      "stats",
		Usage:     "usage of records: frequency per million input tokens, state, knowledge candidates",
		UsageText: "git yoimem stats [--format text|json]",
		Description: `Reads the usage events and the token ledger (this machine's journals
and ledger, the committed .yoi/metrics/ of the working tree, and those of
the memory branch while it is not merged into the base branch) and lists
every decision, request and knowledge record of the working tree, and any
other record usage names, with its uses, frequency (its last
yoimem.metrics.window invokes per million input tokens since the oldest
of them) and state: unknown (not enough input tokens counted to tell),
unused (no invoke over the last yoimem.metrics.window x 1,000,000 /
yoimem.metrics.protectFrequency input tokens), used, or protected
(frequency >= yoimem.metrics.protectFrequency); "locked" when no
consolidation may change it (its file is read-only, or
yoimem.consolidate.locked lists it). Then the knowledge-candidate
report. A frequency is "unknown" until the token ledger (fed by every
extract and extract --check) has counted input tokens since the record's
first use; the reasons are on stderr.

--format json prints {"records": [{path, uses, frequency (null when
unknown), frequency_known, reason (why unknown), state, locked,
protected, inject_tokens}], "candidates": [{path, frequency, uses,
sessions}]}.`,
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

// statsJSON is stats --format json: paths from the workspace root, an
// unknown frequency as null with the reason.
type statsJSON struct {
	Records    []statJSON      `json:"records"`
	Candidates []candidateJSON `json:"candidates"`
}

type statJSON struct {
	Path           string   `json:"path"`
	Uses           int      `json:"uses"`
	Frequency      *float64 `json:"frequency"` // invokes per million input tokens; null when unknown
	FrequencyKnown bool     `json:"frequency_known"`
	Reason         string   `json:"reason,omitempty"` // why it is unknown
	State          string   `json:"state"`            // unknown, unused, used, protected
	Locked         bool     `json:"locked"`
	Protected      bool     `json:"protected"`
	InjectTokens   int64    `json:"inject_tokens,omitempty"`
}

type candidateJSON struct {
	Path      string  `json:"path"`
	Frequency float64 `json:"frequency"`
	Uses      int     `json:"uses"`
	Sessions  int     `json:"sessions"`
}

func runStats(ctx context.Context, env Env, g *globalOptions, opts statsOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	stats, cands, err := w.RecordStats(ctx)
	if err != nil {
		return usageReadError(w, err)
	}
	if opts.format == "json" {
		return writeJSON(env, statsOutput(stats, cands))
	}
	q := w.PathQuoter(ctx) // records come from events anyone may have committed
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RECORD\tUSES\tPER MTOKEN\tSTATE")
	reasons := map[string]bool{}
	for _, s := range stats {
		freq := "unknown"
		if s.Known {
			freq = fmt.Sprintf("%.2f", s.Frequency)
		} else {
			reasons[s.Reason] = true
		}
		state := s.State().String()
		if s.Locked {
			state += ", locked"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", q.Path(record.DisplayPath(s.Record)), s.Uses, freq, state)
	}
	tw.Flush()
	if len(cands) > 0 {
		b.WriteString("\nknowledge candidates:\n")
		for _, c := range cands {
			fmt.Fprintf(&b, "  %s  %.2f per Mtoken, %d uses in %d sessions\n", q.Path(record.DisplayPath(c.Record)), c.Frequency, c.Uses, c.Sessions)
		}
	}
	for _, r := range unknownReasons {
		if reasons[r] {
			statusf(env.Stderr, "unknown: %s", r)
		}
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}

// unknownReasons are the reasons usage can be unknown, in the order stats
// explains them.
var unknownReasons = []string{metrics.ReasonNoLedger, metrics.ReasonNoneSince, metrics.ReasonNoUses,
	metrics.ReasonTooNew, metrics.ReasonNoCreated, metrics.ReasonNoSpan}

func statsOutput(stats []workspace.RecordStat, cands []metrics.Candidate) statsJSON {
	out := statsJSON{Records: make([]statJSON, 0, len(stats)), Candidates: make([]candidateJSON, 0, len(cands))}
	for _, s := range stats {
		j := statJSON{Path: record.DisplayPath(s.Record), Uses: s.Uses, FrequencyKnown: s.Known, Reason: s.Reason,
			State: s.State().String(), Locked: s.Locked, Protected: s.Protected, InjectTokens: s.InjectTokens}
		if s.Known {
			f := s.Frequency
			j.Frequency = &f
		}
		out.Records = append(out.Records, j)
	}
	for _, c := range cands {
		out.Candidates = append(out.Candidates, candidateJSON{Path: record.DisplayPath(c.Record), Frequency: c.Frequency, Uses: c.Uses, Sessions: c.Sessions})
	}
	return out
}

// usageReadError is a failure to read usage or the records, with what
// to do about a damaged file or a missing .yoi/.
func usageReadError(w *workspace.Workspace, err error) error {
	if advice := w.UsageAdvice(err); advice != "" {
		return cannotRun(err, advice)
	}
	return workspaceError(err)
}
