//go:build linux

package llm

import (
	"os/exec"
	"syscall"
)

// killGroup starts cmd in its own process group and makes cancellation kill
// the group. The child also gets SIGKILL if we die first (a SIGKILL of our
// own cannot be caught): no model call outlives the run that wanted it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
