package agent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// tidyRules are the linter's warnings that point at tidy-ups.
var tidyRules = []string{lint.RuleSimilarSlugs, lint.RuleSourcesLong, lint.RuleLowImportance}

// material writes the tidy-up material: usage (protected, unused), the
// locked records, the linter's tidy-up warnings and the replaced chains.
// Each list gets an equal share of what is left, a share a list does
// not use going to the next.
func (br *briefWriter) material(limit int) {
	w, start := &br.w, br.w.n
	w.str("# Tidy-up material\n")
	protected, unused, used, unknown := br.usage()
	chains, replaced := br.mem.chains()
	lists := []struct {
		head  string
		lines []string
		what  string
	}{
		{fmt.Sprintf("## Usage\n%s protected, %s unused, %s whose usage is unknown (never dropped).\nProtected (never dropped nor heavily compressed):\n", count(len(protected), "record"), count(len(unused), "record"), count(unknown, "record")), protected, "protected record"},
		{"Unused (no explicit invoke over the window of tokens; droppable unless protected):\n", unused, "unused record"},
		{"Used, below the protection frequency:\n", used, "used record"},
		{"## Locked (never changed)\n", br.locked(), "locked record"},
		{"## Linter warnings (tidy-up hints)\n", br.warnings(), "warning"},
		{fmt.Sprintf("## Replaced chains (%s in all)\nEvery replaced_by should name a live decision:\n", count(replaced, "replaced decision")), chains, "chain"},
	}
	for i, l := range lists {
		share := (limit - (w.n - start)) / (len(lists) - i)
		if w.list(share, []string{l.head}, nil) == 0 {
			continue
		}
		if len(l.lines) == 0 {
			w.list(limit-(w.n-start), []string{"(none)\n"}, nil)
			continue
		}
		what := l.what
		w.list(share-len(l.head), l.lines, func(n int) string {
			return fmt.Sprintf("… and %s, not listed for the budget (%s).\n", more(n, what), SettingBudget)
		})
	}
}

// usage lists the protected, the unused and the other used records, by
// path, and counts the records whose usage is unknown.
func (br *briefWriter) usage() (protected, unused, used []string, unknown int) {
	var paths []string
	for p := range br.in.Usage {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	known := 0
	for _, p := range paths {
		u := br.in.Usage[p]
		if !u.Known {
			continue
		}
		known++
		switch {
		case u.Protected:
			protected = append(protected, fmt.Sprintf("- %s: %.2f uses per Mtoken (%d uses)\n", record.DisplayPath(p), u.Frequency, u.Uses))
		case u.Unused:
			unused = append(unused, "- "+record.DisplayPath(p)+"\n")
		default:
			used = append(used, fmt.Sprintf("- %s: %.2f uses per Mtoken (%d uses)\n", record.DisplayPath(p), u.Frequency, u.Uses))
		}
	}
	return protected, unused, used, max(0, len(br.mem.list)+br.mem.knowledge-known)
}

func (br *briefWriter) locked() []string {
	var out []string
	for p, on := range br.in.Locked {
		if on {
			out = append(out, "- "+record.DisplayPath(p)+"\n")
		}
	}
	slices.Sort(out)
	return out
}

// warnings are the linter's tidy-up warnings over the base.
func (br *briefWriter) warnings() []string {
	rep := lint.Tree(br.in.Base, br.in.Lint, nil)
	var out []string
	for _, f := range rep.Findings {
		if f.Severity != lint.Warning || !slices.Contains(tidyRules, f.Rule) {
			continue
		}
		out = append(out, fmt.Sprintf("- %s:%d: %s: %s\n", record.DisplayPath(f.Path), f.Line, f.Rule, clipRunes(oneLine(f.Message), 300)))
	}
	return out
}

// defuse rewrites the data markers in text ("<yoimem-data", "</yoimem-data",
// in any case) as "<yoimem_data": only the brief's own markers delimit
// data, whatever a record or an entry says.
func defuse(text string) string {
	const name = "yoimem-data"
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '/' {
			j++
		}
		if len(text)-j >= len(name) && strings.EqualFold(text[j:j+len(name)], name) {
			dash := j + len("yoimem")
			b.WriteString(text[last:dash])
			b.WriteByte('_')
			last = dash + 1
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
