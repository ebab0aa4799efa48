package record

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Set gives a top-level frontmatter key a new value. An existing key keeps
// its place and only its lines change; a value equal to the current one
// changes nothing. A new key goes after the nearest key that precedes it in
// order (the kind's canonical order, may be nil), else at the end of the
// frontmatter. It reports whether the bytes changed.
func (d *Document) Set(key string, value *yaml.Node, order []string) (bool, error) {
	entry, err := renderEntry(key, value, d.nl)
	if err != nil {
		return false, err
	}
	var out []byte
	i := d.index(key)
	switch {
	case i >= 0 && nodesEqual(d.root.Content[i+1], value):
		return false, nil
	case d.root.Style&yaml.FlowStyle != 0:
		// A one-line {…} frontmatter has no lines to splice.
		return true, d.rerender(func(root *yaml.Node) { setNode(root, key, value) })
	case i >= 0:
		start, end := d.entrySpan(i)
		out = splice(d.raw, start, end, entry)
	default:
		at := d.insertOffset(key, order)
		out = splice(d.raw, at, at, entry)
	}
	if nd, err := Parse(out); err == nil && d.sameKeysBut(nd, key) && nodesEqual(nd.Get(key), value) {
		*d = *nd
		return true, nil
	}
	// The line splice did not give the intended tree (unusual layout such
	// as a value sharing a line with another key): render the frontmatter
	// anew from the tree, which changes more lines but is correct.
	return true, d.rerender(func(root *yaml.Node) { setNode(root, key, value) })
}

// sameKeysBut reports whether nd has the same top-level keys as d, in the
// same order, except for key.
func (d *Document) sameKeysBut(nd *Document, key string) bool {
	var a, b []string
	for _, k := range d.Keys() {
		if k != key {
			a = append(a, k)
		}
	}
	for _, k := range nd.Keys() {
		if k != key {
			b = append(b, k)
		}
	}
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

func setNode(root *yaml.Node, key string, value *yaml.Node) {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			root.Content[i+1] = value
			return
		}
	}
	root.Content = append(root.Content, StringNode(key), value)
}

// rerender applies edit to a copy of the tree and replaces the whole
// frontmatter text with its block-style rendering.
func (d *Document) rerender(edit func(root *yaml.Node)) error {
	root := *d.root
	root.Content = append([]*yaml.Node(nil), d.root.Content...)
	root.Style = 0
	edit(&root)
	var text []byte
	if len(root.Content) > 0 {
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(&root); err != nil {
			return fmt.Errorf("render frontmatter: %w", err)
		}
		if err := enc.Close(); err != nil {
			return fmt.Errorf("render frontmatter: %w", err)
		}
		text = buf.Bytes()
		if d.nl != "\n" {
			text = []byte(strings.ReplaceAll(string(text), "\n", d.nl))
		}
	}
	return d.reset(splice(d.raw, d.dataStart, d.dataEnd, text))
}

// Delete removes a top-level key and its value's lines. It reports whether
// the key existed.
func (d *Document) Delete(key string) (bool, error) {
	i := d.index(key)
	if i < 0 {
		return false, nil
	}
	drop := func(root *yaml.Node) {
		root.Content = append(root.Content[:i:i], root.Content[i+2:]...)
	}
	if d.root.Style&yaml.FlowStyle != 0 {
		return true, d.rerender(drop)
	}
	start, end := d.entrySpan(i)
	if nd, err := Parse(splice(d.raw, start, end, nil)); err == nil && nd.Get(key) == nil && d.sameKeysBut(nd, key) {
		*d = *nd
		return true, nil
	}
	return true, d.rerender(drop)
}

// SetBody replaces everything after the closing --- line.
func (d *Document) SetBody(body []byte) error {
	if bytes.Equal(body, d.Body()) {
		return nil
	}
	header := d.raw[:d.bodyStart]
	out := make([]byte, 0, len(header)+len(d.nl)+len(body))
	out = append(out, header...)
	if len(body) > 0 && len(header) > 0 && header[len(header)-1] != '\n' {
		out = append(out, d.nl...)
	}
	return d.reset(append(out, body...))
}

func (d *Document) reset(raw []byte) error {
	nd, err := Parse(raw)
	if err != nil {
		return fmt.Errorf("edit produced an unreadable record: %w", err)
	}
	*d = *nd
	return nil
}

func splice(b []byte, start, end int, insert []byte) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(insert))
	out = append(out, b[:start]...)
	out = append(out, insert...)
	return append(out, b[end:]...)
}

// entrySpan returns the byte range of the lines of the i-th key's entry:
// from the key's line to the line before the next key, less trailing blank
// lines and column-0 comments (those belong to what follows).
func (d *Document) entrySpan(i int) (start, end int) {
	lines := lineOffsets(d.raw[d.dataStart:d.dataEnd])
	first := d.root.Content[i].Line - 1
	last := len(lines) - 2 // index of the last line
	if i+2 < len(d.root.Content) {
		last = d.root.Content[i+2].Line - 2
	}
	data := d.raw[d.dataStart:d.dataEnd]
	for last > first {
		line := data[lines[last]:lines[last+1]]
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || line[0] == '#' {
			last--
			continue
		}
		break
	}
	return d.dataStart + lines[first], d.dataStart + lines[last+1]
}

// lineOffsets returns the start offset of every line of b plus len(b).
func lineOffsets(b []byte) []int {
	offs := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			offs = append(offs, i+1)
		}
	}
	return append(offs, len(b))
}

func (d *Document) insertOffset(key string, order []string) int {
	pos := -1
	for _, k := range order {
		if k == key {
			break
		}
		if i := d.index(k); i >= 0 {
			_, end := d.entrySpan(i)
			pos = end
		}
	}
	if pos >= 0 {
		return pos
	}
	return d.dataEnd
}

func renderEntry(key string, value *yaml.Node, nl string) ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, value}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("render frontmatter key %q: %w", key, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render frontmatter key %q: %w", key, err)
	}
	out := buf.Bytes()
	if nl != "\n" {
		out = []byte(strings.ReplaceAll(string(out), "\n", nl))
	}
	return out, nil
}

// nodesEqual compares two YAML values by meaning, ignoring style and
// position, so that setting a field to its current value is a no-op.
func nodesEqual(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return false
	}
	if a.Kind == yaml.ScalarNode {
		return a.Value == b.Value && scalarTag(a) == scalarTag(b)
	}
	for i := range a.Content {
		if !nodesEqual(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// scalarTag resolves the tag of a scalar the way the YAML library would
// when reading it back.
func scalarTag(n *yaml.Node) string {
	if n.Tag != "" && n.Tag != "!" {
		return n.ShortTag()
	}
	var probe yaml.Node
	if err := yaml.Unmarshal([]byte(n.Value), &probe); err != nil || len(probe.Content) == 0 {
		return "!!str"
	}
	return probe.Content[0].ShortTag()
}
