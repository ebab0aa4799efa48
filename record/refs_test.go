package record

import (
	"fmt"
	"testing"
)

func TestRefs(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"see #retry-policy for details", "retry-policy@1:5"},
		{"#start-of-line works", "start-of-line@1:1"},
		{"# Heading is not a ref", ""},
		{"## Sub heading", ""},
		{"issue #42 and #123", ""},
		{"a page#anchor and http://x/y#frag", ""},
		{"[link](#section) and (#paren-ref)", "paren-ref@1:23"},
		{"code `#not-a-ref` and ``#also `no` ref``", ""},
		{"```\n#in-fence\n```\n#after-fence", "after-fence@4:1"},
		{"~~~~go\n#x\n~~~\n#still-in\n~~~~\n#out", "out@6:1"},
		{"trailing dash #slug- ok", "slug@1:15"},
		{"end of sentence #done.", "done@1:17"},
		{"#Upper #snake_case #path/x", ""},
		{"two #a1 #b2 refs", "a1@1:5 b2@1:9"},
		{"über #ünicode", ""},
		{"unclosed `code #inside", ""},
		{"- bullet #in-list", "in-list@1:10"},
		{"text\n\n    #indented-code\n\n#after", "after@5:1"},
		{"para\n    #lazy-continuation", "lazy-continuation@2:5"},
		{"- item\n\n    #list-paragraph", "list-paragraph@3:5"},
		{"\t#tab-code", ""},
	}
	for _, tt := range tests {
		got := ""
		for i, r := range Refs([]byte(tt.in)) {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%s@%d:%d", r.Slug, r.Line, r.Col)
		}
		if got != tt.want {
			t.Errorf("Refs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// mayHoldRefInputs are texts around the prefilter's edge: headings, issue
// numbers and fragments have a '#', only some have a slug byte after it.
var mayHoldRefInputs = []string{
	"", "#", "# Heading", "## Sub\n\ntext", "#42", "#-", "#a", "x #a1 y",
	"```\n#in-fence\n```", "`#code`", "page#anchor", "#Upper", "end#",
	"## H\n\nbody #ref-here\n", "#\n#\n#x", "\r\n#a\r\n", "#ünicode",
}

// TestMayHoldRef: a text the prefilter rules out has no references, and
// every text with one passes it.
func TestMayHoldRef(t *testing.T) {
	for _, in := range mayHoldRefInputs {
		refs := Refs([]byte(in))
		if !mayHoldRef([]byte(in)) && len(refs) > 0 {
			t.Errorf("mayHoldRef(%q) = false, but Refs finds %v", in, refs)
		}
	}
	for _, in := range []string{"#a", "x #a1 y", "## H\n\nbody #ref-here\n", "#\n#\n#x"} {
		if !mayHoldRef([]byte(in)) {
			t.Errorf("mayHoldRef(%q) = false, want true", in)
		}
	}
	for _, in := range []string{"", "#", "# Heading", "#Upper", "end#", "#ünicode"} {
		if mayHoldRef([]byte(in)) {
			t.Errorf("mayHoldRef(%q) = true, want false (no slug byte after a '#')", in)
		}
	}
}

func FuzzMayHoldRef(f *testing.F) {
	for _, in := range mayHoldRefInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if refs := refsScan([]byte(in)); len(refs) > 0 && !mayHoldRef([]byte(in)) {
			t.Fatalf("mayHoldRef(%q) = false, but the scan finds %v", in, refs)
		}
	})
}
