package claudecode

import (
	"bytes"
	"strings"
)

// doc is a document being edited: its bytes and its style.
type doc struct {
	b  []byte
	st style
}

func (d *doc) root() *node {
	n, _ := parseDoc(d.b) // valid: every edit keeps it so
	return n
}

// add appends an item (a member when key is non-nil) to container c.
// After existing items it copies the whitespace before the last one, so
// the user's layout goes on; into the empty top-level object it writes
// one indented line; into another empty container (the user's) it writes
// a space and the item on the bracket's line, so that remove can tell it
// from a container we created and take out exactly what it added.
func (d *doc) add(c *node, key *string, v any, top bool) {
	text := func(indent *string) string {
		s := d.st.render(v, indent)
		if key != nil {
			s = d.st.render(*key, nil) + d.st.colon + s
		}
		return s
	}
	if n := len(c.items); n > 0 {
		last := c.items[n-1]
		from := c.start + 1
		if n > 1 {
			from = bytes.IndexByte(d.b[c.items[n-2].val.end:], ',') + c.items[n-2].val.end + 1
		}
		ws := string(d.b[from:last.start])
		var indent *string
		if i := strings.LastIndexByte(ws, '\n'); i >= 0 {
			in := ws[i+1:]
			indent = &in
		}
		d.b = splice(d.b, last.val.end, last.val.end, ","+ws+text(indent))
		return
	}
	if top {
		in := d.st.unit
		d.b = splice(d.b, c.start+1, c.start+1, d.st.nl+in+text(&in)+d.st.nl)
		return
	}
	// The space sets it apart from a container we created, which never
	// starts with one: remove must leave the user's empty one.
	d.b = splice(d.b, c.start+1, c.start+1, " "+text(nil))
}

// remove takes item i out of container c: the inverse of add.
func (d *doc) remove(c *node, i int, top bool) {
	it := c.items[i]
	switch {
	case i > 0:
		d.b = splice(d.b, c.items[i-1].val.end, it.val.end, "")
	case len(c.items) > 1:
		d.b = splice(d.b, it.start, c.items[1].start, "")
	case top && string(d.b[c.start+1:it.start]) == d.st.nl+d.st.unit && bytes.HasPrefix(d.b[it.val.end:], []byte(d.st.nl)):
		d.b = splice(d.b, c.start+1, it.val.end+len(d.st.nl), "")
	default:
		d.b = splice(d.b, c.start+1, it.val.end, "")
	}
}

// created tells whether member i of c is exactly what add writes for
// key and v: a member we created whole, which remove may take out whole.
func (d *doc) created(c *node, i int, key string, v any) bool {
	it := c.items[i]
	got := string(d.b[it.start:it.val.end])
	in, _ := lineIndent(d.b, it.start)
	k := d.st.render(key, nil) + d.st.colon
	return got == k+d.st.render(v, &in) || got == k+d.st.render(v, nil)
}
