// Package growth checks, for tests, that the work a function does grows
// linearly with its input. It counts what the function allocates instead
// of timing it: a count does not depend on the machine or its load, and
// the quadratic failures it guards against (a rescan that copies, a
// result rebuilt per item) allocate in proportion to the work they waste.
package growth

import (
	"runtime"
	"testing"
)

// Allocs returns how many heap objects and bytes f allocates. The count
// is the whole process's: nothing else may run meanwhile (no parallel
// test, no goroutine left running).
func Allocs(f func()) (objects, bytes uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// Linear fails t unless run(2) allocates at most two and a half times what
// run(1) does, in objects and in bytes: run(k) must do the task on an
// input k times as large, large enough that fixed costs are small beside
// what it costs per item. A quadratic cost allocates four times as much.
func Linear(t testing.TB, name string, run func(scale int)) {
	t.Helper()
	run(1) // first-use costs (compiled regexps, tables) are no part of the growth
	o1, b1 := Allocs(func() { run(1) })
	o2, b2 := Allocs(func() { run(2) })
	t.Logf("%s: %d objects, %d bytes at scale 1; %d, %d at scale 2", name, o1, b1, o2, b2)
	if o2*2 > o1*5 || b2*2 > b1*5 {
		t.Errorf("%s: doubling the input took %d objects and %d bytes from %d and %d: more than linear",
			name, o2, b2, o1, b1)
	}
}

// SkipUnderRace skips a test whose bound is an absolute count of bytes or
// objects: the race detector's instrumentation allocates on its own.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("allocation bound: measured without the race detector")
	}
}
