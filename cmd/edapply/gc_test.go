package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestWatchGC: with the collector off, watchGC turns it back on after a
// collection that finds more than its bound live, and not before.
func TestWatchGC(t *testing.T) {
	prev := debug.SetGCPercent(-1)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(prev)
		debug.SetMemoryLimit(prevLimit)
	}()
	gcPercent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	settle := func() {
		for range 3 {
			runtime.GC()
			time.Sleep(10 * time.Millisecond) // the finalizer runs on its own goroutine
		}
	}

	watchGC(1 << 40)
	settle()
	if p := gcPercent(); p != -1 {
		t.Fatalf("GC percent %d after collections with little live; want it still off (-1)", p)
	}

	live := make([][]byte, 32)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	watchGC(16 << 20)
	settle()
	if p := gcPercent(); p != 100 {
		t.Fatalf("GC percent %d after a collection with 32 MiB live; want 100", p)
	}
	runtime.KeepAlive(live)
}
