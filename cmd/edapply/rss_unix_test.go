//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSOf returns the largest resident set a finished process had, in
// bytes; 0 when unknown.
func peakRSSOf(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there, KiB elsewhere
	}
	return int64(ru.Maxrss) << 10
}
