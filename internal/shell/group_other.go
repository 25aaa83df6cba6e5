//go:build !unix

package shell

import "os/exec"

// ownGroup does nothing where there are no process groups: cancelling
// kills the shell alone.
func ownGroup(c *exec.Cmd) {}
