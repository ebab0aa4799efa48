package manpage

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"--format", `\-\-format`},
		{`a\b`, `a\eb`},
		{"'quoted' mid", "'quoted' mid"},
		{"a … b — c", `a \[u2026] b \[u2014] c`},
	} {
		if got := escape(tt.in); got != tt.want {
			t.Errorf("escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestText: paragraphs are filled; indented lines are kept as they are;
// a line that roff would take for a request is defused.
func TestText(t *testing.T) {
	in := "First line\nsecond line.\n\nA list:\n   a   one\n   b   two\nafter.\n.dot and 'quote at the start"
	want := `.PP
First line
second line.
.PP
A list:
.RS 4
.nf
a   one
b   two
.fi
.RE
after.
\&.dot and 'quote at the start
`
	var b strings.Builder
	text(&b, in)
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestRender(t *testing.T) {
	p := Page{
		Name: "git-demo", Section: 1, Source: "git-demo", Manual: "Git Manual",
		Summary:     "do a thing",
		Synopsis:    []string{"git demo [-c KEY=VALUE] COMMAND"},
		Description: "Demo does things.",
		Options:     []Option{{Names: []string{"-c", "--config"}, Arg: "KEY=VALUE", Usage: "set a key"}},
		Commands: []Command{{
			Name: "run", Synopsis: []string{"git demo run [--fast] PATH"}, Summary: "run it",
			Description: "Runs PATH.",
			Options:     []Option{{Names: []string{"--fast"}, Usage: "go fast"}, {Names: []string{"--format"}, Arg: "FORMAT", Usage: "text or json", Default: "text"}},
		}},
		Sections: []Section{{Title: "EXIT STATUS", Text: "   0   ok\n   2   bad"}},
	}
	want := `.TH GIT\-DEMO 1 "" git\-demo "Git Manual"
.nh
.ad l
.SH NAME
git\-demo \- do a thing
.SH SYNOPSIS
.nf
git demo [\-c KEY=VALUE] COMMAND
.fi
.SH DESCRIPTION
.PP
Demo does things.
.SH OPTIONS
.TP
\fB\-c\fR, \fB\-\-config\fR \fIKEY=VALUE\fR
set a key
.SH COMMANDS
.SS run
.nf
git demo run [\-\-fast] PATH
.fi
.PP
run it
.PP
Runs PATH.
.TP
\fB\-\-fast\fR
go fast
.TP
\fB\-\-format\fR \fIFORMAT\fR
text or json (default: text)
.SH "EXIT STATUS"
.PP
.RS 4
.nf
0   ok
2   bad
.fi
.RE
`
	if got := p.Roff(); got != want {
		t.Errorf("Roff():\n%s\nwant:\n%s", got, want)
	}
}
