package record

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"strconv"
)

// BlobID is the git object name of a blob holding content, as
// `git hash-object` computes it in a SHA-1 repository. The memory tools
// give it with every read and take it back as the version a write
// expects to replace.
func BlobID(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// ErrChanged is wrapped by a write refused because its file is no longer
// what the writer read: someone else changed it in between.
var ErrChanged = errors.New("changed since it was read")
