package lint

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

const ts = "2026-01-05T09:30:00Z"

func decision(status, extra, body string) string {
	return "---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nstatus: " + status + "\n" + extra +
		"sources:\n  - {session_id: s1, range: [1, 2]}\n---\n" + body
}

func request(body string) string {
	return "---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nsources:\n  - {session_id: s1, range: [1, 2]}\n---\n" + body
}

func knowledge(invocable bool, desc, body string) string {
	return fmt.Sprintf("---\nkind: rule\ndescription: %q\nmodel_invokation: %t\nuser_invocable: true\ncreated_at: %s\nupdated_at: %s\nlast_sources: []\n---\n%s", desc, invocable, ts, ts, body)
}

func summary(body string) string { return "---\nupdated_at: " + ts + "\n---\n" + body }

func keys(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path+":"+f.Rule)
	}
	sort.Strings(out)
	return out
}

func check(t *testing.T, got []Finding, want ...string) {
	t.Helper()
	sort.Strings(want)
	if strings.Join(keys(got), " ") != strings.Join(want, " ") {
		var lines []string
		for _, f := range got {
			lines = append(lines, f.String())
		}
		t.Fatalf("findings:\n%s\nwant %v", strings.Join(lines, "\n"), want)
	}
}

func TestTreeRules(t *testing.T) {
	opts := DefaultOptions()
	secret := "gh" + "p_" + strings.Repeat("aB3", 12)
	tests := []struct {
		name  string
		files map[string]string
		opts  func(*Options)
		want  []string
	}{
		{"clean", map[string]string{
			"memory/summary.md":      summary("# S\nsee #retry\n"),
			"memory/decisions/a.md":  decision("replaced", "replaced_by: b\n", "# A\n"),
			"memory/decisions/b.md":  decision("resolved", "", "# B\n"),
			"memory/requests/r.md":   request("# R\n"),
			"knowledge/retry.md":     knowledge(true, "Retry rules", "# Retry\n`#not-ref` #42\n"),
			"config":                 "[yoimem]\n",
			"memory/_staging/x.json": "{}",
			"workflow/deploy.md":     "anything",
			"metrics/run.jsonl":      "{}",
			".gitignore":             "/memory/_staging/\n",
		}, nil, nil},
		{"knowledge-ref", map[string]string{
			"memory/requests/r.md": request("see #missing-one\n"),
		}, nil, []string{"memory/requests/r.md:knowledge-ref"}},
		{"required and enum", map[string]string{
			"memory/decisions/a.md": strings.Replace(decision("maybe", "", ""), "created_at: "+ts+"\n", "", 1),
		}, nil, []string{"memory/decisions/a.md:required-field", "memory/decisions/a.md:status-enum"}},
		{"replaced_by target missing", map[string]string{
			"memory/decisions/a.md": decision("replaced", "replaced_by: nope\n", ""),
		}, nil, []string{"memory/decisions/a.md:replaced-by-target"}},
		{"replaced_by self", map[string]string{
			"memory/decisions/a.md": decision("replaced", "replaced_by: a\n", ""),
		}, nil, []string{"memory/decisions/a.md:replaced-by-target"}},
		{"replaced_by cycle", map[string]string{
			"memory/decisions/a.md": decision("replaced", "replaced_by: b\n", ""),
			"memory/decisions/b.md": decision("replaced", "replaced_by: c\n", ""),
			"memory/decisions/c.md": decision("replaced", "replaced_by: a\n", ""),
		}, nil, []string{"memory/decisions/a.md:replaced-by-cycle", "memory/decisions/b.md:replaced-by-cycle", "memory/decisions/c.md:replaced-by-cycle"}},
		{"description too long when invocable", map[string]string{
			"knowledge/k.md":  knowledge(true, strings.Repeat("d", 1025), ""),
			"knowledge/ok.md": knowledge(false, strings.Repeat("d", 1025), ""),
		}, nil, []string{"knowledge/k.md:description-length"}},
		{"char cap", map[string]string{
			"memory/requests/r.md":  request(strings.Repeat("x", 300)),
			"memory/requests/ok.md": request("short"),
		}, func(o *Options) { o.Caps[record.KindRequest] = 200 }, []string{"memory/requests/r.md:char-cap"}},
		{"file size", map[string]string{
			"memory/requests/r.md": request(strings.Repeat("x", 300)),
		}, func(o *Options) { o.MaxFileBytes = 100 }, []string{"memory/requests/r.md:file-size"}},
		{"bad slug", map[string]string{
			"knowledge/Bad_Slug.md": knowledge(false, "d", ""),
		}, nil, []string{"knowledge/Bad_Slug.md:path-slug"}},
		{"unknown path", map[string]string{
			"memory/notes.txt": "x",
		}, nil, []string{"memory/notes.txt:path-unknown"}},
		{"credential", map[string]string{
			"memory/requests/r.md":  request("token " + secret + "\n"),
			"memory/requests/ok.md": request("the ghp_ prefix marks GitHub tokens\n"),
		}, nil, []string{"memory/requests/r.md:credential"}},
		{"credential in unparseable file", map[string]string{
			"memory/requests/r.md": "no frontmatter " + secret,
		}, nil, []string{"memory/requests/r.md:credential", "memory/requests/r.md:frontmatter"}},
		{"NUL byte in a body", map[string]string{
			"memory/requests/r.md":  request("before\x00after\n"),
			"memory/requests/ok.md": request("tab\tand\r\nCRLF are text\n"),
		}, nil, []string{"memory/requests/r.md:binary-content"}},
		{"NUL byte in frontmatter", map[string]string{
			"knowledge/k.md": strings.Replace(knowledge(false, "d", ""), "kind: rule", "kind: ru\x00le", 1),
		}, nil, []string{"knowledge/k.md:yaml-syntax"}},
		{"terminal escape in a body", map[string]string{
			"knowledge/k.md": knowledge(false, "d", "\x1b[2J\x1b[31mred\n"),
		}, nil, []string{"knowledge/k.md:binary-content"}},
		{"id and name fields", map[string]string{
			"knowledge/k.md":        strings.Replace(knowledge(false, "d", ""), "kind: rule\n", "kind: rule\nid: k\nname: K\n", 1),
			"memory/decisions/a.md": decision("open", "id: a\n", ""),
			"memory/requests/r.md":  strings.Replace(request(""), "---\n", "---\nname: r\n", 1),
			"memory/requests/ok.md": request("id: in the body is text\n"),
		}, nil, []string{"knowledge/k.md:id-field", "knowledge/k.md:id-field", "memory/decisions/a.md:id-field", "memory/requests/r.md:id-field"}},
		{"id field on the summary", map[string]string{
			"memory/summary.md": strings.Replace(summary("# S\n"), "---\n", "---\nid: summary\n", 1),
		}, nil, []string{"memory/summary.md:id-field"}},
		{"no summary", map[string]string{
			"knowledge/k.md": knowledge(false, "d", ""),
		}, nil, []string{"memory/summary.md:summary-missing"}},
		{"crlf warning", map[string]string{
			"memory/requests/r.md": strings.ReplaceAll(request("x\n"), "\n", "\r\n"),
		}, nil, []string{"memory/requests/r.md:line-endings"}},
		{"sources long", map[string]string{
			"memory/requests/r.md": request(""),
		}, func(o *Options) { o.SourcesWarn = 0; o.SourcesWarn = -1 }, nil},
		{"sources long fires", map[string]string{
			"memory/requests/r.md": strings.Replace(request(""), "sources:\n", "sources:\n  - {session_id: s0, range: [0, 1]}\n", 1),
		}, func(o *Options) { o.SourcesWarn = 1 }, []string{"memory/requests/r.md:sources-long"}},
		{"similar slugs", map[string]string{
			"knowledge/retry-policy.md":       knowledge(false, "d", ""),
			"knowledge/policies-retry.md":     knowledge(false, "d", ""),
			"knowledge/retry-polcy.md":        knowledge(false, "d", ""),
			"knowledge/api-v1.md":             knowledge(false, "d", ""),
			"knowledge/api-v2.md":             knowledge(false, "d", ""),
			"memory/requests/retry-policy.md": request(""),
		}, nil, []string{"knowledge/policies-retry.md:similar-slugs", "knowledge/retry-polcy.md:similar-slugs", "knowledge/retry-policy.md:similar-slugs"}},
		{"similar slugs: as is a filler word", map[string]string{
			"memory/requests/export-orders-as-csv.md": request(""),
			"memory/requests/export-orders-to-csv.md": request(""),
		}, nil, []string{"memory/requests/export-orders-as-csv.md:similar-slugs", "memory/requests/export-orders-to-csv.md:similar-slugs"}},
		{"low importance", map[string]string{
			"memory/requests/big.md":  request(strings.Repeat("x", 500)),
			"memory/requests/used.md": request(strings.Repeat("x", 500)),
			"memory/requests/new.md":  request(strings.Repeat("x", 500)),
		}, func(o *Options) {
			o.LowImportanceTokens = 100
			o.Usage = func(r *record.Record) Usage {
				switch r.Path {
				case "memory/requests/big.md":
					return Usage{Frequency: 0.1, Known: true}
				case "memory/requests/used.md":
					return Usage{Frequency: 3, Known: true}
				}
				return Usage{}
			}
		}, []string{"memory/requests/big.md:low-importance-size"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := opts
			o.Caps = map[record.Kind]int{}
			for k, v := range opts.Caps {
				o.Caps[k] = v
			}
			if tt.opts != nil {
				tt.opts(&o)
			}
			files := map[string][]byte{}
			if tt.name != "no summary" {
				files[record.SummaryPath] = []byte(summary("# S\n"))
			}
			for p, c := range tt.files {
				files[p] = []byte(c)
			}
			check(t, Tree(record.MapSnapshot(files), o, nil).Findings, tt.want...)
		})
	}
}

