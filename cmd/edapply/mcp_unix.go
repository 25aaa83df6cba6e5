//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// runMCPServer replaces this process by the server, so that the client's
// stdin, stdout and signals are the server's, with no edapply in between.
// It returns only when the exec failed.
func runMCPServer(path string, args []string) error {
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	return fmt.Errorf("run %s: %w", path, err)
}
