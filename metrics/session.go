package metrics

import "errors"

// maxSessionID bounds a session id: it names a journal file.
const maxSessionID = 128

// ErrBadSession is the reason CheckSession gives.
var ErrBadSession = errors.New("a session id is 1 to 128 letters, digits, '.', '_' or '-', beginning with a letter or digit")

// CheckSession reports whether id may name a session's journal file: 1 to
// 128 letters, digits, '.', '_' or '-', beginning with a letter or digit.
// Agents' session ids (UUIDs, rollout names) fit; a path, a dot name, a
// line break or a terminal escape do not.
func CheckSession(id string) error {
	if !fileNameOK(id) {
		return ErrBadSession
	}
	return nil
}

// fileNameOK is the rule of ids that name files (sessions, runs).
func fileNameOK(id string) bool {
	if id == "" || len(id) > maxSessionID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}
