package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// gcFloor is the memory below which a run of the command collects no
// garbage: Go's own 4 MiB and what a run the size of a 500-hunk diff of a
// 50,000-line file allocates, about 15 MiB. Collecting a run that small
// costs more CPU than the memory it frees is worth.
const gcFloor = 20 << 20

// gcBudget is how many times the bytes a run holds (the reply, the files
// it edits) its memory may reach before the collector runs, which bounds
// peak RSS by the size of the work rather than by the collector's pacing.
const gcBudget = 3

// gcLimit is the soft memory limit deferGC set, 0 once the environment or
// the default collector rules; gcMu guards it and the runtime's settings.
var (
	gcMu    sync.Mutex
	gcLimit int64
)

// gcGrowth is the GOGC the collector runs with once a run's live data
// outgrows its budget: the heap grows a quarter past what is live before
// the next collection, where Go's default lets it double.
const gcGrowth = 25

// gcThrash is the least room under the memory limit, as a fraction
// (1/gcThrash) of the live heap, that a collection may leave before the
// collector is handed to GOGC=gcGrowth: with less, each collection frees
// too little to pay for itself and the next one follows at once.
const gcThrash = 16

// deferGC turns the collector off until the process's memory reaches
// gcFloor (a soft memory limit, which budgetGC raises once the run's size
// is known), and hands it to GOGC=gcGrowth once a collection leaves the
// heap less than a gcThrash-th of what is live to grow under the limit: a
// run whose live data outgrows its budget then grows with it, rather than
// collecting again and again at the limit. GOGC or GOMEMLIMIT set in the
// environment rule instead. The command writes no heap profile, so it
// keeps none: sampling one holds a few MiB on a large run.
func deferGC() {
	runtime.MemProfileRate = 0
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcMu.Lock()
	defer gcMu.Unlock()
	debug.SetGCPercent(-1)
	gcLimit = gcFloor
	debug.SetMemoryLimit(gcFloor)
	watchGC()
}

// budgetGC sets the soft memory limit to gcBudget times held, the bytes of
// the reply and of the files the run edits (or an estimate, until they are
// known), when that is above gcFloor: a large run collects only as its
// memory nears that bound, a small one never. Nothing changes once
// deferGC's setting is gone.
func budgetGC(held int64) {
	gcMu.Lock()
	defer gcMu.Unlock()
	if gcLimit == 0 {
		return
	}
	gcLimit = max(gcFloor, min(held, math.MaxInt64/gcBudget)*gcBudget)
	debug.SetMemoryLimit(gcLimit)
}

// watchGC calls afterGC after each collection, until it says to stop: a
// finalizer on a sentinel runs after each collection that finds it
// unreachable, and sets the next. Its heap figures come from
// runtime.ReadMemStats, not runtime/metrics: that package's init alone
// is nearly half the instructions of a call that does nothing, and every
// call pays it, where ReadMemStats costs only a run large enough to
// collect. HeapAlloc just after a collection is what it left live, plus
// the little allocated since, which only makes afterGC hand over sooner.
func watchGC() {
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if afterGC(m.HeapAlloc, m.NextGC) {
			watchGC()
		}
	})
}

// afterGC hands the collector to GOGC=gcGrowth, with no memory limit,
// once a collection leaves the heap a goal (what the limit lets it reach)
// less than a gcThrash-th above what is live. It reports whether deferGC's
// setting still rules, to be checked after the next collection.
func afterGC(live, goal uint64) bool {
	gcMu.Lock()
	defer gcMu.Unlock()
	if gcLimit == 0 {
		return false
	}
	if goal < live+live/gcThrash {
		gcLimit = 0
		debug.SetGCPercent(gcGrowth)
		debug.SetMemoryLimit(math.MaxInt64)
		return false
	}
	return true
}
