//go:build unix

package shell

import (
	"os/exec"
	"syscall"
)

// ownGroup starts c in a process group of its own, which cancelling kills.
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
}
