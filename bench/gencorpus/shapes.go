package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The -shapes modes.
const (
	shapesMixed     = "mixed"
	shapesCanonical = "canonical"
)

// A record is canonical when its bytes are exactly what record.Render
// writes for its fields, followed by its body: the kind's key order, one
// key per line, plain scalars, sources as a block list of one-line flow
// mappings, LF line endings, nothing else. `-shapes canonical` writes only
// such records (the generator's output before the mixed mode existed).
//
// `-shapes mixed` writes memory the way it looks in a repository where
// people and models edit records too. The proportions below are this
// generator's estimate of such a repository, stated here so figures can be
// read against them:
//
//   - toolWrittenPct of the decisions, requests and knowledge records are
//     written by git-yoimem's tools: canonical (the summary always is).
//   - The others are written by hand or by a model. Each draws the features
//     below independently, with the percent given (of those records), so a
//     record usually has several; one that draws none is canonical too.
//     main_test.go checks that at least half of a mixed corpus is not
//     canonical and that every record lints without errors.
const toolWrittenPct = 35

// maxLongBody bounds a long body in bytes, so that a record stays under
// the smallest character cap (12,000, decisions and requests) with its
// frontmatter.
const maxLongBody = 10000

// weighted is one choice of a layout with its weight (percent).
type weighted struct {
	name string
	pct  int
}

// sourceStyles: how a hand-written record lays out sources or last_sources.
var sourceStyles = []weighted{
	{"flow", 30},         //   - {session_id: X, range: [a, b]}  (what Render writes)
	{"block", 35},        //   - session_id: X / range: [a, b] on their own lines
	{"block-range", 7},   //   the same with range as a block list of two lines
	{"column0", 10},      // - {session_id: X, range: [a, b]}  with the dash at column 1
	{"flow-variant", 10}, // keys swapped, spaces inside braces, quoted session ids
	{"one-line", 8},      // sources: [{…}, {…}]
}

// descStyles: how a hand-written knowledge record writes its description.
var descStyles = []weighted{
	{"plain", 30},
	{"double", 12},          // "…" with \" and \u escapes
	{"single", 8},           // '…' with a doubled ''
	{"multiline", 15},       // a plain scalar wrapped over indented lines
	{"folded", 15},          // >
	{"folded-strip", 5},     // >-
	{"literal", 8},          // |
	{"double-multiline", 7}, // "…" wrapped over lines, with escapes
}

// Features of hand- and model-written records, each in percent of them.
const (
	pctJaDescription = 20 // knowledge description in Japanese
	pctComment       = 25 // a full-line YAML comment in the frontmatter
	pctTrailing      = 15 // a comment after a scalar value
	pctReorder       = 30 // keys in another order
	pctUnknownKeys   = 25 // one or two keys the format does not define
	pctQuotedTime    = 12 // "2026-…Z"
	pctOffsetTime    = 6  // +00:00 instead of Z
	pctMillisTime    = 6  // .000Z, as JavaScript's toISOString writes
	pctBlankLine     = 5  // a blank line between keys
	pctAlias         = 5  // model_invocation, the alias of model_invokation
	pctQuotedEnum    = 10 // status: "resolved", kind: 'howto'
	pctJaBody        = 20 // a section in Japanese in the body
	pctLongBody      = 15 // a long body, 5–9 KB, with several code fences
	pctCRLF          = 8  // the whole file with CRLF line endings
)

// shapeStats counts what the mixed mode wrote, for the summary line.
type shapeStats struct {
	hand, blockSources, multiLineDesc, quotedDesc, japanese, comments, reordered, unknown, longBody, crlf int
}

func (s shapeStats) String() string {
	return fmt.Sprintf("written by hand or a model %d: sources in block mappings %d, multi-line descriptions %d, quoted descriptions %d, Japanese %d, comments %d, keys reordered %d, unknown keys %d, long bodies %d, CRLF %d",
		s.hand, s.blockSources, s.multiLineDesc, s.quotedDesc, s.japanese, s.comments, s.reordered, s.unknown, s.longBody, s.crlf)
}

func (g *generator) chance(pct int) bool { return g.r.IntN(100) < pct }

func (g *generator) choose(ws []weighted) string {
	n := g.r.IntN(100)
	for _, w := range ws {
		if n < w.pct {
			return w.name
		}
		n -= w.pct
	}
	return ws[len(ws)-1].name
}

// entry is one top-level key of a frontmatter with all its lines (no
// trailing line break).
type entry struct {
	key, text string
	scalar    bool // one line holding a plain scalar: a comment may follow it
}

