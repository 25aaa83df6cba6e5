//go:build unix

package bench

import (
	"os"
	"syscall"
)

// raise sends s to this process, whose handler for it is gone: the default
// action ends the run, as the signal would have without the handler.
func raise(s os.Signal) {
	_ = syscall.Kill(os.Getpid(), s.(syscall.Signal))
}