func TestTreeBadInputKeepsGoing(t *testing.T) {
	files := map[string][]byte{
		"memory/summary.md":    []byte(summary("")),
		"knowledge/bom.md":     []byte("\xEF\xBB\xBF" + knowledge(false, "d", "")),
		"knowledge/utf.md":     []byte(knowledge(false, "d", "\xff")),
		"knowledge/empty.md":   nil,
		"knowledge/dup.md":     []byte("---\nkind: a\nkind: b\n---\n"),
		"knowledge/alias.md":   []byte("---\na: &x [1]\nb: *x\n---\n"),
		"knowledge/yaml.md":    []byte("---\na: [\n---\n"),
		"knowledge/types.md":   []byte(strings.Replace(knowledge(false, "d", ""), "model_invokation: false", "model_invokation: [1]", 1)),
		"knowledge/good.md":    []byte(knowledge(false, "d", "")),
		"knowledge/nofront.md": []byte("# Just markdown\n"),
	}
	snap := record.MapSnapshot(files)
	snap.Entries = append(snap.Entries,
		record.Entry{Path: "knowledge/link-in.md", Mode: record.ModeSymlink, Target: "good.md"},
		record.Entry{Path: "knowledge/link-out.md", Mode: record.ModeSymlink, Target: "../../../etc/passwd"},
		record.Entry{Path: "knowledge/dir.md", Mode: record.ModeDir},
		record.Entry{Path: "knowledge/fifo.md", Mode: record.ModeOther},
	)
	snap.Sort()
	rep := Tree(snap, DefaultOptions(), nil)
	check(t, rep.Findings,
		"knowledge/alias.md:yaml-alias", "knowledge/bom.md:encoding", "knowledge/dir.md:path-not-file",
		"knowledge/dup.md:yaml-duplicate-key", "knowledge/empty.md:frontmatter", "knowledge/fifo.md:path-not-file",
		"knowledge/link-in.md:path-symlink", "knowledge/link-out.md:path-symlink", "knowledge/nofront.md:frontmatter",
		"knowledge/types.md:field-type", "knowledge/utf.md:encoding", "knowledge/yaml.md:yaml-syntax")
	for _, f := range rep.Findings {
		if f.Path == "knowledge/link-out.md" && !strings.Contains(f.Message, "leading out of .yoi/") {
			t.Errorf("link-out message: %s", f.Message)
		}
	}
}

