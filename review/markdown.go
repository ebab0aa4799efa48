package review

import (
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// Markdown renders the report as a pull request's description. Text from
// commit messages has its control characters escaped.
func Markdown(r Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Memory review: %s\n\n", code(r.Range))
	fmt.Fprintf(&b, "%s, %s skipped.\n", count(len(r.Commits), "memory commit"), count(len(r.Skipped), "other commit"))
	for _, c := range r.Commits {
		writeCommit(&b, c)
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\n## Skipped commits\n\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "- %s %s: %s\n", code(short(s.Commit)), quote.Controls(s.Subject), quote.Controls(s.Why))
		}
	}
	return b.String()
}

func writeCommit(b *strings.Builder, c Commit) {
	fmt.Fprintf(b, "\n## %s %s\n\n", code(short(c.Commit)), quote.Controls(c.Subject))
	engine := quote.Controls(c.Engine)
	if c.Model != "" {
		engine += " (" + quote.Controls(c.Model) + ")"
	}
	fmt.Fprintf(b, "%s, run %s, engine %s\n", c.Date, code(c.RunID), engine)
	section(b, "Operations", len(c.Groups), func() {
		for _, g := range c.Groups {
			fmt.Fprintf(b, "- **%s**\n", quote.Controls(g.Name))
			for _, op := range g.Ops {
				fmt.Fprintf(b, "  - %s\n", opLine(op))
			}
		}
	})
	list(b, "New records", c.NewRecords, code)
	section(b, "Possible information loss", len(c.Losses), func() {
		for _, l := range c.Losses {
			fmt.Fprintf(b, "- %s\n", lossLine(l))
		}
	})
	section(b, "Protected records touched", len(c.Protected), func() {
		for _, t := range c.Protected {
			fmt.Fprintf(b, "- %s (%s): %s, %.2f per million input tokens (judged %s)\n", code(t.Path), t.Op, count(t.Uses, "use"), t.Frequency, judgedWhen(t.Judged))
		}
	})
	section(b, "New knowledge", len(c.NewKnowledge), func() {
		for _, k := range c.NewKnowledge {
			fmt.Fprintf(b, "- %s: %s\n", code(k.Path), quote.Controls(k.Reason))
			if len(k.Candidates) == 0 {
				b.WriteString("  - candidates the run had: none recorded\n")
				continue
			}
			fmt.Fprintf(b, "  - candidates the run had (the commit does not say which this came from): %s\n", codes(k.Candidates))
		}
	})
	list(b, "Sessions", c.Sessions, func(s string) string { return code(quote.Controls(s)) })
	list(b, "Not recovered", c.Unrecovered, quote.Controls)
}

func opLine(op Op) string {
	s := op.Op + " " + code(op.Path)
	if op.Target != "" {
		s += " → " + code(op.Target)
	}
	return s + ": " + quote.Controls(op.Reason)
}

func lossLine(l Loss) string {
	var parts []string
	if l.Removed {
		parts = append(parts, "removed")
	}
	if len(l.LostSources) > 0 {
		parts = append(parts, "lost sources "+codes(l.LostSources))
	}
	if l.RemovedLine > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d body lines gone", l.RemovedLine, l.BodyLines))
	}
	return code(l.Path) + ": " + strings.Join(parts, "; ")
}

// section writes a heading and its items, or nothing when there are none.
func section(b *strings.Builder, title string, n int, items func()) {
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "\n### %s\n\n", title)
	items()
}

func list(b *strings.Builder, title string, items []string, show func(string) string) {
	section(b, title, len(items), func() {
		for _, it := range items {
			fmt.Fprintf(b, "- %s\n", show(it))
		}
	})
}

func code(s string) string { return "`" + quote.Controls(strings.ReplaceAll(s, "`", "'")) + "`" }

func codes(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = code(s)
	}
	return strings.Join(out, ", ")
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func judgedWhen(j string) string {
	if j == "now" {
		return "now: the commit has no note"
	}
	return "by the run"
}
