package agent

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/memory"
)

const backoffDecision = "---\nstatus: resolved\n---\n# Checkout retries: backoff\n\nExponential backoff from 200ms with full jitter, capped at 2s; attempts from CHECKOUT_RETRIES (default 2). The payment sandbox rate-limits bursts.\n"

// run runs the engine over a fresh sample session against a scripted
// model on wire.
func run(t *testing.T, wire string, e Engine, mutate func(*consolidate.Input), steps ...step) (*consolidate.Session, *scripted, error) {
	t.Helper()
	srv := newScripted(t, wire, steps...)
	s := newSession(t, sampleInput(t, mutate))
	if e.Provider == nil {
		e.Provider = srv.provider(t, llm.Options{})
	}
	e.ModelName = wire + ":test-model"
	return s, srv, e.Run(quick(t), s)
}

// TestLinterRefusalCorrected: a write the linter refuses comes back as a
// tool error naming the finding; the model corrects it and it lands,
// with its sources attached by code.
func TestLinterRefusalCorrected(t *testing.T) {
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			bad := strings.Replace(backoffDecision, "status: resolved", "status: maybe", 1)
			s, _, err := run(t, wire, Engine{}, nil,
				func(t *testing.T, got []seen) reply {
					expect(t, got)
					return calls(call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/checkout-retry-backoff.md"), Content: bad, Reason: "decided in the tinyshop session", StagingIDs: []string{"e1"}})})
				},
				func(t *testing.T, got []seen) reply {
					expect(t, got, "ERR:the linter refuses it")
					expect(t, got, "ERR:status-enum")
					return calls(call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/checkout-retry-backoff.md"), Content: backoffDecision, Reason: "decided in the tinyshop session", StagingIDs: []string{"e1"}})})
				},
				func(t *testing.T, got []seen) reply {
					expect(t, got, "Done: add .yoi/memory/decisions/checkout-retry-backoff.md; sources from e1 attached.")
					return calls(call{ToolReport, js(ReportInput{Summary: "Recorded the checkout retry decision."})})
				})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Snapshot().Read("memory/decisions/checkout-retry-backoff.md")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"status: resolved", "{session_id: 5f0c2e1a-8d7b-4c3e-9a61-2b7d4e9f0c11, range: [2, 17]}", "created_at: 2026-12-01T09:00:00Z"} {
				if !strings.Contains(string(got), want) {
					t.Errorf("the record lacks %q:\n%s", want, got)
				}
			}
			if ops := s.Ops(); len(ops) != 1 || ops[0].Kind != memlog.OpAdd {
				t.Errorf("ops %+v", ops)
			}
		})
	}
}

