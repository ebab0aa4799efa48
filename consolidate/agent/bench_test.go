package agent

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// BenchmarkFirstRequest measures the llm engine's first request over a
// corpus of bench/gencorpus (1,000 and 10,000 records) with 8 staged
// entries: its size (request-bytes, the JSON sent: system prompt, first
// message, tool schemas) against the size of .yoi/ (yoi-bytes), and the
// time to build it (which lints the base for the tidy-up material).
//
//	go test -run '^$' -bench FirstRequest -benchtime 3x ./consolidate/agent
func BenchmarkFirstRequest(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			files, total := corpus(b, n)
			in := &consolidate.Input{RunID: "bench", Now: runTime, Base: record.MapSnapshot(files), Lint: lint.DefaultOptions()}
			for i := range 8 {
				e := tinyshopEntry(b)
				e.ID = e.ID[:len(e.ID)-1] + strconv.Itoa(i)
				in.Entries = append(in.Entries, e)
			}
			var size int
			for b.Loop() {
				s, err := consolidate.NewSession(in)
				if err != nil {
					b.Fatal(err)
				}
				req, _, err := (&Engine{}).start(s)
				if err != nil {
					b.Fatal(err)
				}
				body, err := json.Marshal(req)
				if err != nil {
					b.Fatal(err)
				}
				size = len(body)
			}
			b.ReportMetric(float64(size), "request-bytes")
			b.ReportMetric(float64(total), "yoi-bytes")
			// The budget counts characters of the first message; the rest
			// is the fixed prompt and tool schemas.
			if limit := 4*DefaultBudgetChars + 64<<10; size > limit {
				b.Errorf("first request %d bytes, over %d", size, limit)
			}
		})
	}
}

// corpus generates n records with bench/gencorpus and reads them as
// .yoi/-relative files, with their total size. The records are canonical,
// the corpus docs/consolidate.md quotes figures for.
func corpus(b *testing.B, n int) (map[string][]byte, int64) {
	b.Helper()
	dir := b.TempDir()
	cmd := exec.Command("go", "run", "../../bench/gencorpus", "-out", dir, "-n", strconv.Itoa(n), "-shapes", "canonical")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("gencorpus: %v\n%s", err, out)
	}
	files := fixture.ReadYoi(b, dir)
	var total int64
	for _, data := range files {
		total += int64(len(data))
	}
	return files, total
}