// handRecord writes rec as a person or a model would: the frontmatter in
// the drawn shapes, the body with the drawn additions. desc is the
// knowledge description the canonical record holds. It draws only from
// g, the shape generator, so the canonical corpus's stream is untouched.
func (g *generator) handRecord(rec *record, desc, body string, st *shapeStats) string {
	st.hand++
	var es []entry
	japanese := false
	if rec.kind == "knowledge" {
		es = append(es, entry{key: "kind", text: "kind: " + g.maybeQuoteEnum(rec.kkind), scalar: true})
		if g.chance(pctJaDescription) {
			desc, japanese = g.jaDescription(rec), true
		}
		es = append(es, entry{key: "description", text: g.descEntry(rec, desc, st)})
		inv := "model_invokation"
		if g.chance(pctAlias) {
			inv = "model_invocation"
		}
		es = append(es,
			entry{key: inv, text: inv + ": " + strconv.FormatBool(rec.invocable), scalar: true},
			entry{key: "user_invocable", text: "user_invocable: " + strconv.FormatBool(rec.userInv), scalar: true})
	}
	created, updated := g.timeValue(rec.created), g.timeValue(rec.updated)
	es = append(es,
		entry{key: "created_at", text: "created_at: " + created, scalar: true},
		entry{key: "updated_at", text: "updated_at: " + updated, scalar: true})
	if rec.kind == "decision" {
		es = append(es, entry{key: "status", text: "status: " + g.maybeQuoteEnum(rec.status), scalar: true})
		if rec.replaced != "" {
			es = append(es, entry{key: "replaced_by", text: "replaced_by: " + rec.replaced, scalar: true})
		}
	}
	srcKey := "sources"
	if rec.kind == "knowledge" {
		srcKey = "last_sources"
	}
	es = append(es, entry{key: srcKey, text: g.sourcesEntry(srcKey, rec.sources, st)})
	if g.chance(pctUnknownKeys) {
		st.unknown++
		for _, e := range g.unknownKeys() {
			i := g.r.IntN(len(es) + 1)
			es = append(es[:i], append([]entry{e}, es[i:]...)...)
		}
	}
	if g.chance(pctReorder) {
		st.reordered++
		g.r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	}
	lines := g.decorate(es, st)

	if g.chance(pctJaBody) {
		japanese = true
		body += "\n## " + g.pick(jaHeadings) + "\n\n" + strings.TrimSuffix(g.jaParagraph(1, 4), "\n")
	}
	if g.chance(pctLongBody) {
		st.longBody++
		body = g.longBody(body)
	}
	if japanese {
		st.japanese++
	}
	text := "---\n" + strings.Join(lines, "\n") + "\n---\n" + body
	if g.chance(pctCRLF) {
		st.crlf++
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// decorate joins the entries' lines, with the drawn comments and blank
// lines.
func (g *generator) decorate(es []entry, st *shapeStats) []string {
	commented := false
	if g.chance(pctTrailing) {
		var scalars []int
		for i, e := range es {
			if e.scalar {
				scalars = append(scalars, i)
			}
		}
		if len(scalars) > 0 {
			i := scalars[g.r.IntN(len(scalars))]
			es[i].text += " " + g.pick(trailingComments)
			commented = true
		}
	}
	var lines []string
	for _, e := range es {
		lines = append(lines, strings.Split(e.text, "\n")...)
	}
	if g.chance(pctComment) {
		// A comment goes before a top-level key (or at the end), never
		// inside a multi-line value.
		var at []int
		for i, l := range lines {
			if l != "" && l[0] != ' ' && l[0] != '-' {
				at = append(at, i)
			}
		}
		at = append(at, len(lines))
		i := at[g.r.IntN(len(at))]
		lines = append(lines[:i], append([]string{g.pick(lineComments)}, lines[i:]...)...)
		commented = true
	}
	if commented {
		st.comments++
	}
	if g.chance(pctBlankLine) {
		for i := len(lines) - 1; i > 0; i-- {
			if lines[i][0] != ' ' && lines[i][0] != '-' && lines[i][0] != '#' {
				lines = append(lines[:i], append([]string{""}, lines[i:]...)...)
				break
			}
		}
	}
	return lines
}

var lineComments = []string{
	"# written by hand after the incident review",
	"# TODO: fold this into the cache notes once the migration lands",
	"# keep until the v2 rollout is done",
	"# edited by the agent, checked by a reviewer",
	"# 2026-02 の見直しで更新",
	"# sources copied from the session log by hand",
}

var trailingComments = []string{
	"# waiting on the infra team",
	"# was open until February",
	"# 要確認",
	"# set by the review",
	"# see the runbook",
}

// maybeQuoteEnum writes a status or kind word, sometimes quoted.
func (g *generator) maybeQuoteEnum(s string) string {
	if !g.chance(pctQuotedEnum) {
		return s
	}
	if g.r.IntN(2) == 0 {
		return `"` + s + `"`
	}
	return "'" + s + "'"
}

// timeValue writes a timestamp in one of the forms the linter accepts.
func (g *generator) timeValue(t time.Time) string {
	s := t.Format("2006-01-02T15:04:05Z")
	switch n := g.r.IntN(100); {
	case n < pctQuotedTime:
		return `"` + s + `"`
	case n < pctQuotedTime+pctOffsetTime:
		return strings.TrimSuffix(s, "Z") + "+00:00"
	case n < pctQuotedTime+pctOffsetTime+pctMillisTime:
		return strings.TrimSuffix(s, "Z") + ".000Z"
	}
	return s
}

func (g *generator) sourcesEntry(key string, srcs []source, st *shapeStats) string {
	style := g.choose(sourceStyles)
	var b strings.Builder
	b.WriteString(key + ":")
	switch style {
	case "one-line":
		b.WriteString(" [")
		for i, s := range srcs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{session_id: %s, range: [%d, %d]}", s.session, s.start, s.end)
		}
		b.WriteString("]")
		return b.String()
	case "block", "block-range":
		st.blockSources++
	}
	for _, s := range srcs {
		switch style {
		case "block":
			fmt.Fprintf(&b, "\n  - session_id: %s\n    range: [%d, %d]", s.session, s.start, s.end)
		case "block-range":
			fmt.Fprintf(&b, "\n  - session_id: %s\n    range:\n      - %d\n      - %d", s.session, s.start, s.end)
		case "column0":
			fmt.Fprintf(&b, "\n- {session_id: %s, range: [%d, %d]}", s.session, s.start, s.end)
		case "flow-variant":
			switch g.r.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "\n  - {range: [%d, %d], session_id: %s}", s.start, s.end, s.session)
			case 1:
				fmt.Fprintf(&b, "\n  - { session_id: %s, range: [ %d, %d ] }", s.session, s.start, s.end)
			case 2:
				fmt.Fprintf(&b, "\n  - {session_id: \"%s\", range: [%d, %d]}", s.session, s.start, s.end)
			default:
				fmt.Fprintf(&b, "\n  - {session_id: '%s', range: [%d,%d]}", s.session, s.start, s.end)
			}
		default:
			fmt.Fprintf(&b, "\n  - {session_id: %s, range: [%d, %d]}", s.session, s.start, s.end)
		}
	}
	return b.String()
}

