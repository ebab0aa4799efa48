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
// # The split and the bridge
//
// The Anthropic and OpenAI providers are built on the official SDKs,
// which make a binary four times larger and cost every process start
// milliseconds and megabytes even when no model is called. So they live in
// package llm/apis, and this package does not import it: with
// Options.APIs set (apis.Open), Open runs them in this process; without,
// it returns a bridge that runs each Call in the helper program
// git-yoimem-llm (Options.APIHelper, else DefaultAPIHelper on PATH),
// through Options.Exec. git-yoimem imports only this package.
//
// `git-yoimem-llm call --max-input-bytes=<size of stdin>` gets one JSON
// object on stdin (it reads no more than that size),
//
//	{"model": "anthropic:<model>",
//	 "options": {"base_url": "...", "timeout_ms": 300000, "max_retries": 2,
//	             "max_reply": {"bytes": 16777216, "setting": "..."},
//	             "max_request": {"bytes": 33554432, "setting": "..."}},
//	 "request": <Request>}
//
// and prints {"response": <Response>}, or on failure {"response": <what
// the failed call returned, its usage>, "error": <Error>}, where an Error
// is {"provider", "status", "kind", "message"} and kind is one of
// rate_limited, server, timeout, refusal, context_length, invalid_output,
// empty, no_key, auth, bad_request, connection, command, exhausted,
// too_large, canceled: the bridge maps it back to the Err variable, so
// errors.Is works as in-process. The answer is at most max_reply bytes
// (a larger one is replaced by a too_large error), and the bridge reads
// no more than that of the helper's stdout. Requests and responses are the types' JSON form
// (snake_case tags; json.RawMessage fields raw, compacted; a ToolCall
// input that is not valid JSON travels as the string "input_text").
// "base_url" is Options.BaseURL, else the *_BASE_URL variable through
// Getenv; max_retries is Options.MaxRetries as given. API keys travel only
// in the helper's environment (the Execer's: OSExec.Env, else the
// process's), never in argv or stdin; Open still fails with ErrNoKey when
// Getenv has neither key nor base URL, as in-process. Options.HTTPClient
// does not cross.
//
// The helper validates and repairs (below); the bridge only checks the
// answer's form. It kills the helper after 2×Timeout + 10 s (a Call may
// make a repair request) or when ctx is done (ErrTimeout or
// context.Canceled). A helper that is not installed, exits nonzero or
// prints no answer fails with ErrCommand (the first lines of its stderr).
//
// # Structured replies
//
// When Request.Schema is set, the reply is a JSON object matching it.
// Anthropic gets a tool named Schema.Name whose input schema is the schema,
// forced with tool_choice {type: tool}; OpenAI gets response_format
// json_schema with strict true; command and replay take the JSON object
// from the reply text. Every structured reply is validated against the
// schema by this package's provider wrapper (NewProvider; for a bridged
// call, in the helper). An invalid one (bad JSON or a violation) gets one
// repair attempt: the reply goes back to the model with the validation
// error and a request for a corrected reply. If that fails too, Call
// returns ErrInvalidOutput naming the violation. Usage of both attempts is
// summed.
//
// With Request.Tools as well, the schema is not forced: Anthropic offers
// the schema tool alongside the caller's tools (tool_choice auto), OpenAI
// keeps response_format for the final answer. Response.JSON is set when the
// model answered through the schema (the schema tool's call is then not in
// Response.ToolCalls); otherwise the caller's loop runs the tool calls and
// calls again. If a model calls other tools in the same turn as an invalid
// schema reply, the repair turn reports those calls as not run.
//
// # Size limits
//
// Every reply is read within Options.MaxReply (DefaultMaxReplyBytes): a
// command's stdout (past it the process group is killed; of stderr only
// the start and the end are kept, for the message), each HTTP response
// body, error responses included (past it the read fails and the SDKs do
// not retry), the helper's answer. The call then fails with ErrTooLarge,
// whose message names the limit and Limit.Setting, and nothing of the
// reply is used: an invalid reply over the limit is never sent back for
// repair. A request whose JSON form is over Options.MaxRequest
// (DefaultMaxRequestBytes) fails with ErrContextLength before it is sent,
// and so does the repair attempt, whose request echoes the invalid reply
// (the call then fails with ErrInvalidOutput). Token counts are kept in
// range (see Usage.Add).
//
// # Errors
//
// Failures are *Error values whose Kind is one of the Err variables, so
// errors.Is(err, ErrRateLimited) and friends work; context.Canceled is
// passed through as a Kind.
//
// # Other backends
//
// A Backend (Name, Send) is one provider's round trip; NewProvider adds
// the request checks, Options.Timeout, validation and repair. A Backend
// returns the structured candidate unvalidated in Reply (ExtractObject
// finds one in text) and reports failures with StatusError (an HTTP error
// status) and TransportError (no response), which redact the key.
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
// fails with the exit code and the first lines of stderr (control bytes
// escaped); Options.Timeout, and stdout over Options.MaxReply, kill the
// whole process group.
//
// # Replay provider
//
// The file holds recorded responses:
//
//	{"responses": [
//	  {"match": "substring of the rendered request",
//	   "text": "reply text",
//	   "json": {"structured": "reply"},
//	   "tool_calls": [{"id": "call_1", "name": "memory_read", "input": {"slug": "x"}},
//	                  {"id": "call_2", "name": "recall", "input_text": "{\"q\": "}],
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
// bad_request, connection; the entry's text, tool calls, usage, stop
// reason and model come with the error. "json" (or, without tools, a JSON
// object in "text") is validated against the request's schema like any
// structured reply, so a repair attempt consumes the next matching entry.
// A tool call's "input" and "json" are read compact (as the bridge
// carries them); "input_text" is an input's exact bytes (not compact, or
// not JSON). Without "model" the reply's model is "replay". When no entry
// matches the call fails with ErrExhausted naming the file and the match
// the first unused entry wants. The provider is safe for concurrent use.
//
// # Recordings
//
// A Recorder (NewRecorder) wraps a provider, forwards every call and keeps
// it; ReplayFile writes the calls as a replay file and Transcript renders
// them for a reader. Each entry's match is chosen by matchFor (see there):
// the tool call the request answers ("Tool result (toolu_01):\n", or
// "Tool error" for a failed one), or the start of the user text before
// its first digit, anchored on the end of the reply it follows, so that a
// recording still replays when tool outputs, prompts or run IDs change,
// and a conversation that takes another turn fails with ErrExhausted
// instead of getting an answer meant for another request. ReplayFile
// replays the file it wrote over the recorded requests before returning
// it, and refuses, naming the call, what a replay would not give back:
// the kinds no_key, command, exhausted, too_large and canceled, errors
// that are not *Error, empty replies. Calls the replay provider refuses by
// itself (bad requests, requests over the default size limit) are left
// out. A recording has no size limit of its own: it keeps what the calls
// held, within the wrapped provider's limits.
package llm
