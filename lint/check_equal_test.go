package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// referenceCheck is Check as it was written first: the whole snapshot
// after cs built with Apply, the changed paths linted with Tree, the
// records a delete breaks found by reading every record. Check and
// CheckOverlay must find the same.
func referenceCheck(base record.Snapshot, cs *record.ChangeSet, actor Actor, opts Options) Report {
	var out []Finding
	after := base.Apply(cs)
	changed := map[string]bool{}
	var deleted []string
	for _, c := range cs.Changes() {
		fs, ok := changeFindings(base, c, actor, opts)
		out = append(out, fs...)
		if !ok {
			continue
		}
		if c.Op == record.OpDelete {
			deleted = append(deleted, c.Path)
		} else {
			changed[c.Path] = true
		}
	}
	rep := Tree(after, opts, func(p string) bool { return changed[p] })
	out = append(out, rep.Findings...)
	if len(deleted) > 0 {
		needles := map[string]string{}
		for _, p := range deleted {
			loc := record.Classify(p)
			switch loc.Kind {
			case record.KindKnowledge:
				needles[p] = "#" + loc.Slug
			case record.KindDecision, record.KindRequest:
				needles[p] = loc.Slug
			}
		}
		suspect := func(p string) bool {
			e, ok := after.Lookup(p)
			if !ok || e.Mode != record.ModeRegular || record.Classify(p).Area != record.AreaRecord {
				return false
			}
			b, err := after.Read(p)
			if err != nil {
				return false
			}
			for _, n := range needles {
				if strings.Contains(string(b), n) {
					return true
				}
			}
			return false
		}
		if len(needles) > 0 {
			for _, f := range Tree(after, opts, suspect).Findings {
				if f.Rule == RuleKnowledgeRef || f.Rule == RuleReplacedByTarget {
					out = append(out, f)
				}
			}
		}
	}
	for _, p := range deleted {
		if p == record.SummaryPath {
			if _, ok := after.Lookup(record.SummaryPath); !ok && len(after.Entries) > 0 {
				out = append(out, summaryMissing(true))
			}
			break
		}
	}
	sortFindings(out)
	return Report{Findings: out, Files: rep.Files}
}

// randomMemory makes small memories whose records point at each other:
// knowledge references that resolve or not, replaced_by chains, loops
// and dangling targets, look-alike slugs, broken frontmatter, files over
// the size limit, symlinks and directories where records belong.
type randomMemory struct {
	r     *rand.Rand
	slugs []string
}

func newRandomMemory(seed uint64) *randomMemory {
	return &randomMemory{r: rand.New(rand.NewPCG(seed, 7)), slugs: []string{
		"retry-policy", "retry-policies", "policy-retry", "retry-polcy", "use-sqlite", "use-postgres",
		"json-logs", "log-json", "faster-ci", "ci-budget", "cache-keys", "cache-key", "a", "b", "c",
	}}
}

func (m *randomMemory) slug() string { return m.slugs[m.r.IntN(len(m.slugs))] }

func (m *randomMemory) path() string {
	switch m.r.IntN(10) {
	case 0:
		return record.SummaryPath
	case 1:
		return record.PathFor(record.KindDecision, m.slug())
	case 2, 3: // the slugs replaced_by names
		return record.PathFor(record.KindDecision, m.slugs[m.r.IntN(4)])
	case 4, 5:
		return record.PathFor(record.KindRequest, m.slug())
	case 6:
		return []string{"workflow/deploy.md", "config", "memory/decisions/Bad_Slug.md", "knowledge/x/y.md"}[m.r.IntN(4)]
	default:
		return record.PathFor(record.KindKnowledge, m.slug())
	}
}

func (m *randomMemory) body() string {
	var b strings.Builder
	b.WriteString("# Title\n")
	for i := 0; i < m.r.IntN(4); i++ {
		fmt.Fprintf(&b, "See #%s and %s.\n", m.slug(), m.slug())
	}
	if m.r.IntN(4) == 0 {
		b.WriteString(strings.Repeat("Long text that the update may remove. ", 8) + "\n")
	}
	return b.String()
}

func (m *randomMemory) content(p string) []byte {
	if m.r.IntN(12) == 0 {
		return []byte("---\nstatus: [\n---\nbroken\n")
	}
	loc := record.Classify(p)
	switch loc.Kind {
	case record.KindSummary:
		return []byte(summary(m.body()))
	case record.KindDecision:
		switch m.r.IntN(3) {
		case 0: // chains among a few slugs, so that some loop
			return []byte(m.sources(decision("replaced", "replaced_by: "+m.slugs[m.r.IntN(4)]+"\n", m.body())))
		case 1:
			return []byte(m.sources(decision("open", "", m.body())))
		}
		return []byte(m.sources(decision("resolved", "", m.body())))
	case record.KindRequest:
		return []byte(m.sources(request(m.body())))
	case record.KindKnowledge:
		return []byte(knowledge(m.r.IntN(2) == 0, "About "+loc.Slug, m.body()))
	}
	return []byte("anything\n")
}