func TestTreeOnlyStillResolvesAgainstAll(t *testing.T) {
	files := map[string][]byte{
		"memory/requests/r.md":   []byte(request("see #k\n")),
		"memory/requests/bad.md": []byte(request("see #nope\n")),
		"knowledge/k.md":         []byte(knowledge(false, "d", "")),
	}
	rep := Tree(record.MapSnapshot(files), DefaultOptions(), func(p string) bool { return p == "memory/requests/r.md" })
	check(t, rep.Findings)
	if rep.Files != 1 {
		t.Fatalf("files = %d", rep.Files)
	}
}

func TestCheckProposal(t *testing.T) {
	long := strings.Repeat("A claim with its reason.\n", 20)
	base := record.MapSnapshot(map[string][]byte{
		"memory/decisions/a.md": []byte(decision("resolved", "", long)),
		"memory/requests/r.md":  []byte(request("see #k\n")),
		"knowledge/k.md":        []byte(knowledge(false, "d", "")),
		"workflow/w.md":         []byte("x"),
	})
	tests := []struct {
		name  string
		actor Actor
		ch    []record.Change
		want  []string
	}{
		{"clean update", Automation, []record.Change{{Path: "memory/decisions/a.md", Content: []byte(decision("resolved", "", long+"More.\n"))}}, nil},
		{"create existing", Automation, []record.Change{{Path: "memory/decisions/a.md", Create: true, Content: []byte(decision("open", "", ""))}}, []string{"memory/decisions/a.md:slug-exists"}},
		{"create new", Automation, []record.Change{{Path: "memory/decisions/b.md", Create: true, Content: []byte(decision("open", "", ""))}}, nil},
		{"workflow by automation", Automation, []record.Change{{Path: "workflow/w.md", Content: []byte("y")}}, []string{"workflow/w.md:workflow-write"}},
		{"workflow by human", Human, []record.Change{{Path: "workflow/w.md", Content: []byte("y")}}, nil},
		{"config by automation", Automation, []record.Change{{Path: "config", Content: []byte("y")}}, []string{"config:write-area"}},
		{"information loss", Automation, []record.Change{{Path: "memory/decisions/a.md", Content: []byte(decision("resolved", "", "Short.\n"))}}, []string{"memory/decisions/a.md:information-loss"}},
		{"sources dropped", Automation, []record.Change{{Path: "memory/decisions/a.md", Content: []byte(strings.Replace(decision("resolved", "", long), "  - {session_id: s1, range: [1, 2]}\n", "  - {session_id: s2, range: [3, 4]}\n", 1))}}, []string{"memory/decisions/a.md:sources-dropped"}},
		{"delete referenced knowledge", Automation, []record.Change{{Op: record.OpDelete, Path: "knowledge/k.md"}}, []string{"memory/requests/r.md:knowledge-ref"}},
		{"invalid new record", Automation, []record.Change{{Path: "memory/requests/new.md", Create: true, Content: []byte("# no frontmatter\n")}}, []string{"memory/requests/new.md:frontmatter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cs record.ChangeSet
			for _, c := range tt.ch {
				if err := cs.Put(c); err != nil {
					t.Fatal(err)
				}
			}
			check(t, Check(base, &cs, tt.actor, DefaultOptions()).Findings, tt.want...)
		})
	}
}

func TestRulesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] || r.Summary == "" {
			t.Fatalf("rule %q duplicated or undocumented", r.ID)
		}
		seen[r.ID] = true
	}
	for _, id := range []string{RuleCredential, RuleKnowledgeRef, RuleSimilarSlugs, RuleInformationLoss, RulePathSymlink} {
		if !seen[id] {
			t.Fatalf("rule %s missing from Rules()", id)
		}
	}
}

func TestChanged(t *testing.T) {
	snap := record.MapSnapshot(map[string][]byte{
		"memory/requests/r.md":    []byte(request("see #gone\n")),
		"memory/requests/bad.md":  []byte(request("see #nope\n")),
		"knowledge/k.md":          []byte(knowledge(false, "d", "")),
		"memory/decisions/new.md": []byte(decision("open", "", "fine\n")),
	})
	// Only the changed file is linted; bad.md's error is not its business,
	// but r.md breaks because knowledge/gone.md was deleted.
	rep := Changed(snap, []string{"memory/decisions/new.md"}, []string{"knowledge/gone.md"}, DefaultOptions())
	check(t, rep.Findings, "memory/requests/r.md:knowledge-ref")
	if rep.Files != 1 {
		t.Fatalf("files = %d", rep.Files)
	}
}

// TestSimilarSlugsFewTargets: with few files selected, the pairwise path
// finds what the full clustering finds.
func TestSimilarSlugsFewTargets(t *testing.T) {
	files := map[string][]byte{}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("knowledge/topic-%d-notes.md", i)] = []byte(knowledge(false, "d", ""))
	}
	files["knowledge/retry-policy.md"] = []byte(knowledge(false, "d", ""))
	files["knowledge/retry-polcy.md"] = []byte(knowledge(false, "d", ""))
	files["knowledge/policy-retry.md"] = []byte(knowledge(false, "d", ""))
	snap := record.MapSnapshot(files)
	only := func(p string) bool { return p == "knowledge/retry-polcy.md" }
	rep := Tree(snap, DefaultOptions(), only)
	check(t, rep.Findings, "knowledge/retry-polcy.md:similar-slugs")
	if !strings.Contains(rep.Findings[0].Message, "retry-policy") {
		t.Fatalf("message: %s", rep.Findings[0].Message)
	}
	full := Tree(snap, DefaultOptions(), nil)
	n := 0
	for _, f := range full.Findings {
		if f.Rule == RuleSimilarSlugs {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("full clustering found %d, want 3: %v", n, full.Findings)
	}
}

