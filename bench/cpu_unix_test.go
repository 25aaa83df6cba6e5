//go:build unix

package bench

import (
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