// sources gives a record one to three of four sources, so that updates
// drop some and some lists are long.
func (m *randomMemory) sources(content string) string {
	var b strings.Builder
	for i := 0; i < 1+m.r.IntN(3); i++ {
		fmt.Fprintf(&b, "  - {session_id: s%d, range: [1, 2]}\n", m.r.IntN(4))
	}
	return strings.Replace(content, "  - {session_id: s1, range: [1, 2]}\n", b.String(), 1)
}

func (m *randomMemory) snapshot() record.Snapshot {
	files := map[string][]byte{}
	for i := 0; i < m.r.IntN(30); i++ {
		p := m.path()
		files[p] = m.content(p)
	}
	snap := record.MapSnapshot(files)
	if m.r.IntN(4) == 0 {
		odd := []record.Entry{
			{Path: record.PathFor(record.KindKnowledge, m.slug()), Mode: record.ModeSymlink, Target: "../../etc/passwd"},
			{Path: record.PathFor(record.KindDecision, m.slug()), Mode: record.ModeDir},
			{Path: record.PathFor(record.KindRequest, m.slug()), Mode: record.ModeRegular, Size: 1 << 30},
		}
		for _, e := range odd[:1+m.r.IntN(len(odd))] {
			if _, ok := snap.Lookup(e.Path); !ok {
				snap.Entries = append(snap.Entries, e)
			}
		}
		snap.Sort()
	}
	return snap
}

func (m *randomMemory) changeSet() *record.ChangeSet {
	var cs record.ChangeSet
	for i := 0; i < 1+m.r.IntN(4); i++ {
		p := m.path()
		if m.r.IntN(4) == 0 {
			_ = cs.Put(record.Change{Op: record.OpDelete, Path: p})
		} else {
			_ = cs.Put(record.Change{Path: p, Content: m.content(p), Create: m.r.IntN(3) == 0})
		}
	}
	return &cs
}

// TestCheckEqualsReference: on random memories and change sets, Check
// and CheckOverlay over an overlay of earlier change sets find what the
// first Check found on the whole snapshot, finding for finding.
func TestCheckEqualsReference(t *testing.T) {
	for seed := uint64(0); seed < 1000; seed++ {
		m := newRandomMemory(seed)
		base := m.snapshot()
		opts := DefaultOptions()
		opts.MaxFileBytes = 1 << 20
		opts.SourcesWarn = 1
		opts.SimilarSlugs = m.r.IntN(4) != 0
		opts.Workers = 1 + m.r.IntN(2)
		actor := Actor(m.r.IntN(2))
		ov := record.NewOverlay(base)
		cur := base
		for step := 0; step < 4; step++ {
			cs := m.changeSet()
			want := referenceCheck(cur, cs, actor, opts)
			if got := Check(cur, cs, actor, opts); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: Check =\n%v\nwant\n%v", seed, step, got, want)
			}
			if got := CheckOverlay(ov, cs, actor, opts); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: CheckOverlay =\n%v\nwant\n%v", seed, step, got, want)
			}
			ov, cur = ov.With(cs), cur.Apply(cs)
		}
	}
}

// TestCheckOverlayManySlugs: with hundreds of look-alike slugs, a check
// over an overlay compares the few changed records with the others (the
// base's slugs listed once for all the overlays) and finds what the
// first Check found on the whole snapshot, as records are added,
// removed, and put where the base has a symlink or a directory.
func TestCheckOverlayManySlugs(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for round := 0; round < 30; round++ {
		slugs := randomSlugs(r, 150+r.IntN(200))
		files := map[string][]byte{record.SummaryPath: []byte(summary("# S\n"))}
		kinds := []record.Kind{record.KindKnowledge, record.KindDecision}
		content := func(kind record.Kind) []byte {
			if kind == record.KindKnowledge {
				return []byte(knowledge(false, "d", "# K\n"))
			}
			return []byte(decision("resolved", "", "# D\n"))
		}
		for _, s := range slugs[:len(slugs)/2] {
			kind := kinds[r.IntN(2)]
			files[record.PathFor(kind, s)] = content(kind)
		}
		base := record.MapSnapshot(files)
		base.Entries = append(base.Entries,
			record.Entry{Path: record.PathFor(record.KindKnowledge, slugs[len(slugs)/2]), Mode: record.ModeSymlink, Target: "x.md"},
			record.Entry{Path: record.PathFor(record.KindDecision, slugs[len(slugs)/2+1]), Mode: record.ModeDir})
		base.Sort()
		opts := DefaultOptions()
		ov, cur := record.NewOverlay(base), base
		for step := 0; step < 12; step++ {
			var cs record.ChangeSet
			for i := 0; i < 1+r.IntN(3); i++ {
				kind := kinds[r.IntN(2)]
				p := record.PathFor(kind, slugs[r.IntN(len(slugs))])
				if r.IntN(4) == 0 {
					_ = cs.Put(record.Change{Op: record.OpDelete, Path: p})
				} else {
					_ = cs.Put(record.Change{Path: p, Content: content(kind), Create: r.IntN(2) == 0})
				}
			}
			want := referenceCheck(cur, &cs, Automation, opts)
			if got := CheckOverlay(ov, &cs, Automation, opts); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d step %d: CheckOverlay =\n%v\nwant\n%v", round, step, got, want)
			}
			ov, cur = ov.With(&cs), cur.Apply(&cs)
		}
	}
}
