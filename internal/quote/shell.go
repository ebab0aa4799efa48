package quote

import "strings"

// shellSafe are the bytes a word may hold and be printed bare for sh.
const shellSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-=:,@%+"

// Shell quotes s as one word for a POSIX shell: bare when it holds only
// letters, digits and _./-=:,@%+ (and is not empty), else in single
// quotes, each ' written as '\”. A printed command then runs as written.
func Shell(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellLine quotes each word with Shell and joins them with spaces.
func ShellLine(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Shell(w)
	}
	return strings.Join(q, " ")
}
