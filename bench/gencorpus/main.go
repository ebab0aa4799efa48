// Command gencorpus writes a large, deterministic `.yoi/` directory for
// benchmarks: one summary, decisions, requests and knowledge records with
// plausible engineering prose. The same flags always give byte-identical
// output: all randomness comes from a seeded math/rand/v2 source and all
// timestamps are derived from it, never from the clock.
//
// With -shapes mixed (the default) most records are written the way people
// and models write them (shapes.go); -shapes canonical writes every record
// as git-yoimem's own tools do, the output of the generator before the
// mixed mode existed.
//
// Usage:
//
//	gencorpus -out DIR [-n 10000] [-seed 1] [-invocable 300] [-shapes mixed|canonical]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

const (
	minBody   = 300   // bytes of Markdown after the frontmatter, at least
	maxBody   = 3000  // and at most
	maxRecord = 12000 // characters in a whole record file, strictly below
	maxSlug   = 64
)

var (
	windowStart = time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)
	windowEnd   = time.Date(2026, 2, 28, 23, 0, 0, 0, time.UTC)
	summaryTime = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
)

type config struct {
	out       string
	n         int
	seed      uint64
	invocable int
	shapes    string
}

// file is one generated record: its path relative to the output directory
// and its full contents.
type file struct {
	path string
	data []byte
}

// stats counts what was generated, for the summary line.
type stats struct {
	summary, decisions, requests, knowledge, invocable, replaced, withRefs int
	bytes                                                                  int64
	shapes                                                                 shapeStats
}

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(2)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.StringVar(&cfg.out, "out", "", "output directory; DIR/.yoi is created and must not be a non-empty directory (required)")
	fs.IntVar(&cfg.n, "n", 10000, "number of records in all (summary, decisions, requests, knowledge)")
	fs.Uint64Var(&cfg.seed, "seed", 1, "random seed; the same flags give byte-identical output")
	fs.IntVar(&cfg.invocable, "invocable", 300, "knowledge records with model_invokation: true")
	fs.StringVar(&cfg.shapes, "shapes", shapesMixed, "record shapes: mixed (as people and models write them) or canonical (as git-yoimem writes them)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gencorpus -out DIR [-n 10000] [-seed 1] [-invocable 300] [-shapes mixed|canonical]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.out == "" {
		fs.Usage()
		return errors.New("-out is required")
	}
	if cfg.n < 1 {
		return errors.New("-n must be at least 1")
	}
	if cfg.invocable < 0 {
		return errors.New("-invocable must not be negative")
	}
	if cfg.shapes != shapesMixed && cfg.shapes != shapesCanonical {
		return fmt.Errorf("-shapes must be %s or %s, got %q", shapesMixed, shapesCanonical, cfg.shapes)
	}
	yoi := filepath.Join(cfg.out, ".yoi")
	if err := checkEmpty(yoi); err != nil {
		return err
	}
	files, st := generate(cfg)
	if err := writeFiles(cfg.out, files); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "gencorpus: %d records (summary %d, decisions %d [replaced %d], requests %d, knowledge %d [model_invokation %d]; %d with #slug references), %d bytes in %s\n",
		len(files), st.summary, st.decisions, st.replaced, st.requests, st.knowledge, st.invocable, st.withRefs, st.bytes, yoi)
	if cfg.shapes == shapesMixed {
		fmt.Fprintf(stderr, "gencorpus: shapes mixed; %s\n", st.shapes)
	}
	return nil
}

// checkEmpty refuses an existing, non-empty .yoi (or a .yoi that is not a
// directory).
func checkEmpty(yoi string) error {
	fi, err := os.Stat(yoi)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory", yoi)
	}
	entries, err := os.ReadDir(yoi)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("refusing to write into non-empty %s", yoi)
	}
	return nil
}