func TestCredentialsOutsideRecords(t *testing.T) {
	key := "AKIA" + "Q3EGRTZX7MPLW4NB"
	snap := record.MapSnapshot(map[string][]byte{
		"memory/summary.md":      []byte(summary("")),
		"notes.txt":              []byte("key " + key),
		"workflow/deploy.md":     []byte("key " + key),
		"memory/_staging/x.json": []byte("key " + key), // machine-local, never committed
	})
	check(t, Tree(snap, DefaultOptions(), nil).Findings, "notes.txt:credential", "notes.txt:path-unknown", "workflow/deploy.md:credential")
}

// TestSummaryMissing: once .yoi/ exists it has a summary. The whole-tree
// lint, a commit or push that deletes it, and a tool's delete all say so.
func TestSummaryMissing(t *testing.T) {
	with := record.MapSnapshot(map[string][]byte{
		record.SummaryPath: []byte(summary("# S\n")),
		"knowledge/k.md":   []byte(knowledge(false, "d", "")),
	})
	without := record.MapSnapshot(map[string][]byte{"knowledge/k.md": []byte(knowledge(false, "d", ""))})

	check(t, Tree(with, DefaultOptions(), nil).Findings)
	check(t, Tree(without, DefaultOptions(), nil).Findings, "memory/summary.md:summary-missing")
	// A selection of other files does not ask about the summary.
	check(t, Tree(without, DefaultOptions(), func(p string) bool { return p == "knowledge/k.md" }).Findings)

	// The hooks: a commit deleting it, or one changing something else.
	check(t, Changed(without, nil, []string{record.SummaryPath}, DefaultOptions()).Findings, "memory/summary.md:summary-missing")
	check(t, Changed(without, []string{"knowledge/k.md"}, nil, DefaultOptions()).Findings)
	// A commit removing all of .yoi/ leaves nothing that needs a summary.
	check(t, Changed(record.MapSnapshot(map[string][]byte{}), nil, []string{record.SummaryPath, "knowledge/k.md"}, DefaultOptions()).Findings)

	// The memory tools: deleting it is refused; other deletes are not.
	var cs record.ChangeSet
	if err := cs.Put(record.Change{Path: record.SummaryPath, Op: record.OpDelete}); err != nil {
		t.Fatal(err)
	}
	rep := Check(with, &cs, Automation, DefaultOptions())
	check(t, rep.Findings, "memory/summary.md:summary-missing")
	if !rep.HasErrors() || !strings.Contains(rep.Findings[0].Message, "summary") {
		t.Fatalf("findings: %v", rep.Findings)
	}
	var other record.ChangeSet
	if err := other.Put(record.Change{Path: "knowledge/k.md", Op: record.OpDelete}); err != nil {
		t.Fatal(err)
	}
	check(t, Check(with, &other, Automation, DefaultOptions()).Findings)
}

