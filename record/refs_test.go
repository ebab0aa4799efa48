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