// writeFiles writes the files in path order.
func writeFiles(out string, files []file) error {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	made := map[string]bool{}
	for _, f := range files {
		p := filepath.Join(out, filepath.FromSlash(f.path))
		dir := filepath.Dir(p)
		if !made[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			made[dir] = true
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// counts splits n records into the four kinds: 1 summary, 40% decisions,
// 25% requests, the rest knowledge.
func counts(n int) (decisions, requests, knowledge int) {
	decisions = n * 40 / 100
	requests = n * 25 / 100
	knowledge = n - 1 - decisions - requests
	if knowledge < 0 { // only for tiny n
		knowledge = 0
	}
	return
}

type source struct {
	session    string
	start, end int
}

type record struct {
	kind      string // "decision", "request", "knowledge"
	slug      string
	created   time.Time
	updated   time.Time
	sources   []source
	status    string // decisions
	replaced  string // decisions: replaced_by
	kkind     string // knowledge: kind
	desc      string // knowledge: description (plain, one line)
	invocable bool   // knowledge: model_invokation
	userInv   bool   // knowledge: user_invocable
}

type generator struct {
	r         *rand.Rand
	slugs     map[string]bool
	knowledge []string // knowledge slugs, in generation order
	sessions  []string
}

func generate(cfg config) ([]file, stats) {
	g := &generator{
		r:     rand.New(rand.NewPCG(cfg.seed, 0x796f696d656d)), // "yoimem"
		slugs: map[string]bool{},
	}
	nd, nr, nk := counts(cfg.n)
	st := stats{summary: 1, decisions: nd, requests: nr, knowledge: nk}

	// A pool of agent sessions that sources point into.
	nsess := max(1, cfg.n/8)
	g.sessions = make([]string, nsess)
	for i := range g.sessions {
		g.sessions[i] = g.uuidv7(g.timeIn(windowStart, windowEnd))
	}

	// Slugs first, so that bodies can refer to any knowledge record.
	decs := make([]*record, nd)
	for i := range decs {
		decs[i] = g.newRecord("decision")
	}
	reqs := make([]*record, nr)
	for i := range reqs {
		reqs[i] = g.newRecord("request")
	}
	know := make([]*record, nk)
	for i := range know {
		know[i] = g.newRecord("knowledge")
		g.knowledge = append(g.knowledge, know[i].slug)
	}

	// Decisions: about 10% replaced, each by a decision that is not itself
	// replaced (so there are no chains and no cycles); of the rest about 30%
	// open, the others resolved.
	nrep := 0
	if nd >= 2 {
		nrep = nd / 10
	}
	perm := g.r.Perm(nd)
	isRep := make([]bool, nd)
	for _, i := range perm[:nrep] {
		isRep[i] = true
	}
	var live []int
	for i, d := range decs {
		if isRep[i] {
			continue
		}
		live = append(live, i)
		if g.r.IntN(10) < 3 {
			d.status = "open"
		} else {
			d.status = "resolved"
		}
	}
	for i, d := range decs {
		if !isRep[i] {
			continue
		}
		// Prefer a replacement made after this decision, as in real history.
		t := decs[live[g.r.IntN(len(live))]]
		for try := 0; try < 8 && !t.created.After(d.created); try++ {
			t = decs[live[g.r.IntN(len(live))]]
		}
		d.status = "replaced"
		d.replaced = t.slug
		// The replacement is recorded no earlier than the new decision exists.
		if after := t.created.Add(time.Hour); d.updated.Before(after) {
			d.updated = minTime(after, windowEnd)
			if d.updated.Before(d.created) {
				d.updated = d.created
			}
		}
	}
	st.replaced = nrep

	// Knowledge: exactly min(invocable, nk) records with model_invokation.
	ninv := min(cfg.invocable, nk)
	for _, i := range g.r.Perm(nk)[:ninv] {
		know[i].invocable = true
	}
	st.invocable = ninv

	var files []file
	add := func(path, text string) {
		files = append(files, file{path: path, data: []byte(text)})
		st.bytes += int64(len(text))
	}
	// The shapes of the mixed mode come from a stream of their own, so the
	// records' content is the canonical corpus's.
	var shaper *generator
	if cfg.shapes == shapesMixed {
		shaper = &generator{r: rand.New(rand.NewPCG(cfg.seed, 0x7368617065)), knowledge: g.knowledge} // "shape"
	}
	body, refs := g.body("summary", "Project summary", "")
	if refs {
		st.withRefs++
	}
	add(".yoi/memory/summary.md", "---\nupdated_at: "+ts(summaryTime)+"\n---\n"+body)
	for _, rs := range [][]*record{decs, reqs, know} {
		for _, rec := range rs {
			body, refs := g.body(rec.kind, title(rec.slug), rec.slug)
			if refs {
				st.withRefs++
			}
			text := rec.frontmatter(g) + body
			if shaper != nil && !shaper.chance(toolWrittenPct) {
				text = shaper.handRecord(rec, rec.desc, body, &st.shapes)
			}
			add(rec.path(), text)
		}
	}
	return files, st
}

func (rec *record) path() string {
	switch rec.kind {
	case "decision":
		return ".yoi/memory/decisions/" + rec.slug + ".md"
	case "request":
		return ".yoi/memory/requests/" + rec.slug + ".md"
	default:
		return ".yoi/knowledge/" + rec.slug + ".md"
	}
}

func (g *generator) newRecord(kind string) *record {
	rec := &record{kind: kind, slug: g.slug()}
	rec.created = g.timeIn(windowStart, windowEnd.Add(-24*time.Hour))
	// About a third of the records were never touched again.
	if g.r.IntN(3) == 0 {
		rec.updated = rec.created
	} else {
		rec.updated = g.timeIn(rec.created, minTime(rec.created.Add(45*24*time.Hour), windowEnd))
	}
	nsrc := 1
	if kind != "knowledge" { // knowledge keeps only its latest source
		nsrc = 1 + g.r.IntN(4)
	}
	for range nsrc {
		start := g.r.IntN(1500)
		rec.sources = append(rec.sources, source{
			session: g.sessions[g.r.IntN(len(g.sessions))],
			start:   start,
			end:     start + g.r.IntN(80),
		})
	}
	if kind == "knowledge" {
		rec.kkind = knowledgeKinds[g.r.IntN(len(knowledgeKinds))]
		rec.userInv = g.r.IntN(10) < 8
	}
	return rec
}

func (rec *record) frontmatter(g *generator) string {
	var b strings.Builder
	b.WriteString("---\n")
	srcKey := "sources"
	if rec.kind == "knowledge" {
		srcKey = "last_sources"
		b.WriteString("kind: " + rec.kkind + "\n")
		rec.desc = g.description(rec)
		b.WriteString("description: " + rec.desc + "\n")
		b.WriteString("model_invokation: " + strconv.FormatBool(rec.invocable) + "\n")
		b.WriteString("user_invocable: " + strconv.FormatBool(rec.userInv) + "\n")
	}
	b.WriteString("created_at: " + ts(rec.created) + "\n")
	b.WriteString("updated_at: " + ts(rec.updated) + "\n")
	if rec.kind == "decision" {
		b.WriteString("status: " + rec.status + "\n")
		if rec.replaced != "" {
			b.WriteString("replaced_by: " + rec.replaced + "\n")
		}
	}
	b.WriteString(srcKey + ":\n")
	for _, s := range rec.sources {
		fmt.Fprintf(&b, "  - {session_id: %s, range: [%d, %d]}\n", s.session, s.start, s.end)
	}
	b.WriteString("---\n")
	return b.String()
}

// ts formats a time as RFC 3339 in UTC with a Z.
func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// timeIn returns a whole-minute time in [from, to].
func (g *generator) timeIn(from, to time.Time) time.Time {
	mins := int64(to.Sub(from) / time.Minute)
	if mins <= 0 {
		return from
	}
	return from.Add(time.Duration(g.r.Int64N(mins+1)) * time.Minute).Truncate(time.Minute)
}

// uuidv7 returns a UUIDv7-shaped string whose timestamp is t.
func (g *generator) uuidv7(t time.Time) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (40 - 8*i))
	}
	r1, r2 := g.r.Uint64(), g.r.Uint64()
	for i := 6; i < 16; i++ {
		if i < 11 {
			b[i] = byte(r1 >> (8 * (i - 6)))
		} else {
			b[i] = byte(r2 >> (8 * (i - 11)))
		}
	}
	b[6] = 0x70 | b[6]&0x0f // version 7
	b[8] = 0x80 | b[8]&0x3f // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// slug returns a new kebab-case slug of 2–5 words, unique in the corpus.
func (g *generator) slug() string {
	for {
		nw := 2 + g.r.IntN(4)
		words := make([]string, 0, nw)
		switch g.r.IntN(3) {
		case 0:
			words = append(words, g.pick(adjectives))
		case 1:
			words = append(words, g.pick(verbs))
		}
		for len(words) < nw {
			words = append(words, g.pick(nouns))
		}
		s := strings.Join(words, "-")
		if len(s) > maxSlug || g.slugs[s] || looksSecret(s) || hasRepeat(words) {
			continue
		}
		g.slugs[s] = true
		return s
	}
}

func hasRepeat(words []string) bool {
	for i := 1; i < len(words); i++ {
		if words[i] == words[i-1] {
			return true
		}
	}
	return false
}

// title turns a slug into a heading: "flaky-cache-retry" -> "Flaky cache retry".
func title(slug string) string {
	return capitalize(strings.ReplaceAll(slug, "-", " "))
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func (g *generator) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *generator) phrase() string {
	return strings.ReplaceAll(g.pick(phrases), "_", " ")
}

// description writes one sentence under 200 characters for a knowledge
// record. It is a YAML plain scalar: no colon, no hash sign, no quotes.
func (g *generator) description(rec *record) string {
	subject := strings.ReplaceAll(rec.slug, "-", " ")
	for {
		var s string
		switch rec.kkind {
		case "rule":
			s = fmt.Sprintf("Rule for %s; always %s the %s %s, read it before you %s the %s.",
				subject, g.pick(verbs), g.pick(nouns), g.phrase(), g.pick(verbs), g.pick(nouns))
		case "fact":
			s = fmt.Sprintf("Why the %s %s is %s and what that means for %s; read it when debugging %s issues.",
				g.pick(nouns), g.pick(nouns), g.pick(adjectives), subject, g.pick(nouns))
		case "howto":
			s = fmt.Sprintf("Steps to %s the %s for %s %s; read it before changing the %s config.",
				g.pick(verbs), g.pick(nouns), subject, g.phrase(), g.pick(nouns))
		case "term":
			s = fmt.Sprintf("What the team means by %s in %s discussions, and how it differs from a %s %s.",
				subject, g.pick(nouns), g.pick(adjectives), g.pick(nouns))
		default: // policy
			s = fmt.Sprintf("Team policy on %s and who may %s the %s; read it before a release or a %s change.",
				subject, g.pick(verbs), g.pick(nouns), g.pick(nouns))
		}
		s = fixArticles(s)
		if len(s) < 200 && !looksSecret(s) {
			return s
		}
	}
}

// sentence returns one sentence of engineering prose ending in a period.
func (g *generator) sentence() string {
	n, v, a, p := g.pick(nouns), g.pick(verbs), g.pick(adjectives), g.phrase()
	n2, n3, v2 := g.pick(nouns), g.pick(nouns), g.pick(verbs)
	var s string
	switch g.r.IntN(18) {
	case 0:
		s = fmt.Sprintf("the %s %s should %s the %s %s.", a, n, v, n2, p)
	case 1:
		s = fmt.Sprintf("we %s the %s %s because the %s was %s.", v, n, p, n2, a)
	case 2:
		s = fmt.Sprintf("when the %s is %s, %s the %s first and then %s the %s.", n, a, v, n2, v2, n3)
	case 3:
		s = fmt.Sprintf("%s, the %s %s tends to be %s.", p, n, n2, a)
	case 4:
		s = fmt.Sprintf("do not %s the %s unless the %s %s is %s.", v, n, n2, n3, a)
	case 5:
		s = fmt.Sprintf("the team agreed to %s the %s %s %s.", v, a, n, p)
	case 6:
		s = fmt.Sprintf("a %s %s makes it harder to %s the %s.", a, n, v, n2)
	case 7:
		s = fmt.Sprintf("the %s uses a %s %s, so we %s it %s.", n, a, n2, v, p)
	case 8:
		s = fmt.Sprintf("if the %s fails, %s the %s and report the error to the %s.", n, v, n2, n3)
	case 9:
		s = fmt.Sprintf("this keeps the %s %s and the %s %s.", n, a, n2, g.pick(adjectives))
	case 10:
		s = fmt.Sprintf("set `%s.%s` to %s and %s the %s %s.", n, n2, g.pick(numbers), v, n3, p)
	case 11:
		s = fmt.Sprintf("run `go test ./%s/...` before you %s the %s.", n, v, n2)
	case 12:
		s = fmt.Sprintf("the default %s is %s, which is too %s for the %s %s.", n, g.pick(numbers),
			g.pick([]string{"small", "large", "slow", "low", "high", "strict"}), n2, p)
	case 13:
		s = fmt.Sprintf("we measured the %s %s at %d ms %s, with a %s %s.", n, n2, 2+g.r.IntN(900), p, a, n3)
	case 14:
		s = fmt.Sprintf("the %s and the %s share one %s, which keeps the %s %s.", n, n2, n3, g.pick(nouns), a)
	case 15:
		s = fmt.Sprintf("nobody should %s a %s %s by hand; use the %s %s instead.", v, a, n, n2, g.pick([]string{"script", "command", "hook", "tool", "target"}))
	case 16:
		s = fmt.Sprintf("after the %s times out, the %s will retry with backoff %s.", n, n2, p)
	default:
		s = fmt.Sprintf("the %s %s is %s, so the build cache must not %s it %s.", n, n2, a, v, p)
	}
	return capitalize(fixArticles(s))
}

// fixArticles turns "a" before a vowel into "an".
func fixArticles(s string) string {
	w := strings.Split(s, " ")
	for i := 0; i+1 < len(w); i++ {
		if (w[i] == "a" || w[i] == "A") && w[i+1] != "" && strings.ContainsRune("aeiou", rune(w[i+1][0])) {
			w[i] += "n"
		}
	}
	return strings.Join(w, " ")
}

func (g *generator) paragraph(min, max int) string {
	k := min + g.r.IntN(max-min+1)
	parts := make([]string, k)
	for i := range parts {
		parts[i] = g.sentence()
	}
	return strings.Join(parts, " ") + "\n\n"
}

func (g *generator) bullets(numbered bool) string {
	var b strings.Builder
	k := 2 + g.r.IntN(4)
	for i := range k {
		if numbered {
			fmt.Fprintf(&b, "%d. ", i+1)
		} else {
			b.WriteString("- ")
		}
		s := g.sentence()
		if g.r.IntN(2) == 0 {
			s = strings.TrimSuffix(s, ".")
		}
		b.WriteString(s + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// codeBlock returns a fenced block. It never contains a hash sign.
func (g *generator) codeBlock() string {
	n, n2, v := g.pick(nouns), g.pick(nouns), g.pick(verbs)
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("```sh\ngo test ./%s/... -run Test%s%s -count=1\ngit yoimem lint\n```\n\n",
			n, capitalize(n2), capitalize(v))
	case 1:
		return fmt.Sprintf("```go\nfunc %s%s(ctx context.Context) error {\n\tif err := %s.%s(ctx); err != nil {\n\t\treturn fmt.Errorf(\"%s %s: %%w\", err)\n\t}\n\treturn nil\n}\n```\n\n",
			v, capitalize(n), n2, capitalize(v), v, n)
	case 2:
		return fmt.Sprintf("```yaml\n%s:\n  %s: %s\n  retry: %d\n  timeout: %s\n```\n\n",
			n, n2, g.pick(numbers), 1+g.r.IntN(5), g.pick([]string{"5s", "30s", "2m", "500ms"}))
	default:
		return fmt.Sprintf("```ini\n[%s]\n\t%s = %s\n\tenabled = %t\n```\n\n",
			n, n2, g.pick(numbers), g.r.IntN(2) == 0)
	}
}

// refSentence refers to one or two knowledge records other than self.
// Each reference is followed by a space or the end of the line.
func (g *generator) refSentence(self string) string {
	var picked []string
	for tries := 0; len(picked) < 1+g.r.IntN(2) && tries < 8; tries++ {
		s := g.knowledge[g.r.IntN(len(g.knowledge))]
		if s != self && (len(picked) == 0 || picked[0] != s) {
			picked = append(picked, s)
		}
	}
	switch len(picked) {
	case 0:
		return ""
	case 1:
		if g.r.IntN(2) == 0 {
			return "See #" + picked[0] + " for the background."
		}
		return "This follows #" + picked[0] + " closely."
	default:
		return "This builds on #" + picked[0] + " and #" + picked[1] + " as well."
	}
}

// body writes the Markdown after the frontmatter: a title, an intro, then
// sections until a random target length between minBody and maxBody bytes.
// It reports whether the body holds #slug references.
func (g *generator) body(kind, heading, self string) (string, bool) {
	for {
		s, refs := g.tryBody(kind, heading, self)
		if !looksSecret(s) && len(s) >= minBody && len(s) <= maxBody {
			return s, refs
		}
	}
}

func (g *generator) tryBody(kind, heading, self string) (string, bool) {
	target := minBody + 10 + g.r.IntN(maxBody-minBody-20)
	var b strings.Builder
	b.WriteString("# " + heading + "\n\n")
	intro := strings.TrimSuffix(g.paragraph(1, 3), "\n\n")
	refs := false
	if len(g.knowledge) > 0 && g.r.IntN(5) == 0 {
		if rs := g.refSentence(self); rs != "" {
			intro += " " + rs
			refs = true
		}
	}
	b.WriteString(intro + "\n\n")
	heads := sectionHeadings[kind]
	hi := 0
	hasCode := g.r.IntN(4) == 0
	for b.Len() < target {
		var block string
		switch {
		case hi < len(heads) && (b.Len() < 200 || g.r.IntN(3) > 0):
			h := heads[hi]
			hi++
			block = "## " + h + "\n\n"
			switch {
			case h == "Options" || h == "Scope" || h == "Acceptance criteria" || h == "Conventions":
				block += g.bullets(false)
			case h == "Steps":
				block += g.bullets(true)
			case h == "Example" || (hasCode && g.r.IntN(3) == 0):
				hasCode = false
				block += g.paragraph(1, 1) + g.codeBlock()
			default:
				block += g.paragraph(1, 4)
			}
		case g.r.IntN(4) == 0:
			block = g.bullets(false)
		default:
			block = g.paragraph(1, 3)
		}
		if b.Len()+len(block) > maxBody {
			block = g.paragraph(1, 1)
			if b.Len()+len(block) > maxBody {
				break
			}
		}
		b.WriteString(block)
	}
	return strings.TrimRight(b.String(), "\n") + "\n", refs
}
