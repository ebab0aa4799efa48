package agent

import (
	"io"
	"strings"
	"testing"
)

// oneShot returns its text and then blocks, as a pipe left open does;
// reading past the text fails the test instead of hanging it.
type oneShot struct {
	t    *testing.T
	text string
	read bool
}

func (o *oneShot) Read(p []byte) (int, error) {
	if o.read {
		o.t.Fatalf("read past %q: the end of input would never come", o.text)
	}
	o.read = true
	return copy(p, o.text), nil
}

func TestReadPayload(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		open     bool // the input stays open after the text
		limit    int64
		want     string
		over     bool
	}{
		{name: "object, input left open", in: `{"a": "}{\"", "b": [1, {"c": 2}]}`, open: true, want: `{"a": "}{\"", "b": [1, {"c": 2}]}`},
		{name: "array, input left open", in: ` [1, "]"]`, open: true, want: ` [1, "]"]`},
		{name: "what came with the object is kept", in: `{"a":1} trailing`, open: true, want: `{"a":1} trailing`},
		{name: "a scalar reads to the end", in: `"x"`, want: `"x"`},
		{name: "unfinished object reads to the end", in: `{"a": `, want: `{"a": `},
		{name: "empty", in: ``, want: ``},
		{name: "over the limit", in: strings.Repeat(" ", 20) + `{}`, limit: 10, over: true, want: strings.Repeat(" ", 10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(tc.in)
			if tc.open {
				r = &oneShot{t: t, text: tc.in}
			}
			limit := tc.limit
			if limit == 0 {
				limit = 1 << 20
			}
			b, over, err := ReadPayload(r, limit)
			if err != nil || over != tc.over || string(b) != tc.want {
				t.Errorf("ReadPayload = %q, %v, %v; want %q, %v", b, over, err, tc.want, tc.over)
			}
		})
	}
}

// FuzzReadPayload: what ReadPayload returns is a prefix of the input,
// and a whole input that is one JSON object parses the same from it.
func FuzzReadPayload(f *testing.F) {
	for _, s := range []string{`{"a":"}"}`, ` [1,{"b":"\""}] x`, `{"a":1}{"b":2}`, `"x"`, `{`, `}`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b, over, err := ReadPayload(strings.NewReader(in), 1<<16)
		if err != nil || over || !strings.HasPrefix(in, string(b)) {
			t.Fatalf("ReadPayload(%q) = %q, %v, %v", in, b, over, err)
		}
		var whole, part map[string]any
		if ParseObject([]byte(in), &whole) == nil {
			if err := ParseObject(b, &part); err != nil {
				t.Fatalf("%q parses whole but not as read (%q): %v", in, b, err)
			}
		}
	})
}
