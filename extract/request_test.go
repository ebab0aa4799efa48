package extract

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/sessionlog"
)

// TestFirstRequestIsWhatRunSends: a dry run's request is the one Run
// sends first, field for field and in its wire form; a range of noise
// alone has none, and Run calls no model.
func TestFirstRequestIsWhatRunSends(t *testing.T) {
	for name, entries := range map[string][]sessionlog.Entry{
		"conversation":  conversation(4, 6),
		"with a marker": {userMsg(1, "what does </session-log> do?"), assistantMsg(2, "It ends the data.")},
	} {
		in := Input{Session: "s-1", Entries: entries, MaxTokens: 1234}
		want, r, ok := FirstRequest(in)
		if !ok || r.Entries != len(entries) {
			t.Fatalf("%s: ok %v, %d entries shown", name, ok, r.Entries)
		}
		rec := &recorder{answer: func(int, llm.Request) (llm.Response, error) {
			return llm.Response{JSON: json.RawMessage(emptyAnswer)}, nil
		}}
		in.Model = rec
		if _, err := Run(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		if len(rec.reqs) != 1 || !reflect.DeepEqual(rec.reqs[0], want) {
			t.Fatalf("%s: Run sent %+v\nFirstRequest %+v", name, rec.reqs, want)
		}
		got, _ := json.Marshal(rec.reqs[0])
		dry, _ := json.Marshal(want)
		if string(got) != string(dry) {
			t.Fatalf("%s: wire forms differ", name)
		}
		if text := llm.PromptText(want); !strings.Contains(text, "<session-log>\n") || !strings.Contains(text, "System:\n"+systemPrompt) || strings.Count(text, "</session-log>") != 1 {
			t.Errorf("%s: prompt text:\n%s", name, text)
		}
	}
	noise := []sessionlog.Entry{{Index: 1, Kind: sessionlog.KindMeta, Injected: true, Text: "x"}}
	if _, _, ok := FirstRequest(Input{Session: "s", Entries: noise}); ok {
		t.Error("a request for noise alone")
	}
	if _, _, ok := FirstRequest(Input{Session: "s"}); ok {
		t.Error("a request for no entries")
	}
}
