package gitstore

import "testing"

func TestAttributeEdits(t *testing.T) {
	const line = ".yoi/**/*.md merge=yoimem"
	tests := []struct {
		name, in, added string
	}{
		{"missing file", "", line + "\n"},
		{"user lines kept", "*.png binary\n", "*.png binary\n" + line + "\n"},
		{"no final newline", "*.png binary", "*.png binary\n" + line + "\n"},
		{"CRLF", "*.png binary\r\n", "*.png binary\r\n" + line + "\r\n"},
		{"already there", "a\n" + line + "\nb\n", "a\n" + line + "\nb\n"},
	}
	for _, tt := range tests {
		got, _ := AddAttribute([]byte(tt.in), line)
		if string(got) != tt.added {
			t.Errorf("%s: add gave %q, want %q", tt.name, got, tt.added)
		}
		again, changed := AddAttribute(got, line)
		if changed || string(again) != string(got) {
			t.Errorf("%s: a second add changed %q into %q", tt.name, got, again)
		}
		back, found := RemoveAttribute(got, line)
		want := tt.in
		if tt.name == "no final newline" {
			want = "*.png binary\n" // the line break added before our line stays
		}
		if tt.name == "already there" {
			want = "a\nb\n"
		}
		if !found || string(back) != want {
			t.Errorf("%s: remove gave %q (found %t), want %q", tt.name, back, found, want)
		}
	}
	if got := AttributesLine("sub/dir"); got != "sub/dir/.yoi/**/*.md merge=yoimem" {
		t.Errorf("AttributesLine(sub/dir) = %q", got)
	}
}
