package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// saveGC puts the runtime's collector settings and deferGC's state back
// as they were when the test ends.
func saveGC(t *testing.T) {
	prev := debug.SetGCPercent(-1)
	debug.SetGCPercent(prev)
	prevLimit := debug.SetMemoryLimit(-1)
	gcMu.Lock()
	prevGC := gcLimit
	gcMu.Unlock()
	t.Cleanup(func() {
		debug.SetGCPercent(prev)
		debug.SetMemoryLimit(prevLimit)
		gcMu.Lock()
		gcLimit = prevGC
		gcMu.Unlock()
	})
}

// gcPercent reads GOGC without setting it, which a finalizer may do
// meanwhile.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return -2
	}
	if p := s[0].Value.Uint64(); p < math.MaxInt32 {
		return int(p)
	}
	return -1 // off
}

// TestAfterGC: a collection that leaves room under the limit changes
// nothing; one whose heap goal is within a gcThrash-th of the live heap
// hands the collector to GOGC=gcGrowth with no limit, for good.
func TestAfterGC(t *testing.T) {
	saveGC(t)
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
	gcMu.Lock()
	gcLimit = gcFloor
	gcMu.Unlock()

	if !afterGC(8<<20, 16<<20) || gcPercent() != -1 || debug.SetMemoryLimit(-1) != gcFloor {
		t.Fatalf("a collection leaving the heap room to double changed the collector (GOGC %d)", gcPercent())
	}
	if !afterGC(16<<20, 16<<20+1<<20+1) || gcPercent() != -1 {
		t.Fatalf("a collection leaving just over a sixteenth of the live heap handed over (GOGC %d)", gcPercent())
	}
	if !afterGC(0, 0) || gcPercent() != -1 {
		t.Fatal("unknown metrics handed over")
	}
	if afterGC(16<<20, 16<<20+1<<20-1) {
		t.Fatal("a collection leaving less than a sixteenth of the live heap kept the limit")
	}
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != gcGrowth || l != math.MaxInt64 {
		t.Fatalf("after the handover GOGC %d and limit %d; want %d and none", p, l, gcGrowth)
	}
	debug.SetGCPercent(-1)
	if afterGC(16<<20, 16<<20) || gcPercent() != -1 {
		t.Fatal("a collection after the handover changed the collector again")
	}
}

// TestWatchGC: the watch runs after real collections: with the collector
// off and a limit below what the process holds, a collection finds the
// heap crowded and the collector is handed over.
func TestWatchGC(t *testing.T) {
	saveGC(t)
	debug.SetGCPercent(-1)
	live := make([][]byte, 32)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	held := int64(16 << 20)
	gcMu.Lock()
	gcLimit = held
	gcMu.Unlock()
	debug.SetMemoryLimit(held)
	watchGC()
	// The finalizer runs on a goroutine of its own after a collection:
	// collect until it has, a thousand times at most.
	for n, watching := 0, true; watching; n++ {
		if n == 1000 {
			t.Fatal("a thousand collections with the heap over its limit left the collector off")
		}
		runtime.GC()
		runtime.Gosched()
		gcMu.Lock()
		watching = gcLimit != 0
		gcMu.Unlock()
	}
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != gcGrowth || l != math.MaxInt64 {
		t.Fatalf("after the handover GOGC %d and limit %d; want %d and none", p, l, gcGrowth)
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
