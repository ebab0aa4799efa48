package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Claude Code keeps a project's local-scope MCP servers in ~/.claude.json
// under projects["<top>"].mcpServers. The merges of agent/claudecode edit
// a document's top-level object; inProject applies them to the project's
// object, cut out of the file and spliced back, so that every other byte
// of ~/.claude.json stays as it was.

// ErrNoProjectEntry: ~/.claude.json has no entry for the project, which
// Claude Code writes the first time it runs there.
var ErrNoProjectEntry = errors.New("no entry for this project")

// inProject makes f's merges act on projects[top] of its file.
func inProject(f File, top string) File {
	merge, unmerge, current := f.merge, f.unmerge, f.current
	f.merge = func(old []byte, o Options) ([]byte, error) {
		return editProject(old, top, true, func(sub []byte) ([]byte, error) { return merge(sub, o) })
	}
	f.unmerge = func(old []byte) ([]byte, error) {
		return editProject(old, top, false, unmerge)
	}
	f.current = func(old []byte) (bool, error) {
		s, e, err := projectSpan(old, top)
		if err != nil || s < 0 {
			return false, err
		}
		sub, _ := dedent(old[s:e], lineIndentAt(old, s))
		return current(sub)
	}
	return f
}

// editProject applies edit to projects[top] of doc. Without the entry,
// a merge is ErrNoProjectEntry and an unmerge changes nothing.
func editProject(doc []byte, top string, merging bool, edit func([]byte) ([]byte, error)) ([]byte, error) {
	s, e, err := projectSpan(doc, top)
	if err != nil {
		return nil, err
	}
	if s < 0 {
		if merging {
			return nil, fmt.Errorf("%w (%s): Claude Code adds it the first time it runs in the project", ErrNoProjectEntry, top)
		}
		return doc, nil
	}
	indent := lineIndentAt(doc, s)
	sub, ok := dedent(doc[s:e], indent)
	out, err := edit(sub)
	if err != nil {
		return nil, fmt.Errorf(`projects[%q]: %w`, top, err)
	}
	if ok {
		out = reindent(out, indent)
	}
	res := make([]byte, 0, len(doc)+len(out)-(e-s))
	res = append(res, doc[:s]...)
	res = append(res, out...)
	return append(res, doc[e:]...), nil
}

// projectSpan finds the value of projects[top] (the last of duplicate
// keys, as JSON.parse keeps): its byte span, or -1 when there is none.
// The document must be a JSON object; a projects or entry that is not
// an object is an error.
func projectSpan(doc []byte, top string) (int, int, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return -1, -1, nil
	}
	if !json.Valid(doc) {
		var v any
		return -1, -1, fmt.Errorf("not valid JSON: %v", json.Unmarshal(doc, &v))
	}
	ps, pe, err := memberSpan(doc, 0, "projects")
	if err != nil || ps < 0 {
		return -1, -1, err
	}
	if doc[ps] != '{' {
		return -1, -1, fmt.Errorf(`"projects" is not a JSON object`)
	}
	s, e, err := memberSpan(doc[:pe], ps, top)
	if err != nil || s < 0 {
		return -1, -1, err
	}
	if doc[s] != '{' {
		return -1, -1, fmt.Errorf(`projects[%q] is not a JSON object`, top)
	}
	return s, e, nil
}

// memberSpan finds the span of member key of the object starting at
// doc[from] (the last one of that name), or -1.
func memberSpan(doc []byte, from int, key string) (int, int, error) {
	dec := json.NewDecoder(bytes.NewReader(doc[from:]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return -1, -1, fmt.Errorf("the top level is not a JSON object")
	}
	start, end := -1, -1
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return -1, -1, err
		}
		k, _ := t.(string)
		vs := from + int(dec.InputOffset())
		for vs < len(doc) && strings.IndexByte(" \t\r\n:", doc[vs]) >= 0 {
			vs++
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
			return -1, -1, err
		}
		if k == key {
			start, end = vs, from+int(dec.InputOffset())
		}
	}
	return start, end, nil
}

// lineIndentAt is the indentation of the line holding doc[at].
func lineIndentAt(doc []byte, at int) string {
	ls := bytes.LastIndexByte(doc[:at], '\n') + 1
	i := ls
	for i < at && (doc[i] == ' ' || doc[i] == '\t') {
		i++
	}
	return string(doc[ls:i])
}

// dedent takes indent off every line of v but the first, so that the
// merges see the object as a document of its own (and read its
// indentation unit right). ok is false, and v is returned as it is, when
// a line does not start with indent: then nothing is re-indented either.
func dedent(v []byte, indent string) ([]byte, bool) {
	if indent == "" {
		return v, false
	}
	lines := bytes.Split(v, []byte("\n"))
	for _, l := range lines[1:] {
		if !bytes.HasPrefix(l, []byte(indent)) {
			return v, false
		}
	}
	for i := 1; i < len(lines); i++ {
		lines[i] = lines[i][len(indent):]
	}
	return bytes.Join(lines, []byte("\n")), true
}

// reindent is dedent's inverse.
func reindent(v []byte, indent string) []byte {
	lines := bytes.Split(v, []byte("\n"))
	for i := 1; i < len(lines); i++ {
		lines[i] = append([]byte(indent), lines[i]...)
	}
	return bytes.Join(lines, []byte("\n"))
}