// descEntry writes the description key in the drawn style. The generated
// descriptions hold no colon, hash sign, quote or backslash, so each style
// only adds its own quoting.
func (g *generator) descEntry(rec *record, desc string, st *shapeStats) string {
	subject := strings.ReplaceAll(rec.slug, "-", " ")
	style := g.choose(descStyles)
	switch style {
	case "double", "single", "double-multiline":
		st.quotedDesc++
	case "multiline", "folded", "folded-strip", "literal":
		st.multiLineDesc++
	}
	switch style {
	case "double":
		d := strings.Replace(desc, subject, `\"`+subject+`\"`, 1)
		if g.r.IntN(3) == 0 {
			d += ` \u2014 kept short on purpose.`
		}
		return `description: "` + d + `"`
	case "single":
		return "description: '" + strings.ReplaceAll(desc+" Don't skip it.", "'", "''") + "'"
	case "multiline":
		return "description: " + strings.Join(wrap(desc, 60), "\n  ")
	case "folded", "folded-strip", "literal":
		ind := map[string]string{"folded": ">", "folded-strip": ">-", "literal": "|"}[style]
		return "description: " + ind + "\n  " + strings.Join(wrap(desc, 60), "\n  ")
	case "double-multiline":
		d := strings.Replace(desc, subject, `\"`+subject+`\"`, 1)
		return `description: "` + strings.Join(wrap(d, 60), "\n  ") + `"`
	}
	return "description: " + desc
}

