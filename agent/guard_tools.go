package agent

import (
	"regexp"
	"strings"
	"sync"
)

// awkInPlace are the files gawk -i inplace edits, or nil: the operands
// but the program text (when no -f or -e gives it) and var=value ones.
func awkInPlace(args []string) []string {
	inPlace, program := false, false
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := ""
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
			continue
		case a == "-i" || a == "--include" || a == "-f" || a == "--file" || a == "-e" || a == "--source" ||
			a == "-v" || a == "--assign" || a == "-F" || a == "--field-separator" || a == "-E" || a == "--exec" || a == "-l" || a == "--load":
			if i+1 < len(args) {
				i++
				val = args[i]
			}
		case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
			a, val, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-") && len(a) > 2:
			a, val = a[:2], a[2:]
		case strings.HasPrefix(a, "-"):
		default:
			if !isAssignment(a) {
				ops = append(ops, a)
			}
			continue
		}
		switch a {
		case "-i", "--include":
			inPlace = inPlace || strings.HasPrefix(val, "inplace")
		case "-f", "--file", "-e", "--source", "-E", "--exec":
			program = true
		}
	}
	if !inPlace {
		return nil
	}
	if !program && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops
}

// downloadTargets are where curl and wget save what they fetch: -o,
// --output, --output-dir (curl), -O, --output-document, -P,
// --directory-prefix (wget).
func downloadTargets(name string, args []string) []string {
	short, long := "o", []string{"--output", "--output-dir"}
	if name == "wget" {
		short, long = "OP", []string{"--output-document", "--directory-prefix"}
	}
	return optionValues(args, short, long)
}

// extractTargets are the directories tar (extracting) and unzip unpack
// into: -C/--directory and -d, or the working directory.
func extractTargets(name string, args []string) []string {
	if name == "unzip" {
		if hasFlag(args, 'l', "d") || hasFlag(args, 'Z', "d") {
			return nil // a listing
		}
		if d := optionValues(args, "d", nil); len(d) > 0 {
			return d
		}
		return []string{"."}
	}
	extracting := hasLong(args, "--extract") || hasLong(args, "--get") || hasFlag(args, 'x', "CfbFgHKLNTVX")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.ContainsRune(args[0], 'x') {
		extracting = true // the old style: tar xzf x.tgz
	}
	if !extracting {
		return nil
	}
	if d := optionValues(args, "C", []string{"--directory"}); len(d) > 0 {
		return d
	}
	return []string{"."}
}

// patchTargets are what patch changes: the file operand, -o's output and
// -d's directory; nothing for --dry-run. Which files a patch from stdin
// names is not seen (it is input, not the command line).
func patchTargets(args []string) []string {
	if hasLong(args, "--dry-run") {
		return nil
	}
	out := optionValues(args, "od", []string{"--output", "--directory"})
	if ops := operands(args, "iodpBDFrVYzg"); len(ops) > 0 {
		out = append(out, ops[0])
	}
	return out
}

// optionValues are the values of the short options (alone, joined as
// -oFILE, or last in a group as -sSLo FILE) and long options (--name
// VALUE or --name=VALUE) given.
func optionValues(args []string, short string, long []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			for _, l := range long {
				if v, ok := strings.CutPrefix(a, l+"="); ok {
					out = append(out, v)
				} else if a == l && i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte(short, a[j]) < 0 {
				continue
			}
			if j+1 < len(a) {
				out = append(out, a[j+1:])
			} else if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			break
		}
	}
	return out
}

// interpreters and the options that take their inline code.
var interpreters = map[string]string{
	"python": "c", "node": "ep", "nodejs": "ep", "deno": "", "bun": "e", "ruby": "e", "perl": "eE", "php": "r",
}

// inlineCode is the program text of python -c, node -e, ruby -e, perl
// -e and php -r (python3, python3.12 and the like included).
func inlineCode(name string, args []string) (string, bool) {
	if strings.HasPrefix(name, "python") {
		name = "python"
	}
	short, ok := interpreters[name]
	if !ok {
		return "", false
	}
	var long []string
	if name == "node" || name == "nodejs" || name == "bun" {
		long = []string{"--eval", "--print"}
	}
	if name == "deno" && len(args) > 1 && args[0] == "eval" {
		return strings.Join(args[1:], " "), true
	}
	code := optionValues(args, short, long)
	return strings.Join(code, "\n"), len(code) > 0
}

// codePatterns are the patterns codeWrites reads a program with: quoted,
// its string literals; writeCall, its calls and open modes that write a
// file; toStdout, printing to stdout, which is no file write.
type codePatterns struct {
	quoted, writeCall, toStdout *regexp.Regexp
}

// codeRegexps compiles them on first use, not when the program starts
// (every command would pay for them). A once-value set only by its own
// function, never mutable state.
var codeRegexps = sync.OnceValue(func() codePatterns {
	return codePatterns{
		quoted:    regexp.MustCompile(`'([^'\\]*)'|"([^"\\]*)"|` + "`([^`\\\\]*)`"),
		writeCall: regexp.MustCompile(`(?i)write|append|remove|unlink|rename|rmtree|\brm(sync)?\b|rmdir|copy|move|mkdir|touch|truncate|chmod|delete|fileutils|os\.replace|['"](w|a|x|r\+|w\+|a\+)[bt]?\+?['"]`),
		toStdout:  regexp.MustCompile(`(?i)(sys\.|process\.|\$)?std(out|err)\.write|STD(OUT|ERR)\.write`),
	}
})

// codeWrites are the memory paths an interpreter's inline code names as
// string literals when the code also writes a file: a guess from the
// text (a path it computes is not seen; a read next to an unrelated
// write is denied).
func (g Guard) codeWrites(code, cwd string) []string {
	re := codeRegexps()
	if !re.writeCall.MatchString(re.toStdout.ReplaceAllString(code, "")) {
		return nil
	}
	var out []string
	for _, m := range re.quoted.FindAllStringSubmatch(code, -1) {
		lit := m[1] + m[2] + m[3]
		if _, ok := g.memoryPath(lit, cwd, false); ok {
			out = append(out, lit)
		}
	}
	return out
}
