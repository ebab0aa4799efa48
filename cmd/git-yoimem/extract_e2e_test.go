//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// End-to-end tests of 'git yoimem extract' that need what a script cannot
// give: model servers speaking the real wire formats, a process killed in
// the middle of a run, two runs at once. They drive the test binary run as
// git-yoimem (as testscript and TestMCPOverStdio do), in a repository of
// their own with an isolated git, and reach no network.

const ccSession = "11111111-2222-3333-4444-555555555555"

// ccStateFile is where the machine-local state of the Claude Code fixture
// lives, under .git/.
var ccStateFile = filepath.Join(".git", "yoimem", "extract", "claude-code-"+ccSession+"-session.json") // the log is session.jsonl: its name is part of the key

// goodActivity is a schema-valid answer.
const goodActivity = `{"decisions":[{"topic":"list order","options":["sort by name","insertion order"],"chosen":"insertion order","rationale":"TestList expects it"}],"discussions":[],"attempts":[{"what":"go test ./cmd/...","result":"TestList failed","success":false}],"requests":[{"intent":"add JSON output","target":"list command","summary":"a --json flag for list"}]}`

// extractRepo is a repository with .yoi/ and the Claude Code fixture as
// session.jsonl (32 entries).
type extractRepo struct {
	t        *testing.T
	dir, bin string
	env      []string
}

