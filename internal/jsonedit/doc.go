package jsonedit

import (
	"bytes"
	"strings"
)

// Doc is a document being edited: its bytes and its Style.
type Doc struct {
	B     []byte
	Style Style
}

// Open reads content to edit: a JSON object, or nothing (empty content
// or white space, edited as an empty object "{}\n"). Anything else is an
// error naming the problem and its line.
func Open(old []byte) (*Doc, error) {
	b := old
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}\n")
	}
	if _, err := Parse(b); err != nil {
		return nil, err
	}
	return &Doc{B: append([]byte(nil), b...), Style: DetectStyle(b)}, nil
}

// Root is the document's top-level object, parsed from the current bytes.
func (d *Doc) Root() *Node {
	n, _ := Parse(d.B) // valid: every edit keeps it so
	return n
}

// Add appends an Item (a member when key is non-nil) to container c.
// After existing items it copies the whitespace before the last one, so
// the user's layout goes on; into the empty top-level object it writes
// one indented line; into another empty container (the user's) it writes
// a space and the Item on the bracket's line, so that Remove can tell it
// from a container we created and take out exactly what it added.
func (d *Doc) Add(c *Node, key *string, v any, top bool) {
	text := func(indent *string) string {
		s := d.Style.Render(v, indent)
		if key != nil {
			s = d.Style.Render(*key, nil) + d.Style.Colon + s
		}
		return s
	}
	if n := len(c.Items); n > 0 {
		last := c.Items[n-1]
		from := c.Start + 1
		if n > 1 {
			from = bytes.IndexByte(d.B[c.Items[n-2].Val.End:], ',') + c.Items[n-2].Val.End + 1
		}
		ws := string(d.B[from:last.Start])
		var indent *string
		if i := strings.LastIndexByte(ws, '\n'); i >= 0 {
			in := ws[i+1:]
			indent = &in
		}
		d.B = Splice(d.B, last.Val.End, last.Val.End, ","+ws+text(indent))
		return
	}
	if top {
		in := d.Style.Unit
		d.B = Splice(d.B, c.Start+1, c.Start+1, d.Style.NL+in+text(&in)+d.Style.NL)
		return
	}
	// The space sets it apart from a container we created, which never
	// starts with one: Remove must leave the user's empty one.
	d.B = Splice(d.B, c.Start+1, c.Start+1, " "+text(nil))
}

// Remove takes Item i out of container c: the inverse of Add.
func (d *Doc) Remove(c *Node, i int, top bool) {
	it := c.Items[i]
	switch {
	case i > 0:
		d.B = Splice(d.B, c.Items[i-1].Val.End, it.Val.End, "")
	case len(c.Items) > 1:
		d.B = Splice(d.B, it.Start, c.Items[1].Start, "")
	case top && string(d.B[c.Start+1:it.Start]) == d.Style.NL+d.Style.Unit && bytes.HasPrefix(d.B[it.Val.End:], []byte(d.Style.NL)):
		d.B = Splice(d.B, c.Start+1, it.Val.End+len(d.Style.NL), "")
	default:
		d.B = Splice(d.B, c.Start+1, it.Val.End, "")
	}
}

// Created tells whether member i of c is exactly what Add writes for
// key and v: a member we created whole, which Remove may take out whole.
func (d *Doc) Created(c *Node, i int, key string, v any) bool {
	it := c.Items[i]
	got := string(d.B[it.Start:it.Val.End])
	in, _ := LineIndent(d.B, it.Start)
	k := d.Style.Render(key, nil) + d.Style.Colon
	return got == k+d.Style.Render(v, &in) || got == k+d.Style.Render(v, nil)
}
