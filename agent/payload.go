package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// ReadPayload reads one hook payload from r: through the end of the
// first JSON object or array, or to the end of input when it starts with
// anything else. It does not wait for the end of input after a complete
// object, so an agent that leaves stdin open still gets its answer. It
// reads at most limit bytes; over reports more was there.
func ReadPayload(r io.Reader, limit int64) (b []byte, over bool, err error) {
	lr := io.LimitReader(r, limit+1)
	var sc valueEnd
	buf := make([]byte, 32<<10)
	for {
		n, err := lr.Read(buf)
		b = append(b, buf[:n]...)
		complete := false
		for _, c := range buf[:n] {
			if sc.done(c) {
				complete = true // what came with it is kept: data after it is named
				break
			}
		}
		if int64(len(b)) > limit {
			return b[:limit], true, nil
		}
		if complete || err == io.EOF {
			return b, false, nil
		}
		if err != nil {
			return b, false, err
		}
	}
}

// valueEnd finds the end of a leading JSON object or array, byte by byte.
type valueEnd struct {
	depth          int
	started, other bool // seen the opening bracket; the value is no object or array
	inString, esc  bool
}

func (s *valueEnd) done(c byte) bool {
	switch {
	case s.depth == 0 && s.started:
		return true // past the end already
	case s.other:
	case !s.started:
		if c == '{' || c == '[' {
			s.started, s.depth = true, 1
		} else if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			s.other = true
		}
	case s.inString:
		switch {
		case s.esc:
			s.esc = false
		case c == '\\':
			s.esc = true
		case c == '"':
			s.inString = false
		}
	case c == '"':
		s.inString = true
	case c == '{' || c == '[':
		s.depth++
	case c == '}' || c == ']':
		s.depth--
		return s.depth == 0
	}
	return false
}

// ParseObject decodes the one JSON object b holds into v, naming what is
// wrong: empty, not JSON, not an object, not UTF-8, a field of the wrong
// type, or data after the object.
func ParseObject(b []byte, v any) error {
	trimmed := bytes.TrimSpace(b)
	switch {
	case len(trimmed) == 0:
		return errors.New("empty; want a JSON object")
	case !json.Valid(trimmed) && !validPrefix(trimmed):
		return errors.New("not JSON")
	case trimmed[0] != '{':
		return errors.New("not a JSON object")
	case !utf8.Valid(trimmed):
		return errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %s: want a %s, got a JSON %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() || dec.InputOffset() < int64(len(trimmed)) {
		return errors.New("more data after the JSON object")
	}
	return nil
}

// validPrefix tells whether b starts with one valid JSON value (and has
// more after it), so that trailing data is named as such.
func validPrefix(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v json.RawMessage
	return dec.Decode(&v) == nil
}

// CutFields reads what it can of a JSON object cut off at some byte (a
// hook input over the limit): the string fields of the object, and those
// of its object field inputKey, that end before the cut. A field whose
// value the cut falls in is not there.
func CutFields(b []byte, inputKey string) (fields, input map[string]string) {
	fields, input = map[string]string{}, map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fields, input
	}
	cutObject(dec, fields, inputKey, input)
	return fields, input
}

// cutObject reads the members of an object whose '{' dec has read,
// until its end or the cut, into into (and the object member sub, when
// given, into subInto).
func cutObject(dec *json.Decoder, into map[string]string, sub string, subInto map[string]string) {
	for {
		t, err := dec.Token()
		if err != nil {
			return
		}
		key, ok := t.(string)
		if !ok {
			return // the object's end
		}
		v, err := dec.Token()
		if err != nil {
			return
		}
		switch v := v.(type) {
		case string:
			into[key] = v
		case json.Delim:
			if v == '{' && sub != "" && key == sub {
				cutObject(dec, subInto, "", nil)
			} else if !skipValue(dec, v) {
				return
			}
		}
	}
}

// skipValue reads past the rest of an object or array whose opening
// delimiter dec has read; false at the cut.
func skipValue(dec *json.Decoder, open json.Delim) bool {
	if open != '{' && open != '[' {
		return true
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return true
}

// CutPreTool is what the guard can judge of a hook input cut off at the
// limit: the PreTool event from the fields before the cut (marked Cut),
// or the zero Event when the input is another event. kinds maps the
// agent's event names.
func CutPreTool(b []byte, kinds map[string]Kind) Event {
	fields, input := CutFields(b, "tool_input")
	if kinds[fields["hook_event_name"]] != PreTool {
		return Event{}
	}
	in, _ := json.Marshal(input)
	return Event{Kind: PreTool, Name: fields["hook_event_name"], Session: fields["session_id"],
		LogPath: fields["transcript_path"], Cwd: fields["cwd"], Tool: fields["tool_name"], ToolInput: in, Cut: true}
}