func newExtractRepo(t *testing.T, extraEnv ...string) *extractRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := sampleRepo(t)
	bin := filepath.Join(t.TempDir(), "git-yoimem")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	// Nothing of the caller's model setup may leak in: keys, base URLs,
	// proxies, this tool's own variables.
	var env []string
	for _, kv := range fixture.Env(home) {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "OPENAI_"), strings.HasPrefix(k, "YOIMEM_"),
			strings.EqualFold(k, "HTTP_PROXY"), strings.EqualFold(k, "HTTPS_PROXY"), strings.EqualFold(k, "ALL_PROXY"):
			continue
		}
		env = append(env, kv)
	}
	r := &extractRepo{t: t, dir: dir, bin: bin, env: append(env, extraEnv...)}
	log, err := os.ReadFile(filepath.Join("testdata", "extract", "claudecode.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r.write("session.jsonl", string(log))
	return r
}

func (r *extractRepo) path(name string) string { return filepath.Join(r.dir, name) }

func (r *extractRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *extractRepo) write(name, content string) {
	r.t.Helper()
	if err := os.WriteFile(r.path(name), []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *extractRepo) appendLog(content string) {
	r.t.Helper()
	f, err := os.OpenFile(r.path("session.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		r.t.Fatal(err)
	}
}

func (r *extractRepo) read(name string) string {
	r.t.Helper()
	b, err := os.ReadFile(r.path(name))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// replay writes a replay file and returns its model string.
func (r *extractRepo) replay(name string, responses ...string) string {
	r.t.Helper()
	r.write(name, `{"responses": [`+strings.Join(responses, ",\n")+`]}`)
	return "replay:" + r.path(name)
}

func (r *extractRepo) command(args ...string) *exec.Cmd {
	cmd := exec.Command(r.bin, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	return cmd
}

// run runs git-yoimem to the end (bounded) and returns what it printed
// and its exit status.
func (r *extractRepo) run(args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	stdout, stderr, code, _ = r.runBounded(30*time.Second, args...)
	return stdout, stderr, code
}

// runBounded runs git-yoimem to the end, killed and failing the test
// past limit, and returns what it printed, its exit status and the
// finished command.
func (r *extractRepo) runBounded(limit time.Duration, args ...string) (stdout, stderr string, code int, cmd *exec.Cmd) {
	r.t.Helper()
	cmd = r.command(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		<-done
		r.t.Fatalf("git-yoimem %s: still running after %v", strings.Join(args, " "), limit)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		r.t.Fatal(err)
	}
	return out.String(), errb.String(), code, cmd
}

// mustRun runs git-yoimem and fails the test unless it exits 0.
func (r *extractRepo) mustRun(args ...string) string {
	r.t.Helper()
	stdout, stderr, code := r.run(args...)
	if code != 0 {
		r.t.Fatalf("git-yoimem %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

// staged returns the names in .yoi/memory/_staging (none if it is absent).
func (r *extractRepo) staged() []string {
	r.t.Helper()
	entries, err := os.ReadDir(r.path(filepath.Join(".yoi", "memory", "_staging")))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		r.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// staging is the one staging file's content, decoded.
type stagingFile struct {
	Version   int       `json:"version"`
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at"`
	Source    struct {
		SessionID string `json:"session_id"`
		Range     [2]int `json:"range"`
	} `json:"source"`
	Agent    string `json:"agent"`
	Model    string `json:"model"`
	Activity struct {
		Decisions   []map[string]any `json:"decisions"`
		Discussions []map[string]any `json:"discussions"`
		Attempts    []map[string]any `json:"attempts"`
		Requests    []map[string]any `json:"requests"`
	} `json:"activity"`
}

func (r *extractRepo) onlyStaging() stagingFile {
	r.t.Helper()
	names := r.staged()
	if len(names) != 1 {
		r.t.Fatalf("staging files %v, want one", names)
	}
	b := r.read(filepath.Join(".yoi", "memory", "_staging", names[0]))
	var s stagingFile
	if err := json.Unmarshal([]byte(b), &s); err != nil {
		r.t.Fatalf("staging file %s: %v\n%s", names[0], err, b)
	}
	if s.Version != 1 || s.ID+".json" != names[0] || s.CreatedAt.IsZero() || s.Source.SessionID != ccSession || s.Agent != "claude-code" || s.Model == "" {
		r.t.Errorf("staging file %s:\n%s", names[0], b)
	}
	return s
}

// assertNothingMoved checks that a failed run left no staging file (nor a
// temporary one) and the state as it was.
func (r *extractRepo) assertNothingMoved(stateBefore string) {
	r.t.Helper()
	if names := r.staged(); len(names) > 0 {
		r.t.Errorf("a failed run left %v in _staging", names)
	}
	if got := r.read(ccStateFile); got != stateBefore {
		r.t.Errorf("a failed run changed the state:\nbefore %s\nafter %s", stateBefore, got)
	}
}

// TestExtractModelFaults: whatever way the model call fails, extract exits
// 2 naming the range, stages nothing and leaves the pointer; the next run
// with a good answer covers the same range.
func TestExtractModelFaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		responses []string
		want      string // in the error
	}{
		{"server error", []string{`{"error": "server"}`}, "server"},
		{"rate limit", []string{`{"error": "rate_limited"}`}, "rate"},
		{"timeout", []string{`{"error": "timeout"}`}, "time"},
		{"refusal", []string{`{"error": "refusal"}`}, "refus"},
		{"invalid JSON twice", []string{`{"text": "The user wanted JSON output."}`, `{"text": "{\"decisions\": ["}`}, "invalid"},
		{"schema violation twice", []string{`{"json": {"decisions": "none"}}`, `{"json": {"decisions": [], "discussions": [], "attempts": [], "requests": [], "notes": "x"}}`}, "schema"},
		{"empty answer", []string{`{"text": ""}`}, "empty"},
		// split for the context, one half answered, the other failing:
		// no staging file for the half that went through
		{"context length then a half fails", []string{`{"error": "context_length"}`, `{"json": ` + goodActivity + `}`, `{"error": "server"}`}, "server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newExtractRepo(t)
			r.mustRun("extract", "--log", "session.jsonl", "--check")
			before := r.read(ccStateFile)

			stdout, stderr, code := r.run("extract", "--log", "session.jsonl", "--force", "--model", r.replay("fault.json", tc.responses...))
			if code != 2 {
				t.Errorf("exit %d, want 2\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "of session "+ccSession) || !strings.Contains(stderr, "extract entries ") || !strings.Contains(strings.ToLower(stderr), tc.want) {
				t.Errorf("the error does not name the range and %q:\n%s", tc.want, stderr)
			}
			if !strings.Contains(stderr, "the pointer did not move") {
				t.Errorf("no hint that the pointer stays:\n%s", stderr)
			}
			r.assertNothingMoved(before)

			stdout = r.mustRun("extract", "--log", "session.jsonl", "--force", "--model", r.replay("good.json", `{"json": `+goodActivity+`}`))
			if !strings.Contains(stdout, "extracted entries 1-32: 1 decisions, 0 discussions, 1 attempts, 1 requests -> .yoi/memory/_staging/") {
				t.Errorf("the run after the fault:\n%s", stdout)
			}
			if s := r.onlyStaging(); s.Source.Range != [2]int{1, 32} {
				t.Errorf("range %v, want [1 32]", s.Source.Range)
			}
		})
	}
}

// TestExtractContextLengthSplits: a range too long for the model is split
// in halves, each asked on its own; the staging file covers the whole range.
func TestExtractContextLengthSplits(t *testing.T) {
	t.Parallel()
	r := newExtractRepo(t)
	model := r.replay("split.json",
		`{"match": "log entries 1 to 32.", "error": "context_length"}`,
		`{"match": "log entries 1 to 18.", "json": {"decisions": [], "discussions": [], "attempts": [{"what": "go test ./cmd/...", "result": "failed", "success": false}], "requests": []}}`,
		`{"match": "log entries 19 to 32.", "json": {"decisions": [], "discussions": [], "attempts": [], "requests": [{"intent": "JSON output for show", "target": "show command", "summary": "add --json to show"}]}}`,
	)
	stdout := r.mustRun("extract", "--log", "session.jsonl", "--force", "--model", model, "--json")
	var rep struct {
		After struct {
			Pointer int `json:"pointer"`
		} `json:"after"`
		Runs []struct {
			From, To   int
			Staging    string
			ModelCalls int `json:"model_calls"`
			Splits     int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.After.Pointer != 32 || len(rep.Runs) != 1 || rep.Runs[0].From != 1 || rep.Runs[0].To != 32 || rep.Runs[0].ModelCalls != 3 || rep.Runs[0].Splits != 1 || rep.Runs[0].Staging == "" {
		t.Errorf("report %+v\n%s", rep, stdout)
	}
	s := r.onlyStaging()
	if s.Source.Range != [2]int{1, 32} || len(s.Activity.Attempts) != 1 || len(s.Activity.Requests) != 1 {
		t.Errorf("staging %+v", s)
	}
}

// bigTurn is a Claude Code turn whose tool result is 1 MiB (and repeated
// in toolUseResult, as Claude Code writes it), then a half-written line.
func bigTurn() (turn string, resultBytes int) {
	var out strings.Builder
	for i := 1; out.Len() < 1<<20; i++ {
		fmt.Fprintf(&out, "build step %06d ok\n", i)
	}
	output := out.String()
	common := `"userType":"external","entrypoint":"cli","cwd":"/home/bob/work/app","sessionId":"` + ccSession + `","version":"2.1.222","gitBranch":"main","slug":"soft-inventing-zebra"`
	usage := func(out int) string {
		return fmt.Sprintf(`"usage":{"input_tokens":5,"cache_creation_input_tokens":400,"cache_read_input_tokens":32000,"cache_creation":{"ephemeral_5m_input_tokens":400,"ephemeral_1h_input_tokens":0},"output_tokens":%d,"service_tier":"standard"}`, out)
	}
	quoted, _ := json.Marshal(output)
	lines := []string{
		`{"parentUuid":"a-9","isSidechain":false,"type":"user","uuid":"u-20","timestamp":"2026-08-05T19:50:00.000Z","message":{"role":"user","content":"why is the build slow? read build.log"},` + common + `}`,
		`{"parentUuid":"u-20","isSidechain":false,` + common + `,"type":"assistant","uuid":"a-20","timestamp":"2026-08-05T19:50:01.000Z","requestId":"req_H","message":{"model":"claude-opus-4-5-20251101","id":"msg_H","type":"message","role":"assistant","content":[{"type":"text","text":"Reading the build log."}],"stop_reason":null,"stop_sequence":null,` + usage(1) + `}}`,
		`{"parentUuid":"a-20","isSidechain":false,` + common + `,"type":"assistant","uuid":"a-21","timestamp":"2026-08-05T19:50:01.100Z","requestId":"req_H","message":{"model":"claude-opus-4-5-20251101","id":"msg_H","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_20Bash","name":"Bash","input":{"command":"cat build.log","description":"Read the build log"}}],"stop_reason":"tool_use","stop_sequence":null,` + usage(20) + `}}`,
		`{"parentUuid":"a-21","isSidechain":false,"type":"user","uuid":"u-21","timestamp":"2026-08-05T19:50:02.000Z","message":{"role":"user","content":[{"tool_use_id":"toolu_20Bash","type":"tool_result","content":` + string(quoted) + `,"is_error":false}]},"toolUseResult":{"stdout":` + string(quoted) + `,"stderr":"","interrupted":false},` + common + `}`,
		`{"parentUuid":"u-21","isSidechain":false,` + common + `,"type":"assistant","uuid":"a-22","timestamp":"2026-08-05T19:50:09.000Z","requestId":"req_I","message":{"model":"claude-opus-4-5-20251101","id":"msg_I","type":"message","role":"assistant","content":[{"type":"text","text":"The build runs every step twice; caching step outputs fixes it."}],"stop_reason":"end_turn","stop_sequence":null,` + usage(40) + `}}`,
		`{"parentUuid":"a-22","isSidechain":false,"type":"user","uuid":"u-22","timestamp":"2026-08-05T19:51:00.000Z","message":{"role":"user","content":"HALF-WRITTEN line the agent is still writ`,
	}
	return strings.Join(lines, "\n"), len(output)
}

// apiHelperDir returns a directory holding git-yoimem-llm, the helper
// that makes the Anthropic and OpenAI calls: the copy of this test binary
// that testscript.Main put on PATH when TestMain registers the helper,
// else one built here.
func apiHelperDir(t *testing.T) string {
	t.Helper()
	const helper = "git-yoimem-llm"
	if p, err := exec.LookPath(helper); err == nil {
		exe, err1 := os.Executable()
		a, err2 := os.Stat(p)
		b, err3 := os.Stat(exe)
		if err1 == nil && err2 == nil && err3 == nil && (os.SameFile(a, b) || a.Size() == b.Size()) {
			return filepath.Dir(p)
		}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build " + helper)
	}
	dir := t.TempDir()
	build := exec.Command(goTool, "build", "-o", filepath.Join(dir, helper), "../"+helper)
	build.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", helper, err, out)
	}
	return dir
}

// withPath puts dir first on the repository's PATH.
func (r *extractRepo) withPath(dir string) {
	for i, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			r.env[i] = "PATH=" + dir + string(os.PathListSeparator) + v
			return
		}
	}
	r.env = append(r.env, "PATH="+dir)
}

// fakeModel is a local model API: it records each request and answers
// with the next of its responses.
type fakeModel struct {
	t         *testing.T
	srv       *httptest.Server
	mu        sync.Mutex
	requests  []recorded
	responses []fakeResponse
}

type recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

type fakeResponse struct {
	status int
	body   string
}

func newFakeModel(t *testing.T) *fakeModel {
	f := &fakeModel{t: t}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		f.mu.Lock()
		f.requests = append(f.requests, recorded{req.Method, req.URL.Path, req.Header.Clone(), body})
		var resp fakeResponse
		if len(f.responses) > 0 {
			resp, f.responses = f.responses[0], f.responses[1:]
		} else {
			resp = fakeResponse{400, `{"error": "no response left in the test server"}`}
		}
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After-Ms", "1") // retries at once
		w.WriteHeader(resp.status)
		_, _ = io.WriteString(w, resp.body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) answer(rs ...fakeResponse) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.responses, f.requests = rs, nil
}

func (f *fakeModel) got() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.requests...)
}

// transcriptOf returns the text between the <session-log> markers.
func transcriptOf(t *testing.T, prompt string) string {
	t.Helper()
	_, rest, ok := strings.Cut(prompt, "<session-log>\n")
	transcript, _, ok2 := strings.Cut(rest, "</session-log>")
	if !ok || !ok2 {
		t.Fatalf("no <session-log> markers in the prompt:\n%.2000s", prompt)
	}
	return transcript
}

// checkTranscript checks what the model was shown of the fixture and the
// big turn: the conversation, tool results as short summaries, no injected
// text, not the half-written line.
func checkTranscript(t *testing.T, transcript string, resultBytes int) {
	t.Helper()
	for _, want := range []string{
		"user: add a --json flag to the list command\n",
		"sub-agent assistant: It is in cmd/format.go, func render.\n",
		"--- the agent's context was compacted here ---\n",
		"user: why is the build slow? read build.log\n",
		"assistant called Bash: cat build.log\n",
		fmt.Sprintf("tool result (%d bytes): build step 000001 ok", resultBytes),
		"assistant: The build runs every step twice; caching step outputs fixes it.\n",
	} {
		if !strings.Contains(transcript, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	for _, not := range []string{"build step 010000 ok", "Use make test", "Always run gofmt", "system-reminder", "continued from a previous conversation", "API Error", "HALF-WRITTEN"} {
		if strings.Contains(transcript, not) {
			t.Errorf("the transcript has %q", not)
		}
	}
}

// TestExtractWire: extract's model calls over the real wire formats, to
// local servers (through the helper git-yoimem-llm).
func TestExtractWire(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	helper := apiHelperDir(t)
	t.Run("anthropic", func(t *testing.T) { t.Parallel(); testExtractAnthropicWire(t, helper) })
	t.Run("openai", func(t *testing.T) { t.Parallel(); testExtractOpenAIWire(t, helper) })
}

// testExtractAnthropicWire: extract speaks the Anthropic Messages API to
// yoimem.llm.anthropicBaseURL: the schema as a forced tool, the answer as
// that tool's input; a 500 fails the run without moving anything, and with
// a retry allowed the run goes through.
func testExtractAnthropicWire(t *testing.T, helper string) {
	const key = "sk-ant-test-0123456789"
	r := newExtractRepo(t, "ANTHROPIC_API_KEY="+key)
	r.withPath(helper)
	turn, resultBytes := bigTurn()
	r.appendLog(turn)
	logSize := len(r.read("session.jsonl"))
	f := newFakeModel(t)
	base := []string{"-c", "yoimem.extract.model=anthropic:claude-haiku-4-5", "-c", "yoimem.llm.anthropicBaseURL=" + f.srv.URL}
	serverError := fakeResponse{500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_500"}`}

	// a 500, no retries: exit 2, nothing staged, the pointer stays
	r.mustRun("extract", "--log", "session.jsonl", "--check")
	before := r.read(ccStateFile)
	f.answer(serverError)
	stdout, stderr, code := r.run(append(base, "-c", "yoimem.llm.maxRetries=0", "extract", "--log", "session.jsonl", "--force")...)
	if code != 2 || !strings.Contains(stderr, "extract entries 1-37 of session "+ccSession) {
		t.Errorf("exit %d, want 2 naming entries 1-37\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, key) {
		t.Errorf("the error shows the API key:\n%s", stderr)
	}
	if n := len(f.got()); n != 1 {
		t.Errorf("%d requests, want 1 (no retries)", n)
	}
	r.assertNothingMoved(before)

	// a 500 then the answer, one retry allowed
	activity := `{"decisions":[{"topic":"build caching","options":["cache step outputs","faster machine"],"chosen":"cache step outputs","rationale":"every step runs twice"}],"discussions":[],"attempts":[],"requests":[{"intent":"speed up the build","target":"build","summary":"find why the build is slow"}]}`
	f.answer(serverError, fakeResponse{200, `{"id":"msg_01X","type":"message","role":"assistant","model":"claude-haiku-4-5-20251001",` +
		`"content":[{"type":"tool_use","id":"toolu_01A","name":"session_activity","input":` + activity + `}],` +
		`"stop_reason":"tool_use","stop_sequence":null,` +
		`"usage":{"input_tokens":12,"cache_creation_input_tokens":3000,"cache_read_input_tokens":0,"output_tokens":180}}`})
	stdout = r.mustRun(append(base, "-c", "yoimem.llm.maxRetries=1", "extract", "--log", "session.jsonl", "--force")...)
	if !strings.Contains(stdout, "extracted entries 1-37: 1 decisions, 0 discussions, 0 attempts, 1 requests -> .yoi/memory/_staging/") {
		t.Errorf("stdout:\n%s", stdout)
	}
	s := r.onlyStaging()
	if s.Source.Range != [2]int{1, 37} || len(s.Activity.Decisions) != 1 || s.Activity.Decisions[0]["chosen"] != "cache step outputs" {
		t.Errorf("staging %+v", s)
	}
	if !strings.Contains(r.read(ccStateFile), `"pointer": {
    "index": 37,`) {
		t.Errorf("state:\n%s", r.read(ccStateFile))
	}

	reqs := f.got()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (a 500 and its retry)", len(reqs))
	}
	if !bytes.Equal(reqs[0].Body, reqs[1].Body) {
		t.Error("the retry sent another body")
	}
	got := reqs[1]
	if got.Method != http.MethodPost || got.Path != "/v1/messages" {
		t.Errorf("%s %s, want POST /v1/messages", got.Method, got.Path)
	}
	if got.Header.Get("X-Api-Key") != key && got.Header.Get("Authorization") != "Bearer "+key {
		t.Errorf("the key is not sent: %v", got.Header)
	}
	if got.Header.Get("Anthropic-Version") == "" {
		t.Error("no anthropic-version header")
	}
	if len(got.Body) > 64<<10 || len(got.Body) > logSize/20 {
		t.Errorf("request body %d bytes for a %d-byte log: tool output sent whole?", len(got.Body), logSize)
	}
	var body struct {
		Model      string          `json:"model"`
		MaxTokens  int             `json:"max_tokens"`
		System     json.RawMessage `json:"system"`
		ToolChoice map[string]any  `json:"tool_choice"`
		Tools      []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatalf("request body: %v\n%.2000s", err, got.Body)
	}
	if body.Model != "claude-haiku-4-5" || body.MaxTokens <= 0 {
		t.Errorf("model %q, max_tokens %d", body.Model, body.MaxTokens)
	}
	if body.ToolChoice["type"] != "tool" || body.ToolChoice["name"] != "session_activity" {
		t.Errorf("tool_choice %v: the schema tool is not forced", body.ToolChoice)
	}
	if len(body.Tools) != 1 || body.Tools[0].Name != "session_activity" || !strings.Contains(string(body.Tools[0].InputSchema), `"decisions"`) {
		t.Errorf("tools %s", got.Body[:min(len(got.Body), 2000)])
	}
	if !strings.Contains(string(body.System), "coding agent's session") {
		t.Errorf("system %s", body.System)
	}
	if len(body.Messages) != 1 || body.Messages[0].Role != "user" || len(body.Messages[0].Content) == 0 {
		t.Fatalf("messages %+v", body.Messages)
	}
	prompt := body.Messages[0].Content[0].Text
	if !strings.Contains(prompt, "Session "+ccSession+", log entries 1 to 37.") {
		t.Errorf("the prompt does not name the session and range:\n%.500s", prompt)
	}
	checkTranscript(t, transcriptOf(t, prompt), resultBytes)
}

// testExtractOpenAIWire: the same over an OpenAI-compatible Chat
// Completions API at yoimem.llm.openaiBaseURL, with response_format
// json_schema.
func testExtractOpenAIWire(t *testing.T, helper string) {
	const key = "sk-openai-test-0123456789"
	r := newExtractRepo(t, "OPENAI_API_KEY="+key)
	r.withPath(helper)
	turn, resultBytes := bigTurn()
	r.appendLog(turn)
	logSize := len(r.read("session.jsonl"))
	f := newFakeModel(t)
	base := []string{"-c", "yoimem.extract.model=openai:gpt-test", "-c", "yoimem.llm.openaiBaseURL=" + f.srv.URL + "/v1"}
	serverError := fakeResponse{500, `{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}`}

	r.mustRun("extract", "--log", "session.jsonl", "--check")
	before := r.read(ccStateFile)
	f.answer(serverError)
	stdout, stderr, code := r.run(append(base, "-c", "yoimem.llm.maxRetries=0", "extract", "--log", "session.jsonl", "--force")...)
	if code != 2 || !strings.Contains(stderr, "extract entries 1-37 of session "+ccSession) || strings.Contains(stderr, key) {
		t.Errorf("exit %d, want 2 naming entries 1-37 (and no key)\n%s%s", code, stdout, stderr)
	}
	r.assertNothingMoved(before)

	content, _ := json.Marshal(goodActivity)
	f.answer(serverError, fakeResponse{200, `{"id":"chatcmpl-1","object":"chat.completion","created":1767322800,"model":"gpt-test-2026",` +
		`"choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":{"role":"assistant","content":` + string(content) + `,"refusal":null}}],` +
		`"usage":{"prompt_tokens":4200,"completion_tokens":160,"total_tokens":4360,"prompt_tokens_details":{"cached_tokens":4000},"completion_tokens_details":{"reasoning_tokens":0}}}`})
	stdout = r.mustRun(append(base, "-c", "yoimem.llm.maxRetries=1", "extract", "--log", "session.jsonl", "--force")...)
	if !strings.Contains(stdout, "extracted entries 1-37: 1 decisions, 0 discussions, 1 attempts, 1 requests -> .yoi/memory/_staging/") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if s := r.onlyStaging(); s.Source.Range != [2]int{1, 37} {
		t.Errorf("staging %+v", s)
	}

	reqs := f.got()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (a 500 and its retry)", len(reqs))
	}
	got := reqs[1]
	if got.Method != http.MethodPost || got.Path != "/v1/chat/completions" {
		t.Errorf("%s %s, want POST /v1/chat/completions", got.Method, got.Path)
	}
	if got.Header.Get("Authorization") != "Bearer "+key {
		t.Errorf("Authorization %q", got.Header.Get("Authorization"))
	}
	if len(got.Body) > 64<<10 || len(got.Body) > logSize/20 {
		t.Errorf("request body %d bytes for a %d-byte log: tool output sent whole?", len(got.Body), logSize)
	}
	var body struct {
		Model          string `json:"model"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string          `json:"name"`
				Strict bool            `json:"strict"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []any `json:"tools"`
	}
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatalf("request body: %v\n%.2000s", err, got.Body)
	}
	rf := body.ResponseFormat
	if body.Model != "gpt-test" || rf.Type != "json_schema" || rf.JSONSchema.Name != "session_activity" || !rf.JSONSchema.Strict || !strings.Contains(string(rf.JSONSchema.Schema), `"decisions"`) {
		t.Errorf("model %q, response_format %+v", body.Model, rf)
	}
	if len(body.Tools) != 0 {
		t.Errorf("tools sent: %v", body.Tools)
	}
	var system, user string
	for _, m := range body.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) != nil { // or content parts
			var parts []struct{ Text string }
			_ = json.Unmarshal(m.Content, &parts)
			for _, p := range parts {
				text += p.Text
			}
		}
		switch m.Role {
		case "system", "developer":
			system += text
		case "user":
			user += text
		}
	}
	if !strings.Contains(system, "coding agent's session") {
		t.Errorf("system prompt %q", system)
	}
	if !strings.Contains(user, "log entries 1 to 37.") {
		t.Errorf("the prompt does not name the range:\n%.500s", user)
	}
	checkTranscript(t, transcriptOf(t, user), resultBytes)
}

// gateModel writes a command model that records its pid and the prompt,
// then waits until the file "release" exists and prints a good answer. It
// returns the model string and the pid file.
func (r *extractRepo) gateModel() (model, pidFile string) {
	r.t.Helper()
	pidFile = r.path("model.pid")
	r.write("answer.json", goodActivity+"\n")
	r.write("gate.sh", `cat > prompt.txt
echo $$ > model.pid.tmp && mv model.pid.tmp model.pid
while [ ! -f release ]; do sleep 0.02; done
cat answer.json
`)
	return "command:sh " + r.path("gate.sh"), pidFile
}

// waitFor polls for a file, up to a generous 30 s.
func waitFor(t *testing.T, path string, exited <-chan struct{}) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case <-exited:
			t.Fatalf("git-yoimem ended before %s appeared", path)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear in 30s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startBlocked starts an extract whose model blocks on the gate, and waits
// until it is in the model call. It returns the process, a channel closed
// when it has exited, and the model's pid.
func (r *extractRepo) startBlocked(stdout, stderr io.Writer) (*exec.Cmd, <-chan struct{}, int) {
	r.t.Helper()
	model, pidFile := r.gateModel()
	cmd := r.command("extract", "--log", "session.jsonl", "--force", "--model", model)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	r.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	waitFor(r.t, pidFile, exited)
	var pid int
	if _, err := fmt.Sscan(r.read("model.pid"), &pid); err != nil || pid <= 1 {
		r.t.Fatalf("model pid %q: %v", r.read("model.pid"), err)
	}
	r.t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // the model, if still there
	return cmd, exited, pid
}

// TestExtractKilledMidRun: a run killed while the model works leaves no
// staging file (nor a temporary one) and the pointer where it was; the
// next run takes the lock the dead one held and covers the same range.
func TestExtractKilledMidRun(t *testing.T) {
	t.Parallel()
	r := newExtractRepo(t)
	r.mustRun("extract", "--log", "session.jsonl", "--check")
	before := r.read(ccStateFile)
	logBefore := r.read("session.jsonl")

	cmd, exited, modelPID := r.startBlocked(io.Discard, io.Discard)
	if _, err := os.Stat(r.path(filepath.Join(".git", "yoimem", "extract", "claude-code-"+ccSession+"-session.lock"))); err != nil {
		t.Errorf("no lock file while a run is in flight: %v", err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	_ = syscall.Kill(modelPID, syscall.SIGKILL)

	r.assertNothingMoved(before)
	if r.read("session.jsonl") != logBefore {
		t.Error("the killed run changed the log")
	}
	stdout := r.mustRun("extract", "--log", "session.jsonl", "--force", "--model", r.replay("good.json", `{"match": "log entries 1 to 32.", "json": `+goodActivity+`}`))
	if !strings.Contains(stdout, "extracted entries 1-32: ") {
		t.Errorf("the run after the kill:\n%s", stdout)
	}
	if s := r.onlyStaging(); s.Source.Range != [2]int{1, 32} {
		t.Errorf("range %v", s.Source.Range)
	}
}

// TestExtractInFlight: while a run is in the model call, a second one
// (even forced) is skipped at once and writes nothing; a check says a run
// is in flight. The first then ends normally.
func TestExtractInFlight(t *testing.T) {
	t.Parallel()
	r := newExtractRepo(t)
	r.mustRun("extract", "--log", "session.jsonl", "--check")
	var firstOut, firstErr bytes.Buffer
	_, exited, _ := r.startBlocked(&firstOut, &firstErr)
	state := r.read(ccStateFile)
	ledger := r.read(filepath.Join(".git", "yoimem", "ledger.jsonl"))
	r.appendLog(`{"parentUuid":"a-9","isSidechain":false,"type":"user","uuid":"u-30","timestamp":"2026-08-05T19:59:00.000Z","message":{"role":"user","content":"one more thing"},"sessionId":"` + ccSession + `"}` + "\n")

	// A run that waited for the first would never end: run fails the test
	// past its generous bound. How fast it skips is not asserted.
	stdout, stderr, code := r.run("extract", "--log", "session.jsonl", "--force", "--model", r.replay("none.json"))
	if code != 0 || !strings.Contains(stderr, "extract is already running for session "+ccSession+"; skipped") || strings.Contains(stdout, "extracted") {
		t.Errorf("second run: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code = r.run("extract", "--log", "session.jsonl", "--check", "--json")
	if code != 0 || !strings.Contains(stdout, `"in_flight": true`) {
		t.Errorf("check while in flight: exit %d\n%s", code, stdout)
	}
	if r.read(ccStateFile) != state || r.read(filepath.Join(".git", "yoimem", "ledger.jsonl")) != ledger || len(r.staged()) != 0 {
		t.Error("a skipped run wrote something")
	}

	r.write("release", "")
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("the first run did not end")
	}
	if !strings.Contains(firstOut.String(), "extracted entries 1-32: ") {
		t.Errorf("first run:\n%s%s", firstOut.String(), firstErr.String())
	}
	if !strings.Contains(r.read("prompt.txt"), "log entries 1 to 32.") {
		t.Error("the model did not get entries 1-32")
	}
	// the line appended meanwhile is the next run's
	stdout = r.mustRun("extract", "--log", "session.jsonl", "--force", "--model", r.replay("next.json", `{"match": "log entries 33 to 33.", "json": {"decisions": [], "discussions": [], "attempts": [], "requests": []}}`))
	if !strings.Contains(stdout, "extracted entries 33-33: nothing to save") {
		t.Errorf("next run:\n%s", stdout)
	}
}

// TestExtractModelTimeout: yoimem.llm.timeoutSeconds bounds the model call;
// a command model that does not answer in time is killed, and nothing
// moves.
func TestExtractModelTimeout(t *testing.T) {
	t.Parallel()
	r := newExtractRepo(t)
	r.mustRun("extract", "--log", "session.jsonl", "--check")
	before := r.read(ccStateFile)
	model, pidFile := r.gateModel()
	// The gate never answers: a timeout not kept fails the test at run's
	// generous bound. How fast the timeout fires is not asserted.
	stdout, stderr, code := r.run("-c", "yoimem.llm.timeoutSeconds=1", "extract", "--log", "session.jsonl", "--force", "--model", model)
	if code != 2 || !strings.Contains(stderr, "extract entries 1-32 of session "+ccSession) {
		t.Errorf("exit %d, want 2 naming entries 1-32\n%s%s", code, stdout, stderr)
	}
	r.assertNothingMoved(before)
	// On a loaded machine the timeout can fire before the gate has even
	// written its pid: then it must never write it (it was killed).
	// Either way no process of the gate may be alive.
	if _, err := os.Stat(pidFile); err != nil {
		time.Sleep(2 * time.Second)
		if _, err := os.Stat(pidFile); err != nil {
			return // killed before it wrote its pid
		}
	}
	var pid int
	if _, err := fmt.Sscan(r.read("model.pid"), &pid); err == nil {
		if err := syscall.Kill(pid, 0); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the model process %d outlived the timeout", pid)
		}
	} else {
		t.Errorf("model pid: %v (%s)", err, pidFile)
	}
}
