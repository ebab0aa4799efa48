package apis

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/llm"
)

// wireCall is a request to send and the fake API's answer to it.
type wireCall struct {
	req  llm.Request
	step http.HandlerFunc
}

// conversation is a recorded conversation over one wire: tool calls (one
// with an input that is not compact JSON, one not JSON at all), text, a
// structured reply, a rate limit, and a server that echoes the key.
func conversation(t *testing.T, wire string) []wireCall {
	tools := userRequest("Consolidation run 019ad5e1, 2026-12-01.")
	tools.Tools = []llm.Tool{recallTool()}
	var first, text, structured, limited, auth http.HandlerFunc
	switch wire {
	case "anthropic":
		first = respond(200, anthropicBody(t, "tool_use", textBlock("Looking."), toolUse("toolu_01", "recall", `{"query": "retry <b>"}`), toolUse("toolu_02", "recall", `{}`)))
		text = respond(200, anthropicBody(t, "end_turn", textBlock("Done.\nNothing else.")))
		structured = respond(200, anthropicBody(t, "tool_use", toolUse("toolu_09", "memories", `{"memories": ["café"]}`)))
		limited = respond(429, anthropicError("rate_limit_error", "slow down"))
		auth = func(w http.ResponseWriter, r *http.Request) {
			respond(401, anthropicError("authentication_error", "bad key "+r.Header.Get("X-Api-Key")))(w, r)
		}
	case "openai":
		first = respond(200, openAIBody(t, "tool_calls", map[string]any{"content": "Looking.", "tool_calls": []any{
			openAIToolCall("call_01", "recall", `{"query": "retry <b>"}`), openAIToolCall("call_02", "recall", `{"query":`),
		}}))
		text = respond(200, openAIBody(t, "stop", map[string]any{"content": "Done.\nNothing else."}))
		structured = respond(200, openAIBody(t, "stop", map[string]any{"content": "{ \"memories\": [\"café\"] }"}))
		limited = openAIError(429, "rate_limit_exceeded", "slow down")
		auth = func(w http.ResponseWriter, r *http.Request) {
			openAIError(401, "invalid_api_key", "bad key "+r.Header.Get("Authorization"))(w, r)
		}
	}
	ids := map[string][2]string{"anthropic": {"toolu_01", "toolu_02"}, "openai": {"call_01", "call_02"}}[wire]
	answered := tools
	answered.Messages = append(append([]llm.Message(nil), tools.Messages...),
		llm.Message{Role: llm.RoleAssistant, Text: "Looking.", ToolCalls: []llm.ToolCall{{ID: ids[0], Name: "recall", Input: []byte(`{"query": "retry <b>"}`)}, {ID: ids[1], Name: "recall", Input: []byte(`{}`)}}},
		llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{CallID: ids[0], Content: "retry.md"}, {CallID: ids[1], Content: "no query", IsError: true}}})
	schema := userRequest("Session 5f0c, log entries 2 to 17.")
	schema.Schema = memorySchema()
	return []wireCall{{tools, first}, {answered, text}, {schema, structured}, {userRequest("again"), limited}, {userRequest("once more"), auth}}
}

// TestRecorderWire records a conversation over each real wire format
// against the fake API, replays the file, and compares the answers; the
// key is in neither the file nor the transcript.
func TestRecorderWire(t *testing.T) {
	for _, wire := range []string{"anthropic", "openai"} {
		t.Run(wire, func(t *testing.T) {
			calls := conversation(t, wire)
			var steps []http.HandlerFunc
			for _, c := range calls {
				steps = append(steps, c.step)
			}
			f := newFakeAPI(t, steps...)
			var p llm.Provider
			if wire == "anthropic" {
				p = openAnthropic(t, f, llm.Options{})
			} else {
				p = openOpenAI(t, f, llm.Options{})
			}
			rec := llm.NewRecorder(p)
			type answer struct {
				resp llm.Response
				err  error
			}
			var recorded []answer
			for _, c := range calls {
				resp, err := rec.Call(quick(t), c.req)
				recorded = append(recorded, answer{resp, err})
			}
			if recorded[0].err != nil || len(recorded[0].resp.ToolCalls) != 2 || recorded[2].err != nil || len(recorded[2].resp.JSON) == 0 {
				t.Fatalf("the fake API did not answer as scripted: %+v", recorded)
			}
			file, err := rec.ReplayFile()
			if err != nil {
				t.Fatal(err)
			}
			transcript := rec.Transcript()
			for name, s := range map[string]string{"replay file": string(file), "transcript": transcript} {
				if strings.Contains(s, testKey) {
					t.Errorf("the key is in the %s:\n%s", name, s)
				}
			}
			replay, err := llm.Open("replay:rec.json", llm.Options{ReadFile: func(string) ([]byte, error) { return file, nil }})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range calls {
				resp, err := replay.Call(quick(t), c.req)
				want := recorded[i]
				if kindOf(err) != kindOf(want.err) {
					t.Errorf("call %d: error %v, want %v", i+1, err, want.err)
				}
				if d := diff(want.resp, resp); d != "" {
					t.Errorf("call %d: %s\nfile:\n%s", i+1, d, file)
				}
			}
		})
	}
}

func kindOf(err error) error {
	var e *llm.Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return err
}

// diff compares two responses field by field, tool inputs byte for byte.
func diff(want, got llm.Response) string {
	if got.Text != want.Text || got.StopReason != want.StopReason || got.Model != want.Model || got.Usage != want.Usage {
		return "got " + compact(got) + ", want " + compact(want)
	}
	if compactJSON(string(orObject(got.JSON))) != compactJSON(string(orObject(want.JSON))) || len(got.ToolCalls) != len(want.ToolCalls) {
		return "got " + compact(got) + ", want " + compact(want)
	}
	for i, c := range got.ToolCalls {
		w := want.ToolCalls[i]
		if c.ID != w.ID || c.Name != w.Name || !bytes.Equal(c.Input, w.Input) {
			return "tool call " + c.ID + " " + string(c.Input) + ", want " + w.ID + " " + string(w.Input)
		}
	}
	return ""
}

func orObject(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	return raw
}
