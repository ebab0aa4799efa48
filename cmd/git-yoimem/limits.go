package main

import "github.com/yoimem/git-yoimem/record"

// tooLargeError is a refusal by size (exit 1), with the setting to raise.
func tooLargeError(err error, tl *record.TooLargeError) error {
	hint := "split the record into smaller ones"
	if tl.Path == "" {
		hint = "shorten it"
	}
	if tl.Setting != "" {
		hint += ", or raise " + tl.Setting + " (0: no limit)"
	}
	return &exitError{code: exitFindings, err: err, hints: []string{hint}}
}