// wrap cuts s into lines of about width characters, at spaces when it has
// them (English) and anywhere between characters when not (Japanese).
func wrap(s string, width int) []string {
	var out []string
	for utf8.RuneCountInString(s) > width {
		cut := -1
		n := 0
		for i := range s {
			if n == width {
				cut = i
				break
			}
			n++
		}
		if sp := strings.LastIndexByte(s[:cut], ' '); sp > 0 {
			out = append(out, s[:sp])
			s = s[sp+1:]
			continue
		}
		if strings.ContainsRune(s, ' ') {
			sp := strings.IndexByte(s, ' ')
			out = append(out, s[:sp])
			s = s[sp+1:]
			continue
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// unknownKeys returns one or two keys the record format does not define,
// as people and other tools add them.
func (g *generator) unknownKeys() []entry {
	all := []func() entry{
		func() entry {
			return entry{key: "tags", text: fmt.Sprintf("tags: [%s, %s]", g.pick(nouns), g.pick(nouns))}
		},
		func() entry {
			return entry{key: "tags", text: fmt.Sprintf("tags:\n  - %s\n  - %s", g.pick(nouns), g.pick(nouns))}
		},
		func() entry {
			return entry{key: "author", text: "author: " + g.pick([]string{"alice", "bob", "yuki", "ken", "claude-code", "codex"}), scalar: true}
		},
		func() entry {
			return entry{key: "reviewers", text: "reviewers: [" + g.pick([]string{"alice", "bob"}) + ", " + g.pick([]string{"yuki", "ken"}) + "]"}
		},
		func() entry {
			return entry{key: "priority", text: "priority: " + strconv.Itoa(1+g.r.IntN(4)), scalar: true}
		},
		func() entry {
			return entry{key: "lang", text: "lang: " + g.pick([]string{"ja", "en"}), scalar: true}
		},
		func() entry {
			return entry{key: "related", text: "related:\n  - knowledge/" + g.pick(g.knowledgeOr()) + ".md"}
		},
	}
	first := g.r.IntN(len(all))
	out := []entry{all[first]()}
	if g.r.IntN(3) == 0 {
		second := (first + 2 + g.r.IntN(len(all)-3)) % len(all)
		if e := all[second](); e.key != out[0].key {
			out = append(out, e)
		}
	}
	return out
}

func (g *generator) knowledgeOr() []string {
	if len(g.knowledge) == 0 {
		return []string{"notes"}
	}
	return g.knowledge
}

// longBody grows body to 5–9 KB (never past maxLongBody) with sections
// that hold code fences, as records that keep a runbook or a debugging
// session do.
func (g *generator) longBody(body string) string {
	target := 5000 + g.r.IntN(4000)
	var b strings.Builder
	b.WriteString(body)
	for b.Len() < target {
		section := "\n## " + g.pick([]string{"Details", "Reproduction", "Log excerpt", "Example", "Implementation notes"}) + "\n\n" +
			strings.TrimSuffix(g.paragraph(1, 2), "\n") + g.longCode()
		if b.Len()+len(section) > maxLongBody {
			break
		}
		b.WriteString(section)
	}
	return b.String()
}

// longCode returns a fenced block of 8–30 lines. Like every generated
// code block it holds no hash sign.
func (g *generator) longCode() string {
	fence := "```"
	if g.r.IntN(6) == 0 {
		fence = "~~~"
	}
	var b strings.Builder
	switch g.r.IntN(4) {
	case 0:
		n, v := g.pick(nouns), g.pick(verbs)
		fmt.Fprintf(&b, "%sgo\nfunc %s%s(ctx context.Context, items []string) error {\n", fence, v, capitalize(n))
		for range 3 + g.r.IntN(8) {
			fmt.Fprintf(&b, "\tif err := %s.%s(ctx, %q); err != nil {\n\t\treturn fmt.Errorf(\"%s: %%w\", err)\n\t}\n",
				g.pick(nouns), capitalize(g.pick(verbs)), g.pick(nouns), g.pick(verbs))
		}
		b.WriteString("\treturn nil\n}\n")
	case 1:
		fmt.Fprintf(&b, "%sconsole\n", fence)
		for range 4 + g.r.IntN(10) {
			fmt.Fprintf(&b, "$ go test ./%s/... -run Test%s\nok  \tgithub.com/acme/app/%s\t%d.%03ds\n",
				g.pick(nouns), capitalize(g.pick(verbs)), g.pick(nouns), g.r.IntN(9), g.r.IntN(1000))
		}
	case 2:
		fmt.Fprintf(&b, "%sjson\n{\n", fence)
		k := 4 + g.r.IntN(12)
		for i := range k {
			sep := ","
			if i == k-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "  \"%s_%s\": %q%s\n", g.pick(nouns), g.pick(nouns), g.pick(numbers), sep)
		}
		b.WriteString("}\n")
	default:
		fmt.Fprintf(&b, "%stext\n", fence)
		for range 6 + g.r.IntN(14) {
			fmt.Fprintf(&b, "2026-02-%02dT%02d:%02d:%02dZ level=%s msg=\"%s %s\" attempt=%d\n",
				1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60),
				g.pick([]string{"info", "warn", "error"}), g.pick(verbs), g.pick(nouns), 1+g.r.IntN(5))
		}
	}
	b.WriteString(fence + "\n")
	return "\n\n" + b.String()
}
