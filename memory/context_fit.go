package memory

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// desc is a model-invocable record's line in the context.
type desc struct{ slug, text string }

func (d desc) line() string { return "- #" + d.slug + ": " + d.text + "\n" }

// descHead introduces the description lines (left out with the last).
const descHead = "\nKnowledge you can look up with knowledge_search (slug: when to read it):\n"

// fitDescriptions chooses the description lines that fit budget after
// used characters, filling res's Included, Left and Costs, and returns
// them (after descHead) with the notice naming what was left out (""
// when nothing was). The notice counts against the budget like any
// line: while it does not fit, the last description in is left out too
// (each one out shortens the text, since its slug costs less in the
// notice than its line did, and the head goes with the last). budget <= 0
// is no budget.
func fitDescriptions(descs []desc, budget, used int, res *ContextResult) ([]string, string, error) {
	if len(descs) == 0 {
		return nil, "", nil
	}
	headLen := utf8.RuneCountInString(descHead)
	used += headLen
	var in []desc
	for _, d := range descs {
		n := utf8.RuneCountInString(d.line())
		if budget > 0 && used+n > budget {
			res.Left = append(res.Left, d.slug)
			continue
		}
		in = append(in, d)
		used += n
	}
	if len(in) == 0 {
		used -= headLen
	}
	for len(res.Left) > 0 {
		notice := leftOutNotice(budget, res.Left, budget-used)
		if used+utf8.RuneCountInString(notice) <= budget {
			break
		}
		if len(in) == 0 {
			return nil, "", fmt.Errorf("the summary and the line naming the %d description(s) left out have %d characters, over the context budget of %d (yoimem.context.budgetChars): shorten memory/summary.md or raise the budget", len(res.Left), used+utf8.RuneCountInString(notice), budget)
		}
		last := in[len(in)-1]
		in = in[:len(in)-1]
		used -= utf8.RuneCountInString(last.line())
		if len(in) == 0 {
			used -= headLen
		}
		res.Left = append(res.Left, last.slug)
		sort.Strings(res.Left)
	}
	var lines []string
	if len(in) > 0 {
		lines = append(lines, descHead)
	}
	for _, d := range in {
		lines = append(lines, d.line())
		res.Included = append(res.Included, d.slug)
		res.Costs[d.slug] = tokens.Estimate([]byte(d.line()))
	}
	if len(res.Left) == 0 {
		return lines, "", nil
	}
	return lines, leftOutNotice(budget, res.Left, budget-used), nil
}

// leftOutNotice is the visible line naming the descriptions left out: as
// many slugs as fit in room characters, then how many more there are and
// where the whole list is (the notice is never longer than room unless
// even its shortest form is).
func leftOutNotice(budget int, left []string, room int) string {
	head := fmt.Sprintf("[git-yoimem: over the context budget of %d characters; %d description(s) left out: ", budget, len(left))
	all := head + strings.Join(left, ", ") + "]\n"
	if utf8.RuneCountInString(all) <= room {
		return all
	}
	named := 0
	size := utf8.RuneCountInString(head)
	for named < len(left) {
		sep := 0
		if named > 0 {
			sep = 2
		}
		next := size + sep + utf8.RuneCountInString(left[named])
		if next+utf8.RuneCountInString(moreTail(named+1, len(left)-named-1)) > room {
			break
		}
		size = next
		named++
	}
	return head + strings.Join(left[:named], ", ") + moreTail(named, len(left)-named)
}

// moreTail ends a notice that names only named of the slugs left out.
func moreTail(named, more int) string {
	if named == 0 {
		return "`git yoimem context --format json` lists them]\n"
	}
	return fmt.Sprintf(" and %d more; `git yoimem context --format json` lists them]\n", more)
}
