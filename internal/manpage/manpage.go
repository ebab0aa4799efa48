// Package manpage writes a manual page in roff (the man(7) macros) from a
// plain description of a program: its synopsis, options, commands and
// free-form sections. git-yoimem's page is generated this way from its
// command definitions, so that 'git help yoimem' and 'git yoimem --help'
// (which git turns into 'man git-yoimem') say what 'git yoimem help' says.
package manpage

import (
	"fmt"
	"strings"
)

// Page is one manual page.
type Page struct {
	Name    string // git-yoimem
	Section int    // 1
	Source  string // the footer's left part: the program
	Manual  string // the header's centre: "Git Manual"
	Summary string // the NAME line after the dash

	Synopsis    []string // one line each, as typed
	Description string   // Text
	Options     []Option
	Commands    []Command
	Sections    []Section // after COMMANDS: EXIT STATUS, ENVIRONMENT, …
}

// Command is one command of a program with commands.
type Command struct {
	Name        string
	Synopsis    []string
	Summary     string // one line
	Description string // Text
	Options     []Option
}

// Option is a flag: its names as typed (-c, --config), the placeholder
// of its value ("" for a switch), what it does and its default.
type Option struct {
	Names   []string
	Arg     string
	Usage   string
	Default string
}

// Section is a titled Text.
type Section struct {
	Title string
	Text  string
}

// Text is plain text as a command's help prints it: paragraphs separated
// by blank lines, filled when rendered; runs of indented lines (tables,
// examples) are kept line for line.

// Roff renders the page.
func (p Page) Roff() string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s %s \"\" %s %s\n", quote(strings.ToUpper(p.Name)), quote(fmt.Sprint(p.Section)), quote(p.Source), quote(p.Manual))
	// No hyphenation, ragged right: paths, keys and flags stay whole.
	b.WriteString(".nh\n.ad l\n")
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", escape(p.Name), escape(p.Summary))
	if len(p.Synopsis) > 0 {
		b.WriteString(".SH SYNOPSIS\n")
		lines(&b, p.Synopsis)
	}
	if p.Description != "" {
		b.WriteString(".SH DESCRIPTION\n")
		text(&b, p.Description)
	}
	if len(p.Options) > 0 {
		b.WriteString(".SH OPTIONS\n")
		options(&b, p.Options)
	}
	if len(p.Commands) > 0 {
		b.WriteString(".SH COMMANDS\n")
	}
	for _, c := range p.Commands {
		fmt.Fprintf(&b, ".SS %s\n", quote(c.Name))
		lines(&b, c.Synopsis)
		if c.Summary != "" {
			text(&b, c.Summary)
		}
		if c.Description != "" {
			text(&b, c.Description)
		}
		options(&b, c.Options)
	}
	for _, s := range p.Sections {
		fmt.Fprintf(&b, ".SH %s\n", quote(s.Title))
		text(&b, s.Text)
	}
	return b.String()
}

// lines writes lines unfilled.
func lines(b *strings.Builder, ls []string) {
	if len(ls) == 0 {
		return
	}
	b.WriteString(".nf\n")
	for _, l := range ls {
		b.WriteString(line(l) + "\n")
	}
	b.WriteString(".fi\n")
}

func options(b *strings.Builder, opts []Option) {
	for _, o := range opts {
		names := make([]string, len(o.Names))
		for i, n := range o.Names {
			names[i] = `\fB` + escape(n) + `\fR`
		}
		tag := strings.Join(names, ", ")
		if o.Arg != "" {
			tag += ` \fI` + escape(o.Arg) + `\fR`
		}
		usage := o.Usage
		if o.Default != "" {
			usage += " (default: " + o.Default + ")"
		}
		fmt.Fprintf(b, ".TP\n%s\n%s\n", tag, line(usage))
	}
}

// text writes Text: a .PP per paragraph, indented runs unfilled.
func text(b *strings.Builder, s string) {
	for _, para := range strings.Split(strings.Trim(s, "\n"), "\n\n") {
		b.WriteString(".PP\n")
		ls := strings.Split(para, "\n")
		for i := 0; i < len(ls); {
			if !indented(ls[i]) {
				b.WriteString(line(strings.TrimRight(ls[i], " \t")) + "\n")
				i++
				continue
			}
			j := i
			for j < len(ls) && indented(ls[j]) {
				j++
			}
			block(b, ls[i:j])
			i = j
		}
	}
}

func indented(l string) bool {
	return strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
}

// block writes indented lines unfilled, less their common indentation.
func block(b *strings.Builder, ls []string) {
	common := len(ls[0])
	for _, l := range ls {
		common = min(common, len(l)-len(strings.TrimLeft(l, " \t")))
	}
	b.WriteString(".RS 4\n.nf\n")
	for _, l := range ls {
		b.WriteString(line(strings.TrimRight(l[common:], " \t")) + "\n")
	}
	b.WriteString(".fi\n.RE\n")
}

// line is one line of text: escaped, and defused when roff would read it
// as a request (a leading "." or "'").
func line(s string) string {
	s = escape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// escape makes text literal in roff: backslashes print as themselves,
// hyphens as the minus signs that options are typed with, and characters
// beyond ASCII as named by their code point (roff reads bytes, not UTF-8).
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7f:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quote is a macro argument: in double quotes when it has spaces or is
// empty ("" is a literal double quote inside).
func quote(s string) string {
	s = escape(s)
	if s != "" && !strings.ContainsAny(s, " \t\"") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
