//go:build unix && !linux

package gitstore

// openNoFollow opens path refusing a symlink at its last component; the
// listing, which never descends into symlinked directories, guards the rest.
func openNoFollow(path string) (int, error) { return openLastNoFollow(path) }
