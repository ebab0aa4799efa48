package gitstore

import (
	"bytes"
	"testing"
)

// TestParseCacheTreeDepth: a cache tree nested deeper than any path git
// can hold is refused (the index is then read without it), not followed
// down a recursion as deep as the file is long; one as deep as a real
// path can be is read.
func TestParseCacheTreeDepth(t *testing.T) {
	nested := func(levels int) []byte {
		// each node: name, NUL, "-1 1\n" (invalid, one subtree); the last
		// has no subtree
		var b bytes.Buffer
		for i := 0; i < levels; i++ {
			sub := "1"
			if i == levels-1 {
				sub = "0"
			}
			b.WriteString("a\x00-1 " + sub + "\n")
		}
		return b.Bytes()
	}
	if _, _, err := parseCacheTree(nested(maxCacheTreeDepth + 1)); err != nil {
		t.Errorf("a cache tree %d levels deep: %v, want it read", maxCacheTreeDepth+1, err)
	}
	if tree, _, err := parseCacheTree(nested(maxCacheTreeDepth + 2)); err == nil {
		t.Errorf("a cache tree %d levels deep was read (root %q), want an error", maxCacheTreeDepth+2, tree.name)
	}
}
