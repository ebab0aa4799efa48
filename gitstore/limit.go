package gitstore

import (
	"errors"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/record"
)

// tooLarge is the refusal of a file over maxRead. Every caller gives the
// snapshots yoimem.lint.maxFileBytes as maxRead, so the error names it;
// the snapshot's Read adds the path (withPath).
func tooLarge(size, maxRead int64) error {
	return &record.TooLargeError{Size: size, Limit: maxRead, Setting: config.KeyLintMaxFileBytes}
}

// tooLargeBlob is tooLarge for a blob not yet known by its path.
func tooLargeBlob(hash string, size, maxRead int64) error {
	return &record.TooLargeError{What: "blob " + hash, Size: size, Limit: maxRead, Setting: config.KeyLintMaxFileBytes}
}

// withPath names the file of a refusal by size.
func withPath(err error, rel string) error {
	var tl *record.TooLargeError
	if errors.As(err, &tl) && tl.Path == "" {
		tl.Path, tl.What = rel, ""
	}
	return err
}
