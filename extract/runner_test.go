package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// nativeLog is a native session log of four lines: two turns, 12,000 and
// 12,500 input tokens.
const nativeLog = `{"type":"session","ts":"2026-09-01T10:00:00Z","session_id":"s-1","agent":"yoi","version":"0.4.0","cwd":"/w"}
{"type":"user","ts":"2026-09-01T10:00:05Z","session_id":"s-1","text":"refunds should be idempotent; add a key"}
{"type":"assistant","ts":"2026-09-01T10:00:09Z","session_id":"s-1","message_id":"msg_1","text":"I'll add an idempotency key.","usage":{"input_tokens":12000,"output_tokens":90}}
{"type":"assistant","ts":"2026-09-01T10:00:19Z","session_id":"s-1","message_id":"msg_2","text":"Done: the key is the request id.","usage":{"input_tokens":12500,"output_tokens":40}}
`

// runnerFixture is a workspace root with .yoi/, the log in it, and a
// runner over them whose model is counted and whose ticks and warnings
// are kept.
type runnerFixture struct {
	root    string
	r       *Runner
	model   *recorder
	opened  int
	ticks   []metrics.Tick
	warns   []string
	modelOK error // what opening the model returns
}

func newRunnerFixture(t *testing.T, answer string) *runnerFixture {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".yoi"), 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(root, "session.jsonl")
	if err := os.WriteFile(logPath, []byte(nativeLog), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := OpenLog(logPath, "")
	if err != nil {
		t.Fatal(err)
	}
	f := &runnerFixture{root: root}
	f.model = &recorder{answer: func(int, llm.Request) (llm.Response, error) {
		return llm.Response{JSON: []byte(answer), Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}}, nil
	}}
	f.r = &Runner{
		Log: log, StateDir: filepath.Join(root, "state"), YoiDir: filepath.Join(root, ".yoi"), Threshold: 20000,
		Model: func() (llm.Provider, string, error) {
			f.opened++
			if f.modelOK != nil {
				return nil, "", f.modelOK
			}
			return f.model, "test:model", nil
		},
		Ledger: func(tk metrics.Tick) error { f.ticks = append(f.ticks, tk); return nil },
		Now:    func() time.Time { return time.Date(2026, 9, 1, 11, 0, 0, 0, time.UTC) },
		Warn:   func(m string) { f.warns = append(f.warns, m) },
	}
	return f
}

