package sharedperm

import (
	"errors"
	"strings"
)

// octal reads value as C's strtol(value, &end, 8) does, and reports
// whether all of it was read (*end == 0): leading white space, a sign,
// octal digits. An empty value is 0.
func octal(value string) (int, bool) {
	s := strings.TrimLeft(value, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	n, digits := 0, 0
	for ; digits < len(s) && s[digits] >= '0' && s[digits] <= '7'; digits++ {
		if n < 1<<40 {
			n = n*8 + int(s[digits]-'0')
		}
	}
	if digits == 0 {
		return 0, value == "" // no digits: strtol ends where it began
	}
	if neg {
		n = -n
	}
	return n, digits == len(s)
}

// parseBool is git's git_config_bool: true, yes, on; false, no, off and
// the empty value (any case); otherwise an integer as git_parse_int reads
// it (C's base-0 prefixes, a k, m or g unit), true when not zero.
func parseBool(value string) (bool, error) {
	switch strings.ToLower(value) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off", "":
		return false, nil
	}
	n, ok := cInteger(value)
	if !ok {
		return false, errors.New("not a boolean or a number")
	}
	return n != 0, nil
}

// cInteger reads value as git_parse_signed does: strtoimax(value, &end,
// 0) followed by nothing or one unit letter (k, m, g, either case).
func cInteger(value string) (int64, bool) {
	s := strings.TrimLeft(value, " \t\n\v\f\r")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	base, digits := 10, s
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") && isDigit(s[2], 16):
		base, digits = 16, s[2:]
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	var n int64
	i := 0
	for ; i < len(digits) && isDigit(digits[i], base); i++ {
		if n < 1<<50 {
			n = n*int64(base) + int64(digitValue(digits[i]))
		}
	}
	if i == 0 {
		return 0, false
	}
	switch strings.ToLower(digits[i:]) {
	case "", "k", "m", "g":
		return n, true
	}
	return 0, false
}

func isDigit(c byte, base int) bool {
	v := digitValue(c)
	return v >= 0 && v < base
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