// TestRefusalsAreToolErrors: what the principles forbid is refused as a
// tool error the model sees, whatever it asks, and nothing changes.
func TestRefusalsAreToolErrors(t *testing.T) {
	decision := "---\nstatus: resolved\n---\n# Something\nText.\n"
	knowledge := "---\nkind: rule\ndescription: Retries\nmodel_invokation: false\nuser_invocable: true\n---\n# Retries\nRetry twice.\n"
	summaryBody := "Go HTTP service; SQLite for storage (see #sqlite-pragmas). Run `make test`\nbefore every commit. Payments go through the sandbox in development."
	tests := []struct {
		c    call
		want string
	}{
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/config"), Content: decision, Reason: "r", StagingIDs: []string{"e1"}})}, "is not a record"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at("../outside.md"), Content: decision, Reason: "r", StagingIDs: []string{"e1"}})}, "leaves .yoi/"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/workflow/deploy.md"), Content: decision, Reason: "r", StagingIDs: []string{"e1"}})}, "never writes under .yoi/workflow/"},
		{call{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/decisions/use-sqlite.md"), Old: "WAL mode covers our write rate.", New: "WAL mode.", Reason: "r"})}, "is locked"},
		{call{ToolMemoryDelete, js(DeleteInput{PathInput: at(".yoi/knowledge/sqlite-pragmas.md"), Categories: []string{"unused"}, Reason: "r"})}, "is protected"},
		{call{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/summary.md"), Old: summaryBody, New: "", Operation: "trim", Categories: []string{"noisy"}, Reason: "shorter"})}, "never heavily compressed"},
		{call{ToolMemoryDelete, js(DeleteInput{PathInput: at(".yoi/memory/decisions/json-logs.md"), Categories: []string{"superseded"}, Reason: "r"})}, "decisions are never deleted"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Operation: "rewrite", Content: "---\n---\n# Retry failed checkouts\nRetry twice, never a declined card.\n", Reason: "r"})}, "needs one or more categories"},
		{call{ToolMemoryDelete, js(DeleteInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Reason: "r"})}, "needs one or more categories"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/knowledge/checkout-retries.md"), Content: knowledge, Reason: "r", DerivedFrom: []string{".yoi/memory/decisions/structured-logging.md"}})}, "not in the knowledge-candidate report"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/knowledge/checkout-retries.md"), Content: knowledge, Reason: "r", StagingIDs: []string{"e1"}})}, "comes only from records of the knowledge-candidate report"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/structured-logging.md"), Operation: "split", Target: ".yoi/knowledge/slog-levels.md", Content: knowledge, Rest: "---\nstatus: open\n---\n# Structured logging with log/slog\n\nOpen: whether request IDs go in every line. Leaning yes; see #request-ids.\n", Categories: []string{"noisy"}, Reason: "r"})}, "not in the knowledge-candidate report"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/something.md"), Content: decision, Reason: "r"})}, "needs the staging entries"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/something.md"), Content: decision, Reason: "r", StagingIDs: []string{"e9"}})}, `no staging entry "e9": this run's only entry is e1`},
		{call{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/decisions/structured-logging.md"), Old: "status: open", New: "status: replaced\nreplaced_by: json-logs", Reason: "r"})}, "operation replace"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/something.md"), Content: decision, StagingIDs: []string{"e1"}})}, "give a reason"},
		{call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Operation: "drop", Reason: "r"})}, "drop a record with memory_delete"},
		{call{"shell", `{"cmd":"rm -rf .yoi"}`}, "no such tool"},
		{call{ToolMemoryRead, `{"path":".yoi/memory/summary.md","blob":"x"}`}, `unknown field "blob"`},
		{call{ToolMemoryRead, `"just a string"`}, "the input is a JSON string, not an object of the fields path"},
		{call{ToolMemoryWrite, `{"path":"memory/requests/x.md","reason":"r","staging_ids":"e1"}`}, "field staging_ids is a JSON string, want an array"},
		{call{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/workflow/deploy.md")})}, "is not a record"},
	}
	var batch []call
	var want []string
	for _, tt := range tests {
		batch = append(batch, tt.c)
		want = append(want, "ERR:"+tt.want)
	}
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			s, _, err := run(t, wire, Engine{}, nil,
				func(t *testing.T, got []seen) reply { return calls(batch...) },
				func(t *testing.T, got []seen) reply {
					expect(t, got, want...)
					return calls(call{ToolReport, js(ReportInput{Summary: "Nothing to change."})})
				})
			if err != nil {
				t.Fatal(err)
			}
			if s.Changes().Len() != 0 || len(s.Ops()) != 0 {
				t.Errorf("refused calls changed the session: %+v", s.Ops())
			}
		})
	}
}

// TestTypedSourcesNeverLand: a model that types sources into what it
// writes, under any of the source keys and whatever the record's kind,
// gets code's sources only: the staging entries' for a decision, the
// candidate's for knowledge, and the summary's own range as it was.
func TestTypedSourcesNeverLand(t *testing.T) {
	forged := "sources:\n  - {session_id: forged, range: [1, 2]}\nlast_sources:\n  - {session_id: forged, range: [3, 4]}\nlast_rewritten_from_range: {session_id: forged, range: [5, 6]}\n"
	knowledge := "---\nkind: rule\ndescription: Checkout retries\nmodel_invokation: false\nuser_invocable: true\n" + forged + "---\n# Checkout retries\nRetry timeouts and 5xx twice; never a declined card.\n"
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			s, _, err := run(t, wire, Engine{}, nil,
				func(t *testing.T, got []seen) reply {
					return calls(
						call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/checkout-retry-backoff.md"), Content: strings.Replace(backoffDecision, "status: resolved\n", "status: resolved\n"+forged, 1), Reason: "decided", StagingIDs: []string{"e1"}})},
						call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/knowledge/checkout-retries.md"), Content: knowledge, Reason: "asked again and again", DerivedFrom: []string{".yoi/memory/requests/checkout-retries.md"}})},
						call{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/summary.md"), Old: "updated_at: 2026-01-02T03:04:05Z\n", New: "updated_at: 2026-01-02T03:04:05Z\n" + forged, Reason: "where the summary comes from"})},
					)
				},
				func(t *testing.T, got []seen) reply {
					expect(t, got, "Done: add", "Done: add", "ERR:changes nothing")
					return calls(call{ToolReport, js(ReportInput{Summary: "Recorded the backoff decision and the retry rule."})})
				})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"memory/decisions/checkout-retry-backoff.md", "knowledge/checkout-retries.md", "memory/summary.md"} {
				b, err := s.Snapshot().Read(p)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(b), "forged") || strings.Contains(string(b), "last_rewritten_from_range") {
					t.Errorf("%s has a source the model typed:\n%s", p, b)
				}
			}
		})
	}
}

