// Package llm is one interface for a model call with tools and a strict
// JSON-schema reply, and the providers behind it. Open picks a provider
// from a model string:
//
//	anthropic:<model>  Anthropic Messages API (key: ANTHROPIC_API_KEY,
//	                   base URL: Options.BaseURL, else ANTHROPIC_BASE_URL)
//	openai:<model>     OpenAI Chat Completions (key: OPENAI_API_KEY, base URL:
//	                   Options.BaseURL, else OPENAI_BASE_URL); a base URL
//	                   covers Ollama, vLLM, llama.cpp and LM Studio, which
//	                   need no key
//	command:<argv>     a local command: prompt on stdin, reply on stdout
//	replay:<file>      recorded responses, for tests and the offline demo
//
// Environment variables are read only through Options.Getenv; the SDKs'
// own environment lookups are switched off or bypassed. API keys never
// appear in errors. Options.Timeout bounds each request including the
// SDK's retries (408, 409, 429, 5xx, connection errors; Options.MaxRetries,
// default 2, NoRetries for none). Request.MaxTokens 0 means 8192 for
// Anthropic (which requires a value) and no max_completion_tokens for
// OpenAI.
//
// # Structured replies
//
// When Request.Schema is set, the reply is a JSON object matching it.
// Anthropic gets a tool named Schema.Name whose input schema is the schema,
// forced with tool_choice {type: tool}; OpenAI gets response_format
// json_schema with strict true; command and replay take the JSON object
// from the reply text. Every structured reply is validated here against the
// schema. An invalid one (bad JSON or a violation) gets one repair attempt:
// the reply goes back to the model with the validation error and a request
// for a corrected reply. If that fails too, Call returns ErrInvalidOutput
// naming the violation. Usage of both attempts is summed.
//
// With Request.Tools as well, the schema is not forced: Anthropic offers
// the schema tool alongside the caller's tools (tool_choice auto), OpenAI
// keeps response_format for the final answer. Response.JSON is set when the
// model answered through the schema (the schema tool's call is then not in
// Response.ToolCalls); otherwise the caller's loop runs the tool calls and
// calls again. If a model calls other tools in the same turn as an invalid
// schema reply, the repair turn reports those calls as not run.
//
// # Errors
//
// Failures are *Error values whose Kind is one of the Err variables, so
// errors.Is(err, ErrRateLimited) and friends work; context.Canceled is
// passed through as a Kind.
//
// # Command provider
//
// The argv after "command:" is split like a shell does, without running
// one: single and double quotes and backslashes, no expansion. The prompt
// (system text, the messages, and for a schema the instruction "Reply with
// only a JSON object matching this JSON schema: ...") goes to stdin; the
// reply is stdout. With a schema the JSON object is taken from the reply:
// the whole text, a ```json fence, or the outermost {...} among other
// text. Stdout that is the envelope of `claude -p --output-format json`
// (an object with "type": "result" and a "result" string) is unwrapped: the
// answer is "result" (or, with claude's --json-schema, the structured reply
// is "structured_output"), usage comes from its "usage", and "is_error":
// true fails the call. Tools are not supported (ErrBadRequest). A nonzero exit
// fails with the exit code and the first lines of stderr; Options.Timeout
// kills the whole process group.
//
// # Replay provider
//
// The file holds recorded responses:
//
//	{"responses": [
//	  {"match": "substring of the rendered request",
//	   "text": "reply text",
//	   "json": {"structured": "reply"},
//	   "tool_calls": [{"id": "call_1", "name": "memory_read", "input": {"slug": "x"}}],
//	   "usage": {"input_tokens": 10, "output_tokens": 5},
//	   "stop_reason": "end_turn", "model": "recorded-model",
//	   "error": "rate_limited"}
//	]}
//
// Every field is optional. Each call takes the first entry not yet used
// whose match (if any) occurs in the rendered request (the same text the
// command provider writes to stdin: system, messages, schema instruction).
// "error" makes the call fail with that kind: rate_limited, server,
// timeout, refusal, context_length, invalid_output, empty, auth,
// bad_request, connection. "json" (or, without tools, a JSON object in
// "text") is validated against the request's schema like any structured
// reply, so a repair attempt consumes the next matching entry. When no
// entry is left the call fails with ErrExhausted naming the file. The
// provider is safe for concurrent use.
package llm
