//go:build !unix

package apply

import "os/exec"

// ownGroup does nothing where there are no process groups: cancelling c
// kills the shell alone.
func ownGroup(c *exec.Cmd) {}
