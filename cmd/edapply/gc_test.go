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

	watchGC(func() uint64 { return 1 << 40 })
	settle()
	if p := gcPercent(); p != -1 {
		t.Fatalf("GC percent %d after collections with little live; want it still off (-1)", p)
	}

	live := make([][]byte, 32)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	watchGC(func() uint64 { return 16 << 20 })
	settle()
	if p := gcPercent(); p != 100 {
		t.Fatalf("GC percent %d after a collection with 32 MiB live; want 100", p)
	}
	runtime.KeepAlive(live)
}

// TestBudgetGC: the soft limit is gcBudget times the run's bytes, never
// below gcFloor, and untouched once the collector is Go's own again.
func TestBudgetGC(t *testing.T) {
	prevLimit := debug.SetMemoryLimit(-1)
	gcMu.Lock()
	prev := gcLimit
	gcMu.Unlock()
	defer func() {
		debug.SetMemoryLimit(prevLimit)
		gcMu.Lock()
		gcLimit = prev
		gcMu.Unlock()
	}()
	limit := func() int64 { return debug.SetMemoryLimit(-1) } // -1 reads it

	gcMu.Lock()
	gcLimit = gcFloor
	gcMu.Unlock()
	debug.SetMemoryLimit(gcFloor)
	budgetGC(1 << 20)
	if got := limit(); got != gcFloor {
		t.Fatalf("limit %d for a 1 MiB run; want the floor %d", got, gcFloor)
	}
	budgetGC(100 << 20)
	if got := limit(); got != gcBudget*100<<20 {
		t.Fatalf("limit %d for a 100 MiB run; want %d", got, gcBudget*100<<20)
	}
	budgetGC(math.MaxInt64)
	if got := limit(); got <= gcBudget*100<<20 {
		t.Fatalf("limit %d for a huge run; want it raised, not wrapped", got)
	}

	gcMu.Lock()
	gcLimit = 0 // the environment, or the default collector, rules
	gcMu.Unlock()
	debug.SetMemoryLimit(math.MaxInt64)
	budgetGC(100 << 20)
	if got := limit(); got != math.MaxInt64 {
		t.Fatalf("limit %d after the default collector took over; want none", got)
	}
}
