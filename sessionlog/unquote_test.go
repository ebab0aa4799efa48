package sessionlog

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

var jsonStrings = []string{
	`""`, `"plain"`, `"tab\tand\nnewline"`, `"quote \" backslash \\ slash \/"`,
	`"\u00e9t\u00E9 \u2192 \ud83d\ude00"`, `"lone \ud800 surrogate"`, `"bad \x escape"`,
	`"caf` + "\u00e9" + ` \u0000"`, `"` + "\xff\xfe" + `"`, `"\b\f\r"`,
}

func TestUnquote(t *testing.T) {
	for _, q := range jsonStrings {
		var want string
		if err := json.Unmarshal([]byte(q), &want); err != nil {
			want = "" // not valid JSON: only compare lengths with our own decoding
		}
		got := stringValue([]byte(q))
		if want != "" && got != want {
			t.Errorf("stringValue(%s) = %q, want %q", q, got, want)
		}
		if n := decodedLen([]byte(q)); want != "" && n != len(want) && utf8.ValidString(q) {
			t.Errorf("decodedLen(%s) = %d, want %d", q, n, len(want))
		}
		if !utf8.ValidString(q) {
			continue // a prefix's length counts the raw bytes, not their replacements
		}
		for max := 0; max <= len(got)+1; max++ {
			p, cut := stringPrefix([]byte(q), max)
			if len(p) > max || !strings.HasPrefix(got, p) || cut != (len(p) < len(got)) || !utf8.ValidString(p) {
				t.Errorf("stringPrefix(%s, %d) = %q, %v (whole: %q)", q, max, p, cut, got)
			}
		}
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		text string
		cut  bool
		want string
	}{
		{"", false, ""},
		{"\n\n  one  \n\n\ttwo\n", false, "one\ntwo"},
		{"x", true, "x…"},
		{strings.Repeat("é", 150), false, strings.Repeat("é", 100) + "…"},
		{strings.Repeat("a", 199) + "\n" + "bb", false, strings.Repeat("a", 199) + "…"},
		{strings.Repeat("a", 200) + "\n" + "bb", false, strings.Repeat("a", 200) + "…"},
		{strings.Repeat("a", 150) + "\n" + strings.Repeat("b", 100), false, strings.Repeat("a", 150) + "\n" + strings.Repeat("b", 49) + "…"},
	}
	for _, tt := range tests {
		if got := summarize(tt.text, tt.cut); got != tt.want {
			t.Errorf("summarize(%q, %v) = %q, want %q", tt.text, tt.cut, got, tt.want)
		}
	}
}

func TestObject(t *testing.T) {
	tests := []struct {
		in   string
		keys string
		ok   bool
	}{
		{`{}`, "", true},
		{` { "a" : 1 , "b":[1,{"c":"}"}], "d":"x\"y" } `, "a b d", true},
		{`{"a":tru}`, "", false},
		{`{"a":1,}`, "a", false},
		{`{"a":[1,2}`, "", false},
		{`{"a":"unterminated}`, "", false},
		{`{"a":"esc\\"}`, "a", true},
		{`{"a" 1}`, "", false},
		{`[1]`, "", false},
	}
	for _, tt := range tests {
		var keys []string
		o := newObject([]byte(tt.in))
		for o.next() {
			keys = append(keys, string(o.key))
		}
		ok := o.err == nil && o.rest()
		if strings.Join(keys, " ") != tt.keys || ok != tt.ok {
			t.Errorf("%s: keys %q ok %v, want %q %v", tt.in, keys, ok, tt.keys, tt.ok)
		}
	}
}

// FuzzUnquote checks the decoder against encoding/json on valid strings.
func FuzzUnquote(f *testing.F) {
	for _, q := range jsonStrings {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := json.Marshal(s)
		if err != nil {
			return
		}
		var want string
		if err := json.Unmarshal(q, &want); err != nil {
			t.Fatal(err)
		}
		if got := stringValue(q); got != want {
			t.Fatalf("stringValue(%s) = %q, want %q", q, got, want)
		}
		if n := decodedLen(q); n != len(want) {
			t.Fatalf("decodedLen(%s) = %d, want %d", q, n, len(want))
		}
		if end, err := skipString(q, 0); err != nil || end != len(q) {
			t.Fatalf("skipString(%s) = %d, %v", q, end, err)
		}
		if !utf8.ValidString(s) {
			return
		}
		max := len(want) / 2
		if p, cut := stringPrefix(q, max); len(p) > max || !strings.HasPrefix(want, p) || cut != (len(p) < len(want)) {
			t.Fatalf("stringPrefix(%s, %d) = %q, %v", q, max, p, cut)
		}
	})
}
