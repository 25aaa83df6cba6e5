//go:build unix

package apply

import (
	"os/exec"
	"syscall"
)

// ownGroup puts c in a process group of its own and makes cancelling c
// kill the whole group, so that a check that times out or is interrupted
// takes what it started (a compiler, a test binary) with it: nothing it
// left running can write into the tree after the files are restored.
// cmd/edapply's fixer does the same.
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
}
