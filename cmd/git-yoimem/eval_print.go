package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/yoimem/git-yoimem/eval"
)

// evalOutput is eval's --format json.
type evalOutput struct {
	*eval.Report
	Regressions  []eval.Change `json:"regressions,omitempty"`
	Improvements []eval.Change `json:"improvements,omitempty"`
}

// printEval prints the score: a table of scenarios, the failures with
// their reasons, the totals per category and overall, and the
// comparison with the baseline.
func printEval(env Env, format string, rep *eval.Report, diff *eval.Diff) error {
	if format == "json" {
		out := evalOutput{Report: rep}
		if diff != nil {
			out.Regressions, out.Improvements = diff.Regressions, diff.Improvements
		}
		return writeJSON(env, out)
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SCENARIO\tPASSED\tTOKENS IN/OUT\tTIME\tFAILED")
	for _, s := range rep.Scenarios {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", terminalSafe(s.Name), scenarioScore(s), tokens(s), elapsed(s.ElapsedMS), terminalSafe(failedNames(s)))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	printFailures(env, rep)
	fmt.Fprintln(env.Stdout)
	w = tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	for _, c := range rep.Categories {
		fmt.Fprintf(w, "%s\t%d/%d\t%s\n", eval.CategoryTitle(c.Category), c.Passed, c.Total, percent(c.Tally))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, totalLine(rep))
	if diff != nil {
		printDiff(env, diff)
	}
	return nil
}

func scenarioScore(s eval.ScenarioReport) string {
	switch {
	case s.NotRecorded:
		return "not recorded"
	case s.ByDesign:
		return fmt.Sprintf("%d/%d by design", s.Tally.Passed, s.Tally.Total)
	}
	return fmt.Sprintf("%d/%d", s.Tally.Passed, s.Tally.Total)
}

func tokens(s eval.ScenarioReport) string {
	if s.InputTokens == 0 && s.OutputTok == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", s.InputTokens, s.OutputTok)
}

func failedNames(s eval.ScenarioReport) string {
	var out []string
	for _, o := range s.Outcomes {
		if !o.Passed {
			out = append(out, o.Name)
		}
	}
	if s.Error != "" {
		out = append([]string{"(run failed)"}, out...)
	}
	return strings.Join(out, ", ")
}

func printFailures(env Env, rep *eval.Report) {
	first := true
	for _, s := range rep.Scenarios {
		if s.Error == "" && s.Tally.Passed == s.Tally.Total && s.Kept == "" {
			continue
		}
		if first {
			fmt.Fprintln(env.Stdout)
			first = false
		}
		fmt.Fprintf(env.Stdout, "%s:\n", terminalSafe(s.Name))
		if s.Kept != "" {
			fmt.Fprintf(env.Stdout, "  repository kept: %s\n", terminalSafe(s.Kept))
		}
		if s.Error != "" {
			fmt.Fprintf(env.Stdout, "  run failed: %s\n", terminalSafe(strings.ReplaceAll(s.Error, "\n", "\n    ")))
		}
		for _, o := range s.Outcomes {
			if !o.Passed {
				fmt.Fprintf(env.Stdout, "  %s (%s): %s\n", terminalSafe(o.Name), o.Category, terminalSafe(o.Reason))
			}
		}
	}
}

func percent(t eval.Tally) string {
	if t.Total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", t.Percent())
}

// totalLine is the headline: e.g. "rules engine: 71/84 expectations
// (84.5 %), 3 scenarios by design apart".
func totalLine(rep *eval.Report) string {
	engine := rep.Engine + " engine"
	if rep.Model != "" {
		engine += " (" + rep.Model + ")"
	} else if rep.Engine == "llm" {
		engine += " (recorded answers)"
	}
	s := fmt.Sprintf("%s: %d/%d expectations (%s)", engine, rep.Total.Passed, rep.Total.Total, percent(rep.Total))
	if n := rep.ByDesignCount(); n > 0 {
		s += fmt.Sprintf(", %d scenario(s) by design apart (%d/%d)", n, rep.ByDesign.Passed, rep.ByDesign.Total)
	}
	if rep.NotRecorded > 0 {
		s += fmt.Sprintf(", %d scenario(s) not recorded", rep.NotRecorded)
	}
	if rep.Errors > 0 {
		s += fmt.Sprintf(", %d run(s) failed", rep.Errors)
	}
	return s
}

func printDiff(env Env, d *eval.Diff) {
	if len(d.Regressions) == 0 {
		fmt.Fprintln(env.Stdout, "baseline: no regression")
	}
	for _, c := range d.Regressions {
		fmt.Fprintf(env.Stdout, "regression: %s\n", terminalSafe(c.String()))
	}
	for _, c := range d.Improvements {
		fmt.Fprintf(env.Stdout, "improvement: %s\n", terminalSafe(c.String()))
	}
}

// elapsed is a scenario's time: milliseconds under a second (a rules run
// takes tens of them), else seconds.
func elapsed(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}