func (f *runnerFixture) staged(t *testing.T) []Staging {
	t.Helper()
	entries, _ := os.ReadDir(f.r.StagingDir())
	var out []Staging
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(f.r.StagingDir(), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseStaging(e.Name(), b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestRunnerRun(t *testing.T) {
	f := newRunnerFixture(t, decisionAnswer("idempotency key"))
	rep, err := f.r.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Due || rep.Tokens != 24500 || rep.Calls != 2 || len(rep.Runs) != 0 || f.opened != 0 {
		t.Errorf("check: %+v, model opened %d times; want due with 24500 tokens in 2 calls, no model", rep, f.opened)
	}
	if len(f.ticks) != 1 || f.ticks[0].Tokens != 24500 || f.ticks[0].Session != f.r.Log.Key() {
		t.Errorf("ledger ticks %+v; want one of 24500 tokens for the log", f.ticks)
	}

	rep, err = f.r.Run(context.Background(), RunOptions{MaxRuns: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 || rep.Runs[0].From != 1 || rep.Runs[0].To != 4 || rep.Runs[0].Decisions != 1 || rep.After.Due || rep.After.Pointer != 5 { // 5: the pointer steps over its own line
		t.Errorf("run: %+v", rep)
	}
	staged := f.staged(t)
	if len(staged) != 1 || staged[0].Source.SessionID != "s-1" || staged[0].Source.Range != [2]int{1, 4} || staged[0].Model != "test:model" || staged[0].Agent != "native" {
		t.Fatalf("staging files %+v", staged)
	}
	if want := record.DisplayPath(record.StagingDir + "/" + staged[0].ID + ".json"); rep.Runs[0].Staging != want {
		t.Errorf("report names %s; want %s", rep.Runs[0].Staging, want)
	}
	if rep.StagingDir != filepath.Join(f.root, ".yoi", "memory", "_staging") {
		t.Errorf("staging dir %s", rep.StagingDir)
	}
	if files, bytes, err := StagingUsage(rep.StagingDir); err != nil || files != 1 || bytes == 0 {
		t.Errorf("StagingUsage = %d, %d, %v; want one file", files, bytes, err)
	}
	// the native log got its pointer, which alone makes nothing due
	b, _ := os.ReadFile(f.r.Log.Path)
	if !strings.Contains(string(b), `"domain":"`+PointerDomain+`"`) {
		t.Errorf("no pointer line appended to the native log:\n%s", b)
	}
	rep, err = f.r.Run(context.Background(), RunOptions{MaxRuns: 4})
	if err != nil || len(rep.Runs) != 0 || rep.Due || len(f.model.reqs) != 1 {
		t.Errorf("a second run: %+v, %v, %d model calls; want nothing to do", rep, err, len(f.model.reqs))
	}
}

func TestRunnerInFlight(t *testing.T) {
	f := newRunnerFixture(t, decisionAnswer("x"))
	f.r.LockWait = 20 * time.Millisecond
	if _, err := f.r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	holder := lockfile.New(filepath.Join(f.r.StateDir, f.r.Log.Key()+".lock"))
	if err := holder.Acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	defer holder.Unlock()
	for name, run := range map[string]func() (Report, error){
		"check": func() (Report, error) { return f.r.Check(context.Background()) },
		"run":   func() (Report, error) { return f.r.Run(context.Background(), RunOptions{Force: true, MaxRuns: 4}) },
	} {
		rep, err := run()
		if !errors.Is(err, ErrInFlight) || !strings.Contains(err.Error(), "s-1") || !rep.InFlight || !rep.Due || rep.Tokens != 24500 {
			t.Errorf("%s while another holds the log: %+v, %v; want ErrInFlight with the holder's last state", name, rep, err)
		}
	}
	if f.opened != 0 || len(f.staged(t)) != 0 {
		t.Errorf("a skipped run opened the model (%d) or staged something", f.opened)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f.r.LockWait = time.Hour
	if _, err := f.r.Run(ctx, RunOptions{MaxRuns: 4}); !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted wait = %v; want context.Canceled", err)
	}
}

func TestRunnerFailuresKeepThePointer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		setup    func(*runnerFixture)
		is       error
		kept     bool // a *PointerKeptError
		opened   int  // times the model was opened
		contains string
	}{
		{"no .yoi/", func(f *runnerFixture) { os.Remove(f.r.YoiDir) }, record.ErrNoYoi, false, 0, "no .yoi/"},
		{"no model", func(f *runnerFixture) { f.modelOK = errors.New("no model for extract") }, nil, false, 1, "no model for extract"},
		{"the model fails", func(f *runnerFixture) {
			f.model.answer = func(int, llm.Request) (llm.Response, error) { return llm.Response{}, llm.ErrServer }
		}, llm.ErrServer, true, 1, "extract entries 1-4 of session s-1"},
		{"staging through a symlink", func(f *runnerFixture) {
			os.Symlink(t.TempDir(), filepath.Join(f.r.YoiDir, "memory"))
		}, nil, true, 1, "memory is a symlink; staging files are written only inside .yoi/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newRunnerFixture(t, decisionAnswer("x"))
			tc.setup(f)
			rep, err := f.r.Run(context.Background(), RunOptions{Force: true, MaxRuns: 4})
			var pk *PointerKeptError
			if err == nil || tc.is != nil && !errors.Is(err, tc.is) || errors.As(err, &pk) != tc.kept || !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("error %v; want one saying %q (is %v, pointer kept %v)", err, tc.contains, tc.is, tc.kept)
			}
			if f.opened != tc.opened {
				t.Errorf("model opened %d times; want %d", f.opened, tc.opened)
			}
			if len(rep.Runs) != 0 || rep.Pointer != 0 {
				t.Errorf("report %+v; want no run", rep)
			}
			if st, err := f.r.loadState(); err != nil || st.Pointer.Index != 0 {
				t.Errorf("pointer %d, %v; want 0", st.Pointer.Index, err)
			}
			if len(f.staged(t)) != 0 {
				t.Error("a failed run left a staging file")
			}
		})
	}
}

// TestRunnerPreview: the dry run is the request a run sends, and changes
// nothing (no state, no ledger, no lock).
func TestRunnerPreview(t *testing.T) {
	f := newRunnerFixture(t, decisionAnswer("x"))
	p, err := f.r.Preview()
	if err != nil {
		t.Fatal(err)
	}
	if p.Empty() || p.Pointer != 0 || p.Through != 4 || p.Request == nil || p.Rendered.Entries == 0 {
		t.Fatalf("preview %+v", p)
	}
	if _, err := os.Stat(f.r.StateDir); !errors.Is(err, os.ErrNotExist) || len(f.ticks) != 0 {
		t.Errorf("the preview saved state (%v) or fed the ledger (%v)", err, f.ticks)
	}
	if _, err := f.r.Run(context.Background(), RunOptions{Force: true, MaxRuns: 1}); err != nil {
		t.Fatal(err)
	}
	if len(f.model.reqs) != 1 || llm.PromptText(f.model.reqs[0]) != llm.PromptText(*p.Request) {
		t.Errorf("the model got another request than the preview showed")
	}
	if p, err = f.r.Preview(); err != nil || !p.Empty() || p.Request != nil || p.Pointer != 5 {
		t.Errorf("preview after the run: %+v, %v; want nothing after the pointer", p, err)
	}
}

func TestStagingUsage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "_staging")
	if files, bytes, err := StagingUsage(dir); files != 0 || bytes != 0 || err != nil {
		t.Errorf("a missing directory: %d, %d, %v", files, bytes, err)
	}
	os.Mkdir(dir, 0o755)
	for name, content := range map[string]string{
		"0190f5a2-0000-7000-8000-000000000001.json":          "12345",
		"0190f5a2-0000-7000-8000-000000000002.json":          "123",
		".0190f5a2-0000-7000-8000-000000000003.json.tmp-999": "a temp file of a run",
		"consolidate.lock": "{}",
		"notes.txt":        "x",
		".hidden.json":     "not an entry: consolidation never reads it",
		".json":            "no id",
	} {
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "x.json"), 0o755)
	os.Symlink("/etc/passwd", filepath.Join(dir, "link.json"))
	if files, bytes, err := StagingUsage(dir); files != 2 || bytes != 8 || err != nil {
		t.Errorf("StagingUsage = %d, %d, %v; want 2 files, 8 bytes", files, bytes, err)
	}
	list, err := ListStaging(dir)
	want := []StagedFile{{"0190f5a2-0000-7000-8000-000000000001", 5}, {"0190f5a2-0000-7000-8000-000000000002", 3}}
	if err != nil || !slices.Equal(list, want) {
		t.Errorf("ListStaging = %v, %v; want %v (what consolidation consumes, in ID order)", list, err, want)
	}
}