// TestTurnLimit: a model that keeps working past the turn limit, or
// never calls report, ends the run with ErrNoReport.
func TestTurnLimit(t *testing.T) {
	search := func(t *testing.T, got []seen) reply {
		return calls(call{ToolMemorySearch, js(memory.SearchInput{Query: "retry"})})
	}
	chat := func(t *testing.T, got []seen) reply { return reply{text: "All done, I think."} }
	for _, wire := range wires {
		t.Run(wire+"/busy", func(t *testing.T) {
			_, srv, err := run(t, wire, Engine{MaxTurns: 3}, nil, search, search, search)
			if !errors.Is(err, ErrNoReport) || !strings.Contains(err.Error(), "within 3 turns (yoimem.consolidate.maxTurns)") {
				t.Fatalf("Run = %v", err)
			}
			if n := srv.requests(); n != 3 {
				t.Errorf("%d model calls, want 3", n)
			}
		})
		t.Run(wire+"/never reports", func(t *testing.T) {
			_, srv, err := run(t, wire, Engine{MaxTurns: 2}, nil, chat, chat)
			if !errors.Is(err, ErrNoReport) {
				t.Fatalf("Run = %v", err)
			}
			if !strings.Contains(string(srv.bodies[1]), "call report") {
				t.Errorf("the second request does not ask for report: %s", srv.bodies[1])
			}
		})
	}
}

