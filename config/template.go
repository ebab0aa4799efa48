package config

import (
	"fmt"
	"strings"
)

const fileHeader = `# git-yoimem settings for this repository. This file is committed and
# shared by everyone who clones the repository. Its syntax is git's config
# syntax, so "git config -f .yoi/config yoimem.search.maxResults 30" edits it.
#
# Each setting is looked up in this order; the first place that sets it wins:
#   1. a command-line flag (-c yoimem.search.maxResults=30)
#   2. git config yoimem.* in any scope git reads, e.g.
#      "git config --global yoimem.search.maxResults 30" for your own
#      settings, which are not committed
#   3. this file
#   4. the built-in default
#
# Every setting is listed below, commented out, with its default. Remove
# the "# " in front of a setting to change it. Counts and sizes are whole
# numbers >= 0 and may end in k, m or g (times 1024); ratios and
# frequencies are numbers >= 0; switches are true or false.
`

// DefaultFileText returns the .yoi/config that git yoimem init writes: a
// header that explains the precedence of the layers, then every key of
// [Keys], commented out with its doc and default, grouped by section.
// Parsing it yields no entries; uncommenting a setting line sets the key
// to its default.
func DefaultFileText() string {
	var b strings.Builder
	b.WriteString(fileHeader)
	section := "\x00"
	for _, k := range Keys() {
		_, sub, key, _ := splitName(k.Name)
		b.WriteString("\n")
		if sub != section {
			section = sub
			if sub == "" {
				b.WriteString("[yoimem]\n")
			} else {
				fmt.Fprintf(&b, "[yoimem %s]\n", quoteValue(sub, true))
			}
		}
		fmt.Fprintf(&b, "\t# %s\n", k.Doc)
		if untrusted(k.Name, "") != "" {
			fmt.Fprintf(&b, "\t# (not in this file: set it with git config %s)\n", k.Name)
			continue
		}
		if k.Default == "" {
			fmt.Fprintf(&b, "\t# %s =\n", key)
		} else {
			fmt.Fprintf(&b, "\t# %s = %s\n", key, quoteValue(k.Default, false))
		}
	}
	return b.String()
}

// quoteValue writes s in git-config syntax, in quotes when it needs them
// (or always, for a subsection name).
func quoteValue(s string, always bool) string {
	needs := always || s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "#;\"\\\n\t\b")
	if !needs {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
	return `"` + r.Replace(s) + `"`
}
