package llm

import (
	"fmt"
	"strings"
)

// splitArgv splits s into words like a POSIX shell, without running one:
// blanks separate words, single quotes keep everything literally, double
// quotes keep everything but a backslash before " \ $ ` or a newline, and
// a backslash outside quotes keeps the next character. Nothing is
// expanded.
func splitArgv(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words, in = append(words, cur.String()), false
				cur.Reset()
			}
		case c == '\\':
			in = true
			if i+1 == len(rs) {
				return nil, fmt.Errorf("argv %q: trailing backslash", s)
			}
			i++
			if rs[i] != '\n' {
				cur.WriteRune(rs[i])
			}
		case c == '\'':
			in = true
			j := indexRune(rs, i+1, '\'')
			if j < 0 {
				return nil, fmt.Errorf("argv %q: unterminated single quote", s)
			}
			cur.WriteString(string(rs[i+1 : j]))
			i = j
		case c == '"':
			in = true
			j, err := readDoubleQuoted(rs, i+1, &cur)
			if err != nil {
				return nil, fmt.Errorf("argv %q: %w", s, err)
			}
			i = j
		default:
			in = true
			cur.WriteRune(c)
		}
	}
	if in {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("argv %q: no command", s)
	}
	return words, nil
}

// readDoubleQuoted copies a double-quoted string starting at rs[i] into
// cur and returns the index of the closing quote.
func readDoubleQuoted(rs []rune, i int, cur *strings.Builder) (int, error) {
	for ; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '"':
			return i, nil
		case c == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`\n", rs[i+1]):
			i++
			if rs[i] != '\n' {
				cur.WriteRune(rs[i])
			}
		default:
			cur.WriteRune(c)
		}
	}
	return 0, fmt.Errorf("unterminated double quote")
}

func indexRune(rs []rune, from int, r rune) int {
	for i := from; i < len(rs); i++ {
		if rs[i] == r {
			return i
		}
	}
	return -1
}

// SplitArgv splits a command: model's argv as the command provider does
// (splitArgv): for the consolidation engine that runs an agent CLI.
func SplitArgv(s string) ([]string, error) { return splitArgv(s) }
