package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// rpcError is an error reply the transport writes itself, for a line the
// SDK must never see.
type rpcError struct {
	id   json.RawMessage // the request's id as sent, or null
	code int64
	msg  string
}

var nullID = json.RawMessage("null")

// verdict is what to do with one input line: hand msg to the SDK, answer
// reply, or drop it (a blank line; a response nobody can match, noted in
// ignored, since a response is never answered).
type verdict struct {
	msg     jsonrpc.Message
	reply   *rpcError
	ignored string
}

// maxExactID bounds integer ids: the SDK carries them through float64,
// exact up to 2^53, so a larger one would come back as another number.
const maxExactID = 1 << 53

// parseLine checks one line as a JSON-RPC 2.0 message as MCP uses it: one
// object a line (no batches since MCP 2025-06-18), jsonrpc "2.0", a string
// method, an id that is a string or an integer, params an object or array.
func parseLine(line []byte) verdict {
	line = bytes.Trim(line, " \t\r\n") // JSON's whitespace
	switch {
	case len(line) == 0:
		return verdict{}
	case !utf8.Valid(line):
		return refuse(nullID, jsonrpc.CodeParseError, "parse error: the message is not UTF-8 text")
	case !json.Valid(line):
		return refuse(nullID, jsonrpc.CodeParseError, "parse error: "+syntaxError(line))
	case line[0] == '[':
		return refuse(nullID, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported (MCP 2025-06-18 removed JSON-RPC batching); send one message a line")
	case line[0] != '{':
		return refuse(nullID, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(line, &f); err != nil {
		return refuse(nullID, jsonrpc.CodeParseError, "parse error: "+err.Error())
	}
	rawID, hasID := f["id"]
	id, idErr := readID(rawID, hasID)
	replyID := nullID
	if hasID && idErr == "" {
		replyID = rawID
	}
	method, isRequest := f["method"]
	_, hasResult := f["result"]
	_, hasError := f["error"]
	if !isRequest && (hasResult || hasError) {
		return response(f, id, idErr)
	}
	var version string
	if json.Unmarshal(f["jsonrpc"], &version) != nil || version != "2.0" {
		return refuse(replyID, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	var name string
	switch {
	case !isRequest:
		return refuse(replyID, jsonrpc.CodeInvalidRequest, `invalid request: no "method" (and not a response)`)
	case json.Unmarshal(method, &name) != nil:
		return refuse(replyID, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a string`)
	case idErr != "":
		return refuse(replyID, jsonrpc.CodeInvalidRequest, "invalid request: "+idErr)
	case !structured(f["params"]):
		return refuse(replyID, jsonrpc.CodeInvalidRequest, `invalid request: "params" must be an object or an array`)
	}
	params := f["params"]
	if string(params) == "null" {
		params = nil
	}
	return verdict{msg: &jsonrpc.Request{ID: id, Method: name, Params: params}}
}

func refuse(id json.RawMessage, code int64, msg string) verdict {
	return verdict{reply: &rpcError{id: id, code: code, msg: msg}}
}

// readID reads an id: a string, or an integer within ±2^53. It returns a
// reason when the id is present but none of these.
func readID(raw json.RawMessage, present bool) (jsonrpc.ID, string) {
	if !present {
		return jsonrpc.ID{}, ""
	}
	const want = "id must be a string or an integer (at most 2^53 in magnitude)"
	switch {
	case string(raw) == "null":
		return jsonrpc.ID{}, "id must not be null (MCP); leave it out for a notification"
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return jsonrpc.ID{}, want
		}
		id, _ := jsonrpc.MakeID(s)
		return id, ""
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n > maxExactID || n < -maxExactID {
		return jsonrpc.ID{}, want
	}
	id, _ := jsonrpc.MakeID(float64(n))
	return id, ""
}

// response checks a message that is a response: handed on when well formed
// (the SDK matches it to a call of ours, or drops it), else ignored. A
// response is never answered, so two peers cannot trade errors forever.
func response(f map[string]json.RawMessage, id jsonrpc.ID, idErr string) verdict {
	var version string
	_ = json.Unmarshal(f["jsonrpc"], &version)
	result, hasResult := f["result"]
	rawErr, hasError := f["error"]
	var wire *jsonrpc.Error
	switch {
	case version != "2.0":
		return verdict{ignored: `a response whose "jsonrpc" is not "2.0"`}
	case idErr != "" || !id.IsValid():
		return verdict{ignored: "a response without a usable id"}
	case hasResult == hasError:
		return verdict{ignored: "a response with both or neither of result and error"}
	case hasError && (json.Unmarshal(rawErr, &wire) != nil || wire == nil):
		return verdict{ignored: "a response whose error is not an error object"}
	}
	resp := &jsonrpc.Response{ID: id, Result: result}
	if wire != nil {
		resp.Error = wire
	}
	return verdict{msg: resp}
}

// structured reports whether params, when present, is an object or an
// array (null is taken as absent).
func structured(params json.RawMessage) bool {
	return len(params) == 0 || params[0] == '{' || params[0] == '[' || string(params) == "null"
}

// syntaxError says where invalid JSON goes wrong.
func syntaxError(line []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(line))
	err := dec.Decode(&v)
	if err == nil {
		// one value, then more: dec.More would say so, the decoder would not
		return fmt.Sprintf("more than one JSON value on the line (after byte %d)", dec.InputOffset())
	}
	return err.Error()
}
