package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// benchWords make slugs and prose.
const benchWords = (`cache retry queue index schema parser token budget
	release branch commit hook lint record summary metric ledger session extract
	consolidate search excerpt config worker pool timeout backoff stream buffer
	codec encoder decoder migration rollout flag feature storage sqlite postgres
	redis journal snapshot overlay tree blob ref lock pid signal context deadline`)

// benchCorpus is a memory of n records: a summary, and decisions,
// requests and knowledge records in the proportions of a real one.
// bench/gencorpus is a command, not a library, so the corpus is generated
// here in its spirit: deterministic, records of 300 to 3,000 bytes.
func benchCorpus(n int) (map[string][]byte, []string) {
	words := strings.Fields(benchWords)
	r := rand.New(rand.NewPCG(1, 2))
	files := map[string][]byte{"memory/summary.md": []byte(summary)}
	var topics []string
	for i := 0; len(files) < n; i++ {
		w := func() string { return words[r.IntN(len(words))] }
		slug := fmt.Sprintf("%s-%s-%s-%d", w(), w(), w(), i)
		var body strings.Builder
		body.WriteString("# " + strings.ReplaceAll(slug, "-", " ") + "\n\n")
		for body.Len() < 300+r.IntN(2700) {
			body.WriteString(w() + " " + w() + " " + w() + " of the " + w() + ". ")
		}
		body.WriteString("\n")
		var path, content string
		switch k := r.IntN(10); {
		case k < 4:
			path = record.PathFor(record.KindDecision, slug)
			content = decisionFile("resolved", body.String(), fmt.Sprintf("s%d", i))
			topics = append(topics, strings.ReplaceAll(slug, "-", " "))
		case k < 6:
			path = record.PathFor(record.KindRequest, slug)
			content = requestFile(body.String(), fmt.Sprintf("s%d", i))
		default:
			path = record.PathFor(record.KindKnowledge, slug)
			content = knowledgeFile("About "+slug, body.String())
		}
		files[path] = []byte(content)
	}
	return files, topics
}

// benchEntries are n staging entries, each with a decision, a discussion,
// an attempt and a request; half the decisions are on existing topics.
func benchEntries(n int, topics []string) []extract.Staging {
	var out []extract.Staging
	for i := range n {
		topic := fmt.Sprintf("new topic number %d", i)
		if i%2 == 0 {
			topic = topics[i*7%len(topics)]
		}
		a := extract.Activity{
			Decisions:   []extract.Decision{{Topic: topic, Options: []string{"one way", "another way"}, Chosen: "one way", Rationale: fmt.Sprintf("It is simpler (entry %d).", i)}},
			Discussions: []extract.Discussion{{Topic: fmt.Sprintf("open question %d", i%10), Points: []string{fmt.Sprintf("point %d", i)}}},
			Attempts:    []extract.Attempt{{What: "tried " + topic + " with a flag", Result: "it failed", Success: false}},
			Requests:    []extract.Request{{Intent: fmt.Sprintf("feature %d", i%20), Target: "cli", Summary: fmt.Sprintf("asked in entry %d", i)}},
		}
		out = append(out, stage(fmt.Sprintf("e%03d", i), fmt.Sprintf("s%d", i), 1+i%28, a))
	}
	return out
}

// BenchmarkRules100EntriesInto10k: the engine over 100 staged entries
// into a 10,000-record memory, each change checked by the session's
// linter. The goal for the whole run is under 1 s and 100 MiB.
func BenchmarkRules100EntriesInto10k(b *testing.B) {
	files, topics := benchCorpus(10000)
	base := record.MapSnapshot(files)
	entries := benchEntries(100, topics)
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		s, err := consolidate.NewSession(&consolidate.Input{RunID: "bench", Now: now, Base: base, Entries: entries, Lint: lint.DefaultOptions()})
		if err != nil {
			b.Fatal(err)
		}
		if err := (Engine{}).Run(context.Background(), s); err != nil {
			b.Fatal(err)
		}
		ops = len(s.Ops())
	}
	b.ReportMetric(float64(ops), "ops")
}
