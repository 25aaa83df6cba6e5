// Package shell runs a user's command line with sh -c, the way --check and
// --repair run theirs.
package shell

import (
	"context"
	"os/exec"
)

// Command returns sh -c line, to run in dir. Where the system has process
// groups the command gets one of its own, and cancelling ctx kills the
// whole group: a command that times out or is interrupted takes what it
// started (a compiler, a test binary, a model client) with it, and nothing
// it left running can write into the tree afterwards.
func Command(ctx context.Context, dir, line string) *exec.Cmd {
	c := exec.CommandContext(ctx, "sh", "-c", line)
	c.Dir = dir
	ownGroup(c)
	return c
}
