package lint

import (
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// ruleCase is one rule's failing and passing input. A case lints a snapshot
// (files), or checks a proposal (change) against it.
type ruleCase struct {
	bad, good ruleInput
}

type ruleInput struct {
	files  map[string]string
	change *record.Change // checked as a proposal by actor when set
	actor  Actor
	opts   func(*Options)
	snap   func(record.Snapshot) record.Snapshot
	path   string // PathFinding input, for path-unsafe
	// noSummary leaves memory/summary.md out; every other input has one,
	// as every .yoi/ does.
	noSummary bool
}

func (in ruleInput) findings() []Finding {
	if in.path != "" {
		if f := PathFinding(in.path); f != nil {
			return []Finding{*f}
		}
		return nil
	}
	o := DefaultOptions()
	o.Caps = map[record.Kind]int{}
	for k, v := range DefaultOptions().Caps {
		o.Caps[k] = v
	}
	if in.opts != nil {
		in.opts(&o)
	}
	files := map[string][]byte{}
	if !in.noSummary {
		files[record.SummaryPath] = []byte(summary("# S\n"))
	}
	for p, c := range in.files {
		files[p] = []byte(c)
	}
	snap := record.MapSnapshot(files)
	if in.snap != nil {
		snap = in.snap(snap)
	}
	if in.change != nil {
		var cs record.ChangeSet
		if err := cs.Put(*in.change); err != nil {
			panic(err)
		}
		return Check(snap, &cs, in.actor, o).Findings
	}
	return Tree(snap, o, nil).Findings
}

func one(path, content string) map[string]string { return map[string]string{path: content} }

func ruleCases() map[string]ruleCase {
	k := knowledge(false, "d", "")
	long := strings.Repeat("A claim and its reason.\n", 20)
	base := map[string]string{"memory/decisions/a.md": decision("resolved", "", long), "workflow/w.md": "x"}
	return map[string]ruleCase{
		RuleFrontmatter:   {ruleInput{files: one("knowledge/k.md", "# no frontmatter\n")}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleEncoding:      {ruleInput{files: one("knowledge/k.md", "\xEF\xBB\xBF"+k)}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleYAMLSyntax:    {ruleInput{files: one("knowledge/k.md", "---\nkind: [rule\n---\n")}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleDuplicateKey:  {ruleInput{files: one("knowledge/k.md", strings.Replace(k, "kind: rule\n", "kind: rule\nkind: fact\n", 1))}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleYAMLAlias:     {ruleInput{files: one("knowledge/k.md", strings.Replace(k, "kind: rule", "kind: &x rule\nother: *x", 1))}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleRequired:      {ruleInput{files: one("knowledge/k.md", strings.Replace(k, "kind: rule\n", "", 1))}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleFieldType:     {ruleInput{files: one("knowledge/k.md", strings.Replace(k, "user_invocable: true", "user_invocable: sometimes", 1))}, ruleInput{files: one("knowledge/k.md", k)}},
		RuleStatusEnum:    {ruleInput{files: one("memory/decisions/a.md", decision("done", "", ""))}, ruleInput{files: one("memory/decisions/a.md", decision("open", "", ""))}},
		RuleReplacedByReq: {ruleInput{files: one("memory/decisions/a.md", decision("replaced", "", ""))}, ruleInput{files: one("memory/decisions/a.md", decision("resolved", "", ""))}},
		RuleAliasConflict: {ruleInput{files: one("knowledge/k.md", strings.Replace(k, "user_invocable", "model_invocation: true\nuser_invocable", 1))}, ruleInput{files: one("knowledge/k.md", strings.Replace(k, "user_invocable", "model_invocation: false\nuser_invocable", 1))}},
		RuleReplacedByTarget: {
			ruleInput{files: one("memory/decisions/a.md", decision("replaced", "replaced_by: nowhere\n", ""))},
			ruleInput{files: map[string]string{"memory/decisions/a.md": decision("replaced", "replaced_by: b\n", ""), "memory/decisions/b.md": decision("open", "", "")}},
		},
		RuleReplacedByCycle: {
			ruleInput{files: map[string]string{"memory/decisions/a.md": decision("replaced", "replaced_by: b\n", ""), "memory/decisions/b.md": decision("replaced", "replaced_by: a\n", "")}},
			ruleInput{files: map[string]string{"memory/decisions/a.md": decision("replaced", "replaced_by: b\n", ""), "memory/decisions/b.md": decision("resolved", "", "")}},
		},
		RuleKnowledgeRef: {
			ruleInput{files: one("memory/requests/r.md", request("see #missing\n"))},
			ruleInput{files: map[string]string{"memory/requests/r.md": request("see #k\n"), "knowledge/k.md": k}},
		},
		RuleSlugExists: {
			ruleInput{files: base, change: &record.Change{Path: "memory/decisions/a.md", Create: true, Content: []byte(decision("open", "", ""))}, actor: Automation},
			ruleInput{files: base, change: &record.Change{Path: "memory/decisions/b.md", Create: true, Content: []byte(decision("open", "", ""))}, actor: Automation},
		},
		RuleWorkflowWrite: {
			ruleInput{files: base, change: &record.Change{Path: "workflow/w.md", Content: []byte("y")}, actor: Automation},
			ruleInput{files: base, change: &record.Change{Path: "workflow/w.md", Content: []byte("y")}, actor: Human},
		},
		RuleWriteArea: {
			ruleInput{files: base, change: &record.Change{Path: "config", Content: []byte("y")}, actor: Automation},
			ruleInput{files: base, change: &record.Change{Path: "config", Content: []byte("y")}, actor: Human},
		},
		RuleDescriptionLen: {
			ruleInput{files: one("knowledge/k.md", knowledge(true, strings.Repeat("x", 1025), ""))},
			ruleInput{files: one("knowledge/k.md", knowledge(true, strings.Repeat("x", 1024), ""))},
		},
		RuleCharCap: {
			ruleInput{files: one("memory/requests/r.md", request(strings.Repeat("x", 200))), opts: func(o *Options) { o.Caps[record.KindRequest] = 150 }},
			ruleInput{files: one("memory/requests/r.md", request(strings.Repeat("x", 10))), opts: func(o *Options) { o.Caps[record.KindRequest] = 150 }},
		},
		RuleFileSize: {
			ruleInput{files: one("memory/requests/r.md", request(strings.Repeat("x", 200))), opts: func(o *Options) { o.MaxFileBytes = 150 }},
			ruleInput{files: one("memory/requests/r.md", request("x")), opts: func(o *Options) { o.MaxFileBytes = 150 }},
		},
		RulePathSlug:   {ruleInput{files: one("knowledge/Not_A_Slug.md", k)}, ruleInput{files: one("knowledge/a-slug.md", k)}},
		RulePathUnsafe: {ruleInput{path: "knowledge/../../etc/passwd"}, ruleInput{path: "knowledge/a.md"}},
		RulePathSymlink: {
			ruleInput{files: one("knowledge/k.md", k), snap: withEntry(record.Entry{Path: "knowledge/l.md", Mode: record.ModeSymlink, Target: "k.md"})},
			ruleInput{files: one("knowledge/k.md", k)},
		},
		RulePathNotFile: {
			ruleInput{files: one("knowledge/k.md", k), snap: withEntry(record.Entry{Path: "knowledge/d.md", Mode: record.ModeDir})},
			ruleInput{files: one("knowledge/k.md", k), snap: withEntry(record.Entry{Path: "knowledge/sub", Mode: record.ModeDir})},
		},
		RuleReadError: {
			ruleInput{files: one("knowledge/k.md", k), snap: failingRead},
			ruleInput{files: one("knowledge/k.md", k)},
		},
		RuleCredential: {
			ruleInput{files: one("memory/requests/r.md", request("key "+"AKIA"+"Q3EGRTZX7MPLW4NB\n"))},
			ruleInput{files: one("memory/requests/r.md", request("AWS key ids start with AKIA\n"))},
		},
		RuleBinaryContent: {
			ruleInput{files: one("memory/requests/r.md", request("a\x00b\n"))},
			ruleInput{files: one("memory/requests/r.md", request("a\tb\n"))},
		},
		RuleIDField: {
			ruleInput{files: one("knowledge/k.md", strings.Replace(k, "kind: rule\n", "kind: rule\nid: k\n", 1))},
			ruleInput{files: one("knowledge/k.md", k)},
		},
		RuleSummaryMissing: {
			ruleInput{files: one("knowledge/k.md", k), noSummary: true},
			ruleInput{files: one("knowledge/k.md", k)},
		},
		RuleLineEndings: {
			ruleInput{files: one("memory/requests/r.md", strings.ReplaceAll(request("x\n"), "\n", "\r\n"))},
			ruleInput{files: one("memory/requests/r.md", request("x\n"))},
		},
		RulePathUnknown: {ruleInput{files: one("memory/notes.txt", "x")}, ruleInput{files: one("memory/_staging/x.json", "{}")}},
		RuleLowImportance: {
			ruleInput{files: one("memory/requests/r.md", request(strings.Repeat("x", 300))), opts: importance(0.2)},
			ruleInput{files: one("memory/requests/r.md", request(strings.Repeat("x", 300))), opts: importance(1.5)},
		},
		RuleSourcesLong: {
			ruleInput{files: one("memory/requests/r.md", strings.Replace(request(""), "sources:\n", "sources:\n  - {session_id: s0, range: [0, 0]}\n", 1)), opts: func(o *Options) { o.SourcesWarn = 1 }},
			ruleInput{files: one("memory/requests/r.md", request("")), opts: func(o *Options) { o.SourcesWarn = 1 }},
		},
		RuleSimilarSlugs: {
			ruleInput{files: map[string]string{"knowledge/deploy-steps.md": k, "knowledge/steps-deploy.md": k}},
			ruleInput{files: map[string]string{"knowledge/deploy-steps.md": k, "knowledge/rollback-steps.md": k}},
		},
		RuleInformationLoss: {
			ruleInput{files: base, change: &record.Change{Path: "memory/decisions/a.md", Content: []byte(decision("resolved", "", "Short.\n"))}, actor: Automation},
			ruleInput{files: base, change: &record.Change{Path: "memory/decisions/a.md", Content: []byte(decision("resolved", "", long+"And more.\n"))}, actor: Automation},
		},
		RuleSourcesDropped: {
			ruleInput{files: base, change: &record.Change{Path: "memory/decisions/a.md", Content: []byte(strings.Replace(decision("resolved", "", long), "{session_id: s1, range: [1, 2]}", "{session_id: s2, range: [3, 4]}", 1))}, actor: Automation},
			ruleInput{files: base, change: &record.Change{Path: "memory/decisions/a.md", Content: []byte(strings.Replace(decision("resolved", "", long), "sources:\n", "sources:\n  - {session_id: s0, range: [0, 0]}\n", 1))}, actor: Automation},
		},
	}
}

func withEntry(e record.Entry) func(record.Snapshot) record.Snapshot {
	return func(s record.Snapshot) record.Snapshot {
		s.Entries = append(s.Entries, e)
		s.Sort()
		return s
	}
}

func failingRead(s record.Snapshot) record.Snapshot {
	s.Read = func(string) ([]byte, error) { return nil, errors.New("permission denied") }
	return s
}

func importance(freq float64) func(*Options) {
	return func(o *Options) {
		o.LowImportanceTokens = 50
		o.Usage = func(*record.Record) Usage { return Usage{Frequency: freq, Known: true} }
	}
}

func hasRule(fs []Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// TestEveryRuleFailsAndPasses runs each rule's failing case (the rule
// fires) and passing case (it does not), and checks every rule has both.
func TestEveryRuleFailsAndPasses(t *testing.T) {
	cases := ruleCases()
	for _, r := range Rules() {
		c, ok := cases[r.ID]
		if !ok {
			t.Errorf("rule %s has no test case", r.ID)
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			bad := c.bad.findings()
			if !hasRule(bad, r.ID) {
				t.Errorf("failing case did not report %s: %v", r.ID, bad)
			}
			for _, f := range bad {
				if f.Rule == r.ID && f.Severity != r.Severity {
					t.Errorf("%s reported as %s, documented as %s", r.ID, f.Severity, r.Severity)
				}
			}
			if good := c.good.findings(); hasRule(good, r.ID) {
				t.Errorf("passing case reported %s: %v", r.ID, good)
			}
		})
	}
	if len(cases) != len(Rules()) {
		t.Errorf("%d cases for %d rules", len(cases), len(Rules()))
	}
}
