package jsonedit

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  \"a\": 1,\n}": "line 3",
		"{\n  // c\n}":      "line 2",
		`[1]`:               "not a JSON object",
		`{"a": 1} {"b": 2}`: "not valid JSON",
	} {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want %q", in, err, want)
		}
	}
}

func TestMemberLastWins(t *testing.T) {
	b := []byte(`{"a": 1, "b": {"c": [1, "x"]}, "a": 2}`)
	n, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	i, v := n.Member("a")
	if i != 2 || string(b[v.Start:v.End]) != "2" {
		t.Errorf("a = %d %q", i, b[v.Start:v.End])
	}
	_, c := n.Items[1].Val.Member("c")
	if c.Kind != '[' || len(c.Items) != 2 || string(b[c.Items[1].Val.Start:c.Items[1].Val.End]) != `"x"` {
		t.Errorf("c = %+v", c)
	}
	if i, v := n.Member("zz"); i != -1 || v != nil {
		t.Errorf("zz = %d %v", i, v)
	}
}

func TestDetectStyle(t *testing.T) {
	for in, want := range map[string]Style{
		"{\n  \"a\": 1\n}":      {Unit: "  ", Colon: ": ", NL: "\n"},
		"{\r\n\t\"a\":1\r\n}":   {Unit: "\t", Colon: ":", NL: "\r\n"},
		"{\n    \"a\" : 1\n}\n": {Unit: "    ", Colon: ": ", NL: "\n"},
		`{}`:                    {Unit: "  ", Colon: ": ", NL: "\n"},
	} {
		if got := DetectStyle([]byte(in)); got != want {
			t.Errorf("DetectStyle(%q) = %+v; want %+v", in, got, want)
		}
	}
}

// TestAddRemove: what Add writes is valid JSON in the document's style,
// Created recognises it, and Remove gives the old bytes back.
func TestAddRemove(t *testing.T) {
	for _, old := range []string{
		"{}\n", "{ }", "{\n  \"a\": 1\n}\n", "{\r\n\t\"a\":1\r\n}\r\n", `{"a":1,"b":2}`, "{\n    \"a\": {}\n}\n",
	} {
		d, err := Open([]byte(old))
		if err != nil {
			t.Fatal(err)
		}
		key := "k"
		v := []KV{{K: "list", V: []any{"x", true, 3}}}
		d.Add(d.Root(), &key, v, true)
		if !json.Valid(d.B) {
			t.Fatalf("%q: not JSON: %s", old, d.B)
		}
		root := d.Root()
		i, _ := root.Member("k")
		if !d.Created(root, i, "k", v) {
			t.Errorf("%q: Created does not see what Add wrote:\n%s", old, d.B)
		}
		if strings.Contains(old, "\r\n") && strings.Count(string(d.B), "\n") != strings.Count(string(d.B), "\r\n") {
			t.Errorf("a bare LF in a CRLF document: %q", d.B)
		}
		d.Remove(root, i, true)
		if string(d.B) != old {
			t.Errorf("Remove(Add(x)) = %q; want %q", d.B, old)
		}
	}
}

func TestOpenEmpty(t *testing.T) {
	for _, old := range []string{"", " \n"} {
		d, err := Open([]byte(old))
		if err != nil || string(d.B) != "{}\n" {
			t.Errorf("Open(%q) = %q, %v", old, d.B, err)
		}
	}
}
