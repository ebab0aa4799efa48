//go:build !linux

package lifeline

import "syscall"

// TieToGit does nothing here: only Linux can ask for a signal when the
// parent dies.
func TieToGit(sig syscall.Signal) (tied, gone bool) { return false, false }
