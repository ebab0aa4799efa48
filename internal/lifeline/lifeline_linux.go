//go:build linux

package lifeline

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// TieToGit asks the kernel for sig when the parent process dies, if that
// parent is git (its command name is "git"). tied says whether it did;
// gone, that the parent died before the tie was in place (the caller then
// acts as if sig had come).
func TieToGit(sig syscall.Signal) (tied, gone bool) {
	ppid := os.Getppid()
	if ppid <= 1 || !isGit(ppid) {
		return false, false
	}
	// The tie belongs to the thread that asks for it: ask from one that
	// lives as long as the process (Go threads do, once unlocked).
	runtime.LockOSThread()
	err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(sig), 0, 0, 0)
	runtime.UnlockOSThread()
	if err != nil {
		return false, false
	}
	// git may have died between the look and the tie: then we were
	// handed to another parent already, and no signal will come.
	return true, os.Getppid() != ppid
}

// isGit reports whether process pid runs git.
func isGit(pid int) bool {
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return err == nil && strings.TrimSpace(string(comm)) == "git"
}
