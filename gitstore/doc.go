// Package gitstore is git-yoimem's access to git: locating the repository,
// snapshots of .yoi/ from the working tree, the index and any revision
// (objects read here, bounded by their declared sizes), commits to the
// memory branch, the pre-push walk, and the merge guard.
//
// Git is driven through its own plumbing where go-git falls short; every
// command runs through a Git value, the one seam for exec.
package gitstore
