//go:build !unix

package llm

import "os/exec"

// killGroup leaves cmd alone: without process groups, cancellation kills
// the process only.
func killGroup(cmd *exec.Cmd) {}
