// Command teamsim simulates a team sharing memory through one bare
// remote: -clones clones each run -runs consolidations (the rules engine
// over one staged entry each), interleaved in a shuffled order per round,
// each pulling first and pushing most of the time (-push), so that
// clones that did not push diverge and replay. It reports the memory
// commits and records on the remote at the end, the conflicts left for a
// person, and the time per sync (git yoimem pull: fetch and integrate)
// against the floor a person pays for the same commits with git: git
// fetch plus git rebase, run on a copy of the clone just before the
// pull.
//
// Usage (bench/teamsync.sh builds and calls it):
//
//	teamsim -dir DIR [-clones 20] [-runs 25] [-push 0.7] [-shared 0.2] [-seed 1]
//
// git and git-yoimem are found on PATH; HOME and git's configuration are
// the caller's to isolate. It reports; it does not judge: it exits 1 only
// when something fails unexpectedly.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	var o options
	flag.StringVar(&o.dir, "dir", "", "empty work `directory`")
	flag.IntVar(&o.clones, "clones", 20, "clones")
	flag.IntVar(&o.runs, "runs", 25, "consolidations per clone")
	flag.Float64Var(&o.push, "push", 0.7, "chance that a clone pushes after a consolidation")
	flag.Float64Var(&o.shared, "shared", 0.2, "chance that an entry updates one of three decisions every clone updates")
	flag.Int64Var(&o.seed, "seed", 1, "seed of the order and of the entries")
	flag.BoolVar(&o.seeded, "seeded", true, "the shared decisions exist on the remote before the clones are made (false: the first clones to meet one each create it, and a record added on both sides with different text is a conflict)")
	flag.Parse()
	if o.dir == "" || o.clones < 1 || o.runs < 1 {
		fmt.Fprintln(os.Stderr, "teamsim: -dir is required; -clones and -runs must be at least 1")
		os.Exit(2)
	}
	s := &sim{options: o, rng: rand.New(rand.NewSource(o.seed))}
	if err := s.run(); err != nil {
		fmt.Fprintln(os.Stderr, "teamsim:", err)
		os.Exit(1)
	}
	s.report(os.Stdout)
}

type options struct {
	dir          string
	clones, runs int
	push, shared float64
	seed         int64
	seeded       bool
}

type sim struct {
	options
	rng *rand.Rand
	// what happened
	syncs                    []syncTiming
	pushes                   []time.Duration
	conflicts, baseConflicts int
	conflictReasons          map[string]int // by the reason sync gives
	outcomes                 map[string]int
	consolidations           int
	stuck                    map[int]bool // clones left with a conflict: they stop pushing
	entry                    int
	start                    time.Time
}

type syncTiming struct {
	ours, fetch, rebase time.Duration
	replayed            bool
}

func (s *sim) path(parts ...string) string {
	return filepath.Join(append([]string{s.dir}, parts...)...)
}

func (s *sim) clone(i int) string { return s.path(fmt.Sprintf("c%02d", i)) }

func (s *sim) run() error {
	s.outcomes, s.stuck, s.start = map[string]int{}, map[int]bool{}, time.Now()
	s.conflictReasons = map[string]int{}
	if err := s.setup(); err != nil {
		return err
	}
	for r := 0; r < s.runs; r++ {
		order := s.rng.Perm(s.clones)
		for _, c := range order {
			if err := s.step(c, r); err != nil {
				return fmt.Errorf("clone %d, run %d: %w", c, r, err)
			}
		}
	}
	for c := 0; c < s.clones; c++ { // everyone shares what is left
		if s.stuck[c] {
			continue
		}
		if _, err := s.yoimemPush(c); err != nil {
			return fmt.Errorf("clone %d, last push: %w", c, err)
		}
	}
	return nil
}

