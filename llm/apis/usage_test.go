package apis

import (
	"testing"

	"github.com/yoimem/git-yoimem/internal/tokens"
	"github.com/yoimem/git-yoimem/llm"
)

// TestUsageRange: usage counts a server reports out of range (2^63-1,
// negative) count 0 and sums stop at 2^53, in both wire formats.
func TestUsageRange(t *testing.T) {
	t.Run("anthropic", func(t *testing.T) {
		body := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,` +
			`"usage":{"input_tokens":9223372036854775807,"cache_creation_input_tokens":9007199254740992,"cache_read_input_tokens":9007199254740992,"output_tokens":-3}}`
		resp, err := openAnthropic(t, newFakeAPI(t, respond(200, body)), llm.Options{}).Call(quick(t), userRequest("hi"))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Usage != (llm.Usage{InputTokens: tokens.Max, OutputTokens: 0}) {
			t.Errorf("usage %+v", resp.Usage)
		}
	})
	t.Run("openai", func(t *testing.T) {
		body := `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":{"role":"assistant","content":"ok","refusal":null}}],` +
			`"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":9007199254740993,"total_tokens":1}}`
		resp, err := openOpenAI(t, newFakeAPI(t, respond(200, body)), llm.Options{}).Call(quick(t), userRequest("hi"))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Usage != (llm.Usage{}) {
			t.Errorf("usage %+v", resp.Usage)
		}
	})
}
