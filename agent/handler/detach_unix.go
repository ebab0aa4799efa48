//go:build unix

package handler

import (
	"os/exec"
	"syscall"
)

// detach puts the process in a session of its own.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
