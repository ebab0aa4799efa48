package standin_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/yoimem/git-yoimem/internal/standin"
)

// TestMessagesWithSDK: the official SDK, as a real client, reads the
// stand-in's stream (accumulating every event into the message, which
// fails on events out of order or malformed) and its JSON answer into
// the scripted turns. A test only: the package itself links no SDK.
func TestMessagesWithSDK(t *testing.T) {
	input := map[string]any{"file_path": "/r/.yoi/memory/decisions/x.md", "content": "über\n"}
	m := standin.NewMessages(standin.Options{},
		standin.Turn{Text: "Writing the decision down now.", Tools: []standin.ToolUse{{Name: "Write", Input: input}}},
		standin.Turn{Text: "Done."},
	)
	defer m.Close()
	client := anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(m.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	params := anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("write it"))},
	}

	stream := client.Messages.NewStreaming(context.Background(), params)
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatalf("accumulate %s: %v", stream.Current().Type, err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 2 || msg.Content[0].Text != "Writing the decision down now." || msg.Content[1].Name != "Write" {
		t.Fatalf("streamed message: %+v", msg.Content)
	}
	var got map[string]any
	if err := json.Unmarshal(msg.Content[1].Input, &got); err != nil || got["file_path"] != input["file_path"] || got["content"] != input["content"] {
		t.Errorf("tool input %s (%v)", msg.Content[1].Input, err)
	}
	if msg.StopReason != anthropic.StopReasonToolUse || msg.Usage.InputTokens < 1 || msg.Usage.OutputTokens < 1 {
		t.Errorf("stop %q, usage %+v", msg.StopReason, msg.Usage)
	}

	plain, err := client.Messages.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Content) != 1 || plain.Content[0].Text != "Done." || plain.StopReason != anthropic.StopReasonEndTurn {
		t.Errorf("JSON message: %+v", plain)
	}
	if err := m.Err(); err != nil {
		t.Error(err)
	}
	if reqs := m.Requests(); len(reqs) != 2 || !reqs[0].Stream || reqs[1].Stream {
		t.Errorf("requests recorded: %+v", reqs)
	}
}
