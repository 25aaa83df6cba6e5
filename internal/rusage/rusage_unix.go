//go:build unix

// Package rusage reads what the kernel counted of a finished process,
// for the tests and benchmarks that bound a command's memory.
package rusage

import (
	"os"
	"runtime"
	"syscall"
)

// PeakRSS returns the largest resident set a finished process had, in
// bytes; 0 when unknown. For a process Go started it is at least the
// starting process's own resident set at that moment: Go starts a command
// from a child that shares its memory until exec (CLONE_VM), and the
// kernel's peak counts that too.
func PeakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there, KiB elsewhere
	}
	return int64(ru.Maxrss) << 10
}
