package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// gcFloor is the memory below which a run of the command collects no
// garbage. A small run's heap is a few MiB: collecting it costs more than
// it frees (a tenth of a 50,000-line diff's run).
const gcFloor = 32 << 20

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

// deferGC turns the collector off until the process's memory reaches
// gcFloor (a soft memory limit, which budgetGC raises once the run's size
// is known), and back to Go's default once a collection finds more than
// seven eighths of the limit live: a run whose live data outgrows its
// budget then grows with it as usual, rather than collecting again and
// again at the limit. GOGC or GOMEMLIMIT set in the environment rule
// instead.
func deferGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcMu.Lock()
	defer gcMu.Unlock()
	debug.SetGCPercent(-1)
	gcLimit = gcFloor
	debug.SetMemoryLimit(gcFloor)
	watchGC(func() uint64 { return uint64(gcLimit) / 8 * 7 })
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

// watchGC restores the default collector (GOGC=100, no memory limit)
// after the first collection that leaves more than live() bytes in use
// (live is called with gcMu held). A finalizer on a sentinel runs after
// each collection that finds it unreachable, and sets the next.
func watchGC(live func() uint64) {
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		gcMu.Lock()
		defer gcMu.Unlock()
		if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > live() {
			gcLimit = 0
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			return
		}
		watchGC(live)
	})
}
