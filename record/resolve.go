package record

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// resolveTag returns the tag the YAML library gives a plain scalar. It
// mirrors go.yaml.in/yaml/v3's resolve() (resolve.go), tags only, so that
// the fast frontmatter parser builds the same nodes; FuzzFastYAML checks
// the two agree.
func resolveTag(in string) string {
	if in == "" {
		return "!!null"
	}
	switch in {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	case "<<":
		return "!!merge"
	}
	switch c := in[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(in, 64); err == nil {
			return "!!float"
		}
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		return resolveNumeric(in)
	}
	return "!!str"
}

var yamlStyleFloat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
})

var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

func resolveNumeric(in string) string {
	if allDigits(in) && len(in) < 19 && (in[0] != '0' || len(in) == 1) {
		return "!!int" // the common case, decided without parsing
	}
	if isTimestamp(in) {
		return "!!timestamp"
	}
	if !maybeNumber(in) {
		return "!!str" // ids like 019c0843-1520-…: no parse attempts, no errors allocated
	}
	plain := strings.ReplaceAll(in, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return "!!int"
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return "!!int"
	}
	if yamlStyleFloat().MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return "!!float"
		}
	}
	for _, p := range []struct {
		prefix string
		base   int
		neg    bool
	}{{"0b", 2, false}, {"-0b", 2, true}, {"0o", 8, false}, {"-0o", 8, true}} {
		if !strings.HasPrefix(plain, p.prefix) {
			continue
		}
		digits := plain[len(p.prefix):]
		if p.neg {
			digits = "-" + digits
		}
		if _, err := strconv.ParseInt(digits, p.base, 64); err == nil {
			return "!!int"
		}
		if !p.neg {
			if _, err := strconv.ParseUint(digits, p.base, 64); err == nil {
				return "!!int"
			}
		}
	}
	return "!!str"
}

// maybeNumber rejects strings no int or float form can match: a sign
// anywhere but first, after an exponent or after a 0b/0o prefix (whose
// digits are parsed on their own, sign allowed), or a byte in no number.
func maybeNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '-' || c == '+':
			if i > 0 && s[i-1] != 'e' && s[i-1] != 'E' && s[i-1] != 'b' && s[i-1] != 'o' {
				return false
			}
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F',
			c == 'x', c == 'X', c == 'o', c == 'O', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// canonicalTime matches 2006-01-02T15:04:05Z exactly, which the first
// timestamp format accepts whenever the fields are in range.
func canonicalTime(s string) bool {
	if len(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z' {
		return false
	}
	for _, r := range [][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		if !allDigits(s[r[0]:r[1]]) {
			return false
		}
	}
	_, err := time.Parse(time.RFC3339, s)
	return err == nil
}

func isTimestamp(s string) bool {
	if canonicalTime(s) {
		return true
	}
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, f := range timestampFormats {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}
