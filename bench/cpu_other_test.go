//go:build !unix

package bench

import (
	"os"
	"time"
)

// cpuTime is not measured here; the cpu-ns/op metric reads 0.
func cpuTime() time.Duration { return 0 }

// peakRSS is not measured here; the peak-rss metrics are left out.
func peakRSS(*os.ProcessState) int64 { return 0 }
