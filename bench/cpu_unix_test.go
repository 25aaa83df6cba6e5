//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time this process has used, all
// threads (the garbage collector's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS returns the largest resident set a finished command had, in
// bytes; 0 when unknown. It is at least the harness's own resident set
// when the command started: Go starts a command from a child that shares
// its memory until exec (CLONE_VM), and the kernel's peak counts that
// too; a figure near the harness's own size is that floor, not the
// command's.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there, KiB elsewhere
	}
	return int64(ru.Maxrss) << 10
}
