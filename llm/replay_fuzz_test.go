package llm

import (
	"context"
	"testing"
)

// FuzzReplayFile: any file is read without a panic or a hang; one that
// reads answers requests (or fails with an *Error) without a panic.
func FuzzReplayFile(f *testing.F) {
	for _, seed := range []string{
		`{"responses":[{"match":"x","text":"t","json":{"memories":[]},"tool_calls":[{"id":"c","name":"recall","input":{"q":1}}],"usage":{"input_tokens":1,"output_tokens":2},"stop_reason":"end_turn","model":"","error":"rate_limited"}]}`,
		`{"responses":[{"tool_calls":[{"id":"c","name":"n","input_text":"{\"q\":"}]}]}`,
		`{"responses":[{"tool_calls":[{"id":"c","name":"n","input":{},"input_text":"x"}]}]}`,
		`{"responses":[{"json":null},{"usage":{"input_tokens":-1,"output_tokens":9223372036854775807}}]}`,
		`{"responses":[{"error":"canceled"}]}`, `{"responses":null}`, `[]`, ``, `{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseReplay("fuzz.json", data)
		if err != nil {
			return
		}
		p := NewProvider(b, Options{})
		for _, req := range []Request{userRequest("x"), withSchema(userRequest("y")), withTools(userRequest("z"))} {
			_, err := p.Call(context.Background(), req)
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("error %T %v is not *Error", err, err)
				}
			}
		}
	})
}
