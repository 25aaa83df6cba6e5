//go:build !unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// runMCPServer runs the server as a child with this process's stdin,
// stdout and stderr, and exits with its status: a system without exec(2)
// cannot hand the process over.
func runMCPServer(path string, args []string) error {
	c := exec.Command(path, args...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ee.ExitCode() < 0 { // killed by a signal
			return exitStatus(exitFailed)
		}
		return exitStatus(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	return nil
}
