//go:build linux

package forge

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own, without a controlling
// terminal, so no prompt of the tool can wait on the user's terminal, and
// makes cancellation kill its whole process group (the tool's children
// too). It also gets SIGKILL if git-yoimem dies first.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
