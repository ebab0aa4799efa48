//go:build !unix

package handler

import "os/exec"

// detach: no sessions here; the process is only not waited for.
func detach(*exec.Cmd) {}
