package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// TestEvalLiveModel: `eval --model anthropic:…` scores the llm engine
// against a live model over the Anthropic wire format (a local server
// here), counts its tokens, and with --record writes the scenario's
// recorded answers, which then replay offline to the same score.
func TestEvalLiveModel(t *testing.T) {
	t.Parallel()
	const key = "sk-ant-test-0123456789"
	helper := apiHelperDir(t)
	f := newFakeModel(t)
	r := newExtractRepo(t, "ANTHROPIC_API_KEY="+key, "ANTHROPIC_BASE_URL="+f.srv.URL)
	r.withPath(helper)

	const name = "same-decision-three-sessions"
	scenarios := t.TempDir()
	if err := fixture.CopyDir(filepath.Join("..", "..", "testdata", "scenarios", name), filepath.Join(scenarios, name)); err != nil {
		t.Fatal(err)
	}
	recorded := filepath.Join(scenarios, name, "llm.replay.json")
	answers := anthropicAnswers(t, recorded)
	if err := os.Remove(recorded); err != nil {
		t.Fatal(err)
	}
	f.answer(answers...)

	transcripts := t.TempDir()
	stdout := r.mustRun("eval", "--engine", "llm", "--model", "anthropic:claude-test", "--scenarios", scenarios,
		"--record", "--transcripts", transcripts, "--format", "json")
	live := evalScore(t, stdout)
	if live.Tally.Passed != live.Tally.Total || live.Tally.Total == 0 || live.Error != "" {
		t.Fatalf("live run: %+v", live)
	}
	if n := len(f.got()); n != len(answers) {
		t.Errorf("%d requests to the model, want %d", n, len(answers))
	}
	if live.InputTokens != 2001 || live.OutputTokens != 101 || live.Turns != 2 {
		t.Errorf("tokens %d/%d, turns %d; want 2001/101 over 2 turns", live.InputTokens, live.OutputTokens, live.Turns)
	}
	replay, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatalf("--record wrote no answers: %v", err)
	}
	text, err := os.ReadFile(filepath.Join(transcripts, name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(replay)+string(text), key) {
		t.Error("the API key is in the recording or the transcript")
	}

	f.answer() // the replay must not ask the model
	again := evalScore(t, r.mustRun("eval", "--engine", "llm", "--scenarios", scenarios, "--format", "json"))
	if again.Tally != live.Tally || len(f.got()) != 0 {
		t.Errorf("replayed: %+v, %d requests; want %+v and none", again.Tally, len(f.got()), live.Tally)
	}
}

// evalScore is the one scenario of eval's JSON output.
func evalScore(t *testing.T, stdout string) struct {
	Error        string `json:"error"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	Turns        int    `json:"turns"`
	Tally        struct{ Passed, Total int }
} {
	t.Helper()
	var rep struct {
		Scenarios []struct {
			Error        string `json:"error"`
			InputTokens  int64  `json:"input_tokens"`
			OutputTokens int64  `json:"output_tokens"`
			Turns        int    `json:"turns"`
			Tally        struct{ Passed, Total int }
		} `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Scenarios) != 1 {
		t.Fatalf("eval --format json: %v\n%s", err, stdout)
	}
	return rep.Scenarios[0]
}

// anthropicAnswers turns a replay file's answers into Messages API
// responses, with usage: 1000 input and 50 output tokens, plus one of
// each on the last.
func anthropicAnswers(t *testing.T, replayFile string) []fakeResponse {
	t.Helper()
	data, err := os.ReadFile(replayFile)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Responses []struct {
			Text      string `json:"text"`
			ToolCalls []struct {
				ID    string          `json:"id"`
				Name  string          `json:"name"`
				Input json.RawMessage `json:"input"`
			} `json:"tool_calls"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var out []fakeResponse
	for i, r := range f.Responses {
		var content []any
		if r.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": r.Text})
		}
		for _, c := range r.ToolCalls {
			content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": c.Input})
		}
		in, outTok := 1000, 50
		if i == len(f.Responses)-1 {
			in, outTok = in+1, outTok+1
		}
		body, err := json.Marshal(map[string]any{
			"id": fmt.Sprintf("msg_%02d", i), "type": "message", "role": "assistant", "model": "claude-test",
			"content": content, "stop_reason": "tool_use", "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": in, "output_tokens": outTok},
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fakeResponse{200, string(body)})
	}
	return out
}