func (s *sim) setup() error {
	if err := run(s.dir, "git", "init", "-q", "--bare", "remote.git"); err != nil {
		return err
	}
	seed := s.path("seed")
	steps := [][]string{
		{"git", "init", "-q", "-b", "main", seed},
		{"git", "-C", seed, "yoimem", "init", "--no-hooks"},
		{"git", "-C", seed, "add", "-A"},
		{"git", "-C", seed, "commit", "-q", "-m", "memory layout"},
		{"git", "-C", seed, "remote", "add", "origin", s.path("remote.git")},
		{"git", "-C", seed, "push", "-q", "origin", "main"},
	}
	if s.seeded {
		for i, topic := range sharedTopics {
			if err := s.writeEntry(seed, 0xfff, i, topic); err != nil {
				return err
			}
		}
		steps = append(steps,
			[]string{"git", "-C", seed, "yoimem", "consolidate", "--engine", "rules"},
			[]string{"git", "-C", seed, "yoimem", "push"})
	}
	for c := 0; c < s.clones; c++ {
		steps = append(steps,
			[]string{"git", "clone", "-q", s.path("remote.git"), s.clone(c)},
			[]string{"git", "-C", s.clone(c), "yoimem", "init", "--no-hooks"})
	}
	for _, st := range steps {
		if err := run(s.dir, st[0], st[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// step: pull (timed against git fetch + git rebase on a copy), stage one
// entry, consolidate, and push most of the time.
func (s *sim) step(c, r int) error {
	if s.stuck[c] {
		return nil
	}
	if err := s.timedSync(c); err != nil {
		return err
	}
	if s.stuck[c] {
		return nil
	}
	if err := s.stage(c, r); err != nil {
		return err
	}
	if err := run(s.clone(c), "git", "yoimem", "consolidate", "--engine", "rules"); err != nil {
		return err
	}
	s.consolidations++
	if s.rng.Float64() < s.push {
		if _, err := s.yoimemPush(c); err != nil {
			return err
		}
	}
	return nil
}

// timedSync measures git fetch + git rebase of the memory branch on a
// copy of the clone, then git yoimem pull on the clone itself.
func (s *sim) timedSync(c int) error {
	dir := s.clone(c)
	twin := s.path("twin")
	_ = os.RemoveAll(twin)
	_ = os.RemoveAll(twin + "-wt")
	if err := run(s.dir, "cp", "-a", dir, twin); err != nil {
		return err
	}
	var t syncTiming
	began := time.Now()
	if err := run(twin, "git", "fetch", "-q", "--no-tags", "origin", "+refs/heads/yoimem/memory:refs/remotes/origin/yoimem/memory", "+refs/notes/yoimem:refs/notes/remotes/origin/yoimem"); err != nil && !strings.Contains(err.Error(), "couldn't find remote ref") {
		return err
	}
	t.fetch = time.Since(began)
	if haveRef(twin, "refs/heads/yoimem/memory") && haveRef(twin, "refs/remotes/origin/yoimem/memory") {
		if err := run(twin, "git", "worktree", "add", "-q", twin+"-wt", "yoimem/memory"); err != nil {
			return err
		}
		began = time.Now()
		if err := run(twin+"-wt", "git", "rebase", "-q", "origin/yoimem/memory"); err != nil {
			s.baseConflicts++
			_ = run(twin+"-wt", "git", "rebase", "--abort")
		}
		t.rebase = time.Since(began)
	}
	began = time.Now()
	out, err := output(dir, "git", "yoimem", "pull", "--format", "json")
	t.ours = time.Since(began)
	outcome := jsonField(out, "outcome")
	s.outcomes[outcome]++
	switch {
	case outcome == "conflict":
		s.conflicts++
		s.conflictReasons[jsonField(out, "reason")]++
		s.stuck[c] = true
		fmt.Fprintf(os.Stderr, "teamsim: clone %d left a conflict for a person:\n%s\n", c, out)
		return nil
	case err != nil:
		return err
	}
	t.replayed = outcome == "replayed"
	s.syncs = append(s.syncs, t)
	return nil
}

func (s *sim) yoimemPush(c int) (string, error) {
	began := time.Now()
	out, err := output(s.clone(c), "git", "yoimem", "push", "--format", "json")
	s.pushes = append(s.pushes, time.Since(began))
	if jsonField(out, "outcome") == "conflict" {
		s.conflicts++
		s.conflictReasons[jsonField(out, "reason")]++
		s.stuck[c] = true
		fmt.Fprintf(os.Stderr, "teamsim: clone %d left a conflict for a person:\n%s\n", c, out)
		return out, nil
	}
	return out, err
}

// sharedTopics are the decisions every clone takes part in.
var sharedTopics = [...]string{"cache policy", "retry count", "log format"}

// stage writes one staging entry: a decision of this clone's own, or an
// update of one of the shared decisions.
func (s *sim) stage(c, r int) error {
	topic := fmt.Sprintf("clone %d choice %d", c, r)
	if s.rng.Float64() < s.shared {
		topic = sharedTopics[s.rng.Intn(len(sharedTopics))]
	}
	return s.writeEntry(s.clone(c), c, r, topic)
}

func (s *sim) writeEntry(repo string, c, r int, topic string) error {
	s.entry++
	id := fmt.Sprintf("0194d29f-%04x-7%03x-8000-%012x", c, r%0x1000, s.entry)
	chosen := fmt.Sprintf("option %d", s.rng.Intn(3))
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(s.entry) * time.Minute)
	body := fmt.Sprintf(`{"version": 1, "id": %q, "created_at": %q,
 "source": {"session_id": "c%d-s%d", "range": [1, 9]}, "agent": "claude-code", "model": "recorded",
 "activity": {"decisions": [{"topic": %q, "options": ["option 0", "option 1", "option 2"], "chosen": %q, "rationale": "measured in run %d"}],
  "discussions": [], "attempts": [], "requests": []}}
`, id, when.Format(time.RFC3339), c, r, topic, chosen, r)
	dir := filepath.Join(repo, ".yoi", "memory", "_staging")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, id+".json"), []byte(body), 0o644)
}

func (s *sim) report(w *os.File) {
	remote := s.path("remote.git")
	commits, _ := output(remote, "git", "rev-list", "--count", "--no-merges", "yoimem/memory", "^main")
	merges, _ := output(remote, "git", "rev-list", "--count", "--merges", "yoimem/memory", "^main")
	records, _ := output(remote, "git", "ls-tree", "-r", "--name-only", "yoimem/memory", "--", ".yoi/memory/decisions")
	notes, _ := output(remote, "git", "notes", "--ref", "yoimem", "list")
	lintOut := s.lintRemote()
	var ours, fetch, rebase []time.Duration
	var oursReplay, baseReplay []time.Duration
	for _, t := range s.syncs {
		ours = append(ours, t.ours)
		fetch = append(fetch, t.fetch)
		rebase = append(rebase, t.fetch+t.rebase)
		if t.replayed {
			oursReplay = append(oursReplay, t.ours)
			baseReplay = append(baseReplay, t.fetch+t.rebase)
		}
	}
	fmt.Fprintf(w, "clones: %d, consolidations each: %d, push chance %.2f, shared-decision chance %.2f (seeded on the remote first: %v), seed %d\n", s.clones, s.runs, s.push, s.shared, s.seeded, s.seed)
	fmt.Fprintf(w, "consolidations: %d; memory commits on the remote: %s (merge commits: %s); decision records: %d; notes: %d\n",
		s.consolidations, strings.TrimSpace(commits), strings.TrimSpace(merges), countLines(records), countLines(notes))
	fmt.Fprintf(w, "conflicts left for a person: %d (%s; git rebase of the same commits stopped on a conflict %d times)\n", s.conflicts, outcomeList(s.conflictReasons), s.baseConflicts)
	fmt.Fprintf(w, "sync outcomes: %s\n", outcomeList(s.outcomes))
	fmt.Fprintf(w, "lint of the remote's memory: %s\n", lintOut)
	fmt.Fprintf(w, "| what | runs | median ms | p90 ms |\n|---|---|---|---|\n")
	row := func(name string, d []time.Duration) {
		fmt.Fprintf(w, "| %s | %d | %.1f | %.1f |\n", name, len(d), ms(pct(d, 50)), ms(pct(d, 90)))
	}
	row("git yoimem pull (fetch + integrate)", ours)
	row("git fetch alone", fetch)
	row("git fetch + git rebase (floor)", rebase)
	row("git yoimem pull, replays only", oursReplay)
	row("git fetch + git rebase, same syncs", baseReplay)
	row("git yoimem push (pull + push)", s.pushes)
	fmt.Fprintf(w, "ratio, median pull / median (fetch + rebase): %.2f; on replays: %.2f\n", ratio(pct(ours, 50), pct(rebase, 50)), ratio(pct(oursReplay, 50), pct(baseReplay, 50)))
	fmt.Fprintf(w, "wall time: %.1f s\n", time.Since(s.start).Seconds())
}

// lintRemote checks the remote's memory out in a fresh clone and lints it.
func (s *sim) lintRemote() string {
	dir := s.path("final")
	if err := run(s.dir, "git", "clone", "-q", "-b", "yoimem/memory", s.path("remote.git"), dir); err != nil {
		return "could not clone: " + err.Error()
	}
	out, err := output(dir, "git", "yoimem", "lint")
	if err != nil {
		return "FINDINGS: " + strings.TrimSpace(out) + " " + err.Error()
	}
	return "clean"
}

func run(dir, name string, args ...string) error {
	_, err := output(dir, name, args...)
	return err
}

func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

func haveRef(dir, ref string) bool {
	return run(dir, "git", "rev-parse", "-q", "--verify", ref) == nil
}

// jsonField finds "key": "value" in pretty-printed JSON (enough here).
func jsonField(out, key string) string {
	_, rest, ok := strings.Cut(out, `"`+key+`": "`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func countLines(s string) int { return len(strings.Fields(strings.ReplaceAll(s, " ", "_"))) }

func outcomeList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
