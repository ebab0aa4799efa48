//go:build unix

package consolidate

import (
	"errors"
	"syscall"
)

// processExists: signal 0 checks a pid without touching the process;
// EPERM means it exists under another user.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
