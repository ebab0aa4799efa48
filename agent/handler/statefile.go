package handler

import "github.com/yoimem/git-yoimem/internal/smallfile"

// maxStateBytes bounds a status file or a pending job: ours are a few
// hundred bytes; anything far larger is not ours to read whole.
const maxStateBytes = 1 << 20

// readStateFile reads one of the run's own small files (smallfile.Read:
// a regular file, bounded).
func readStateFile(path string) ([]byte, error) { return smallfile.Read(path, maxStateBytes) }