// TestModelFailures: a server error or a timeout ends the run with the
// provider's error, after the changes already made (the caller commits
// nothing).
func TestModelFailures(t *testing.T) {
	write := func(t *testing.T, got []seen) reply {
		return calls(call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/checkout-retry-backoff.md"), Content: backoffDecision, Reason: "r", StagingIDs: []string{"e1"}})})
	}
	for _, wire := range wires {
		t.Run(wire+"/500", func(t *testing.T) {
			_, _, err := run(t, wire, Engine{}, nil, write, func(*testing.T, []seen) reply { return reply{status: 500} })
			if !errors.Is(err, llm.ErrServer) || !strings.Contains(err.Error(), "turn 2 of 40") {
				t.Fatalf("Run = %v", err)
			}
		})
		t.Run(wire+"/timeout", func(t *testing.T) {
			srv := newScripted(t, wire, write, func(*testing.T, []seen) reply { return reply{stall: true} })
			s := newSession(t, sampleInput(t, nil))
			e := Engine{Provider: srv.provider(t, llm.Options{Timeout: 300 * time.Millisecond})}
			if err := e.Run(quick(t), s); !errors.Is(err, llm.ErrTimeout) {
				t.Fatalf("Run = %v", err)
			}
		})
	}
}

// TestReportNeedsEveryEntry: an entry the first message cut short must be
// read before the run may end.
func TestReportNeedsEveryEntry(t *testing.T) {
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			e := Engine{Brief: BriefOptions{BudgetChars: MinBudgetChars, EntryChars: 600}}
			_, _, err := run(t, wire, e, nil,
				reportStep("done"),
				func(t *testing.T, got []seen) reply {
					expect(t, got, "ERR:you have not read e1 whole")
					return calls(call{ToolMemoryRead, js(ReadInput{PathInput: at("e1")})})
				},
				func(t *testing.T, got []seen) reply {
					expect(t, got, "retrying the inventory reservation")
					return calls(call{ToolReport, js(ReportInput{Summary: "Nothing new."})})
				})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestProgress: each turn, each tool call and the report are told.
func TestProgress(t *testing.T) {
	var events []string
	e := Engine{MaxTurns: 5, Progress: func(ev Event) {
		switch ev.Kind {
		case EventTurn:
			events = append(events, "turn "+strconv.Itoa(ev.Turn)+" of "+strconv.Itoa(ev.MaxTurns))
		case EventTool:
			s := strings.TrimSpace(ev.Tool + " " + ev.Target)
			if ev.Refused {
				s += " (refused)"
			}
			events = append(events, s)
		case EventReport:
			events = append(events, "report: "+ev.Summary)
		}
	}}
	_, _, err := run(t, "anthropic", e, nil,
		func(*testing.T, []seen) reply {
			return calls(call{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/memory/summary.md")})}, call{ToolMemoryRead, js(ReadInput{PathInput: at("e1")})}, call{ToolMemoryDelete, js(DeleteInput{PathInput: at(".yoi/memory/decisions/json-logs.md"), Categories: []string{"superseded"}, Reason: "r"})})
		},
		reportStep("nothing"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(events, "; ")
	if want := "turn 1 of 5; memory_read .yoi/memory/summary.md; memory_read e1; memory_delete .yoi/memory/decisions/json-logs.md (refused); turn 2 of 5; report; report: nothing"; got != want {
		t.Errorf("events:\n%s\nwant\n%s", got, want)
	}
}

// TestEntryTooLarge: an entry no tool result could hold stops the run
// before the model is called.
func TestEntryTooLarge(t *testing.T) {
	_, srv, err := run(t, "openai", Engine{Brief: BriefOptions{BudgetChars: MinBudgetChars}}, func(in *consolidate.Input) {
		in.Entries[0].Activity.Attempts[0].Result = strings.Repeat("flaky ", 2000)
	})
	if err == nil || !strings.Contains(err.Error(), "over the limit of 8,000 for one tool result (yoimem.consolidate.budgetChars)") {
		t.Fatalf("Run = %v", err)
	}
	if srv.requests() != 0 {
		t.Errorf("the model was called")
	}
}

// TestNoSDK: the engine reaches models only through package llm (the
// SDKs, and the MCP SDK, stay out of git-yoimem), and it cannot record
// usage: its reads are upkeep (usage is recorded through metrics and
// workspace, which it does not import).
func TestNoSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/anthropics/", "github.com/openai/", "github.com/modelcontextprotocol/", "github.com/yoimem/git-yoimem/llm/apis", "github.com/yoimem/git-yoimem/workspace"} {
			if strings.HasPrefix(dep, bad) {
				t.Errorf("consolidate/agent depends on %s", dep)
			}
		}
	}
	// The consolidate core reads metrics to judge usage; the engine itself
	// does not import it, so nothing it does is recorded as a use.
	out, err = exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if imp == "github.com/yoimem/git-yoimem/metrics" {
			t.Errorf("consolidate/agent imports %s", imp)
		}
	}
}

// TestInterrupted: a run whose context ends (an interrupt) stops with
// the context's error, and the change the model asked for after it is
// not applied.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(quick(t))
	srv := newScripted(t, "anthropic", func(*testing.T, []seen) reply {
		cancel()
		return calls(call{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/checkout-retry-backoff.md"), Content: backoffDecision, Reason: "r", StagingIDs: []string{"e1"}})})
	})
	s := newSession(t, sampleInput(t, nil))
	err := (&Engine{Provider: srv.provider(t, llm.Options{})}).Run(ctx, s)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
	if s.Changes().Len() != 0 {
		t.Error("a change was applied after the interrupt")
	}
}

// Engine is an engine of the consolidation run, as a value or a pointer.
var _, _ interface {
	Name() string
	Model() string
	Run(context.Context, *consolidate.Session) error
} = Engine{}, &Engine{}

// TestCallsPerTurn: a turn runs at most MaxCallsPerTurn tool calls; the
// others are answered as not run, and the model may make them again.
func TestCallsPerTurn(t *testing.T) {
	var many []call
	for range MaxCallsPerTurn + 3 {
		many = append(many, call{ToolMemoryRead, js(ReadInput{PathInput: at("memory/summary.md")})})
	}
	_, _, err := run(t, "openai", Engine{}, nil,
		func(*testing.T, []seen) reply { return calls(many...) },
		func(t *testing.T, got []seen) reply {
			if len(got) != len(many) {
				t.Fatalf("%d results for %d calls", len(got), len(many))
			}
			for i, g := range got {
				if notRun := strings.Contains(g.content, "not run: at most"); notRun != (i >= MaxCallsPerTurn) || notRun != g.isError {
					t.Errorf("call %d: %v %q", i+1, g.isError, g.content)
				}
			}
			return calls(call{ToolReport, js(ReportInput{Summary: "read"})})
		})
	if err != nil {
		t.Fatal(err)
	}
}