// TestCredentialsInParsedText: a secret that only appears whole once the
// text is read as YAML or Markdown (a double-quoted line continuation, a
// backslash escape, a zero-width space) is found, at its field or line.
func TestCredentialsInParsedText(t *testing.T) {
	tok := "gh" + "p_" + "R8kQ2vT9xW3mB7nL4cY6hJ1dF0gSaZ5uE2oI"
	split := `"use ` + tok[:20] + "\\\n  " + tok[20:] + ` to publish"`
	files := map[string]string{
		"knowledge/split.md":   strings.Replace(knowledge(false, "d", "Body.\n"), `description: "d"`, "description: "+split, 1),
		"knowledge/escaped.md": knowledge(false, "d", "Token: "+strings.Replace(tok, "_", `\_`, 1)+"\n"),
		"knowledge/zwsp.md":    knowledge(false, "d", "Token: "+tok[:10]+"\u200b"+tok[10:]+"\n"),
		"knowledge/pw.md":      strings.Replace(knowledge(false, "d", ""), "kind: rule\n", "kind: rule\ndb_password: \"Xk9$mQ2#\\\n  vL7pR4&wZ1!\"\n", 1),
		"knowledge/plain.md":   knowledge(false, "d", "Escapes like \\_ and \\* and a line\\\ncontinue, ghp\\_ is a prefix.\n"),
	}
	snap := map[string][]byte{record.SummaryPath: []byte(summary(""))}
	for p, c := range files {
		snap[p] = []byte(c)
	}
	rep := Tree(record.MapSnapshot(snap), DefaultOptions(), nil)
	check(t, rep.Findings, "knowledge/escaped.md:credential", "knowledge/pw.md:credential", "knowledge/split.md:credential", "knowledge/zwsp.md:credential")
	for _, f := range rep.Findings {
		switch f.Path {
		case "knowledge/split.md":
			if f.Line != 3 || !strings.Contains(f.Message, "description") {
				t.Errorf("split: %s", f)
			}
		case "knowledge/pw.md":
			if f.Line != 3 || !strings.Contains(f.Message, "password") {
				t.Errorf("pw: %s", f)
			}
		case "knowledge/escaped.md", "knowledge/zwsp.md":
			if f.Line != 10 {
				t.Errorf("%s: %s", f.Path, f)
			}
		}
	}
}

// TestCredentialMessageArticle: the message reads as English whatever the
// kind: "an AWS access key ID", "a GitHub token", in the raw text and in
// the parsed text alike.
func TestCredentialMessageArticle(t *testing.T) {
	aws := "AKIA" + "Q3EGRTZX7MPLW4NB"
	gh := "gh" + "p_" + "R8kQ2vT9xW3mB7nL4cY6hJ1dF0gSaZ5uE2oI"
	snap := record.MapSnapshot(map[string][]byte{
		record.SummaryPath:          []byte(summary("")),
		"memory/requests/aws.md":    []byte(request("key " + aws + "\n")),
		"memory/requests/gh.md":     []byte(request("token " + gh + "\n")),
		"memory/requests/awsesc.md": []byte(request("key " + aws[:6] + "\u200b" + aws[6:] + "\n")),
	})
	want := map[string]string{
		"memory/requests/aws.md":    "looks like an AWS access key ID;",
		"memory/requests/gh.md":     "looks like a GitHub token;",
		"memory/requests/awsesc.md": "looks like an AWS access key ID once",
	}
	rep := Tree(snap, DefaultOptions(), nil)
	if len(rep.Findings) != len(want) {
		t.Fatalf("findings: %v", rep.Findings)
	}
	for _, f := range rep.Findings {
		if !strings.Contains(f.Message, want[f.Path]) {
			t.Errorf("%s: %q, want %q", f.Path, f.Message, want[f.Path])
		}
	}
}
