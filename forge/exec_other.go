//go:build !unix

package forge

import "os/exec"

// detach leaves cmd alone: without sessions and process groups,
// cancellation kills the tool only.
func detach(cmd *exec.Cmd) {}