// TestRunnerUntil: a run bounded at a byte offset (a PreCompact hook's
// view of the log) covers only the complete lines before it, whatever was
// appended since and whenever it runs; the next unbounded run covers the
// rest. A bound behind the scan position (another run read further
// first) still ends the run there, and the ledger counts no line twice.
func TestRunnerUntil(t *testing.T) {
	lines := strings.SplitAfter(nativeLog, "\n")
	bound := int64(len(lines[0]) + len(lines[1]) + len(lines[2])) // through the first answer
	for _, tc := range []struct {
		name      string
		scanFirst bool // a check reads the whole log before the bounded run
	}{
		{"scan behind the bound", false},
		{"scan past the bound", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newRunnerFixture(t, decisionAnswer("idempotency key"))
			f.r.Threshold = 10000
			if tc.scanFirst {
				if _, err := f.r.Check(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := f.r.Run(context.Background(), RunOptions{MaxRuns: 4, Until: bound})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Runs) != 1 || rep.Runs[0].From != 1 || rep.Runs[0].To != 3 {
				t.Fatalf("bounded run: %+v; want one run over entries 1-3", rep.Runs)
			}
			if len(f.model.reqs) != 1 || strings.Contains(requestText(f.model.reqs[0]), "the key is the request id") {
				t.Errorf("the bounded run sent an entry past the bound")
			}
			rep, err = f.r.Run(context.Background(), RunOptions{MaxRuns: 4})
			if err != nil {
				t.Fatal(err)
			}
			// (through 5: the native log got the bounded run's pointer line)
			if len(rep.Runs) != 1 || rep.Runs[0].From != 4 || rep.Runs[0].To != 5 || !strings.Contains(requestText(f.model.reqs[1]), "the key is the request id") {
				t.Fatalf("the next run: %+v; want one run from entry 4", rep.Runs)
			}
			var ledger int64
			for _, tk := range f.ticks {
				ledger += tk.Tokens
			}
			if ledger != 24500 {
				t.Errorf("ledger counted %d tokens (%+v); want 24500, each line once", ledger, f.ticks)
			}
			// a bound at or behind the pointer: nothing to do
			rep, err = f.r.Run(context.Background(), RunOptions{MaxRuns: 4, Until: bound})
			if err != nil || len(rep.Runs) != 0 || rep.Due {
				t.Errorf("a bound behind the pointer: %+v, %v; want nothing to do", rep, err)
			}
		})
	}
}

func requestText(req llm.Request) string { return llm.PromptText(req) }
