package annotate

import (
	"fmt"
	"io"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
)

// GitHub writes one workflow command per finding:
//
//	::error file=PATH,line=L,col=C,title=RULE::MESSAGE
//
// (::warning for warnings), escaped as the Actions toolkit escapes them,
// so that no path or message can end a command early or forge another.
// path maps a finding to its path from the repository root.
func GitHub(w io.Writer, findings []lint.Finding, path func(lint.Finding) string) error {
	var b strings.Builder
	for _, f := range findings {
		fmt.Fprintf(&b, "::%s file=%s", f.Severity, escapeProperty(path(f)))
		if f.Line > 0 { // a finding on the whole file (or .yoi/) has no line
			fmt.Fprintf(&b, ",line=%d", f.Line)
			if f.Col > 0 {
				fmt.Fprintf(&b, ",col=%d", f.Col)
			}
		}
		fmt.Fprintf(&b, ",title=%s::%s\n", escapeProperty(f.Rule), escapeData(f.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a command's message as @actions/core's escapeData.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property's value as @actions/core's
// escapeProperty: the message's escapes, and ':' and ',' that would end
// the value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// GitHubCommand is one workflow command on no file: level is error,
// warning or notice, title and message are escaped.
func GitHubCommand(level, title, message string) string {
	return "::" + level + " title=" + escapeProperty(title) + "::" + escapeData(message) + "\n"
}
