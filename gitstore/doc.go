// Package gitstore is git-yoimem's access to git: locating the repository,
// snapshots of .yoi/ from the working tree (and, later, from the index and
// from revisions), and commits to the memory branch.
//
// Git is driven through its own plumbing where go-git falls short; every
// command runs through a Git value, the one seam for exec.
package gitstore
