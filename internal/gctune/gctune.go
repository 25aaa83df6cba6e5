// Package gctune is the command's tuning of the garbage collector, the one
// place it is set: without it a large apply's peak RSS passes the budget
// docs/performance.md sets (three times the reply and the files it edits;
// see its section "The collector" for the figures). The libraries never
// touch the collector; only a program calls Tune, once at start-up, and
// Budget or BudgetApply as it learns the size of its work.
package gctune

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/edapply/edapply/edit"
)

// gcFloor is the memory below which a run of the command collects no
// garbage: Go's own and what a run of a large diff of one file allocates.
// Collecting a run that small costs more CPU than the memory it frees is
// worth.
const gcFloor = 20 << 20

// gcBudget is how many times the bytes a run holds (the reply and the
// files it edits) its memory may reach before the collector runs, which
// bounds peak RSS by the size of the work rather than by the collector's
// pacing.
const gcBudget = 3

// gcImage is what a run's RSS holds beyond the memory the runtime counts
// against its limit: the program's own code and data as mapped from its
// file, less what the runtime counts but has not touched. The limit leaves
// room for it, so that the peak, not the runtime's share of it, is
// gcBudget times what the run holds.
const gcImage = 2 << 20

// The collector's setting, once Tune made it (gcOwn: not the
// environment's GOGC or GOMEMLIMIT, which rule alone): a soft limit,
// gcLimit, with GOGC off until the first collection and set after each
// (gcGrowing; see growthAt), the limit at the floor given to the runtime
// only until then (setLimit); or GOGC=gcGrowth alone (gcLimit 0) once
// the run's live data outgrew the limit (gcThrashed, the limit
// outgrown). gcMu guards them and the runtime's settings.
var (
	gcMu       sync.Mutex
	gcOwn      bool
	gcLimit    int64
	gcThrashed int64
	// gcAllocated is what the run had allocated (TotalAlloc) at the last
	// collection the limit ruled; 0 before the first.
	gcAllocated uint64
	gcGrowing   bool
)

// gcGrowth is the GOGC the collector runs with once a run has collected:
// the heap grows a quarter past what is live before the next collection
// (or to the limit, if that is less), where Go's default lets it double.
// A run that collects is a large one, where memory freed early is worth a
// few collections more; the limit alone would let the heap grow to it
// however little is live.
const gcGrowth = 25

// growthAt is the GOGC after a collection under the limit that left live
// bytes: gcGrowth, or, where a quarter past what is live stays below
// gcFloor, what grows the heap to the floor, below which no run collects.
// A quarter of a small heap is a collection every few hundred kilobytes
// allocated, each handing back pages that the next step of the work takes
// again.
func growthAt(live uint64) int {
	const most = 1 << 20 // a GOGC whose goal cannot overflow
	if live == 0 {
		return most
	}
	return max(gcGrowth, int(min((gcFloor-min(live, gcFloor))*100/live, most)))
}

// gcThrash is the least a run may allocate between two collections, as a
// fraction (1/gcThrash) of its live heap, before the collector is handed
// to GOGC=gcGrowth alone, without the limit, when the heap crowds the
// limit (see gcCrowd): with less, each collection frees too little to pay
// for itself and the next one follows at once.
const gcThrash = 16

// gcCrowd says when the heap crowds the limit: at a collection, it is
// within a gcCrowd-th of the limit. Below that, collections that follow
// each other closely are the runtime's own memory (its collector's
// metadata, stacks, spans not yet returned) taking room the heap would have,
// and the limit still holds the run within its budget, at the price of
// collections; dropping it would let the heap grow a quarter past what is
// live, beyond the budget. At or above it, the live data itself has
// outgrown the budget, and collecting more often cannot help.
const gcCrowd = 8

// Tune turns the collector off until the process's memory reaches
// gcFloor (a soft memory limit, which Budget raises once the run's size
// is known), sets GOGC beside the limit after each collection (growthAt),
// and drops the limit once a collection follows the one before after less
// than a gcThrash-th of the live heap was allocated while the heap crowds
// the limit (gcCrowd): a run whose live data outgrows its budget then
// grows with it, rather than collecting again and again at the limit. A
// limit at the floor rules only until the first collection (setLimit).
// GOGC or GOMEMLIMIT set in the environment rule instead. The command
// writes no heap profile, so it keeps none: sampling one holds memory on
// a large run.
func Tune() {
	runtime.MemProfileRate = 0
	gcMu.Lock()
	defer gcMu.Unlock()
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcOwn = true
	limitGC(gcFloor)
}

// limitGC sets a soft memory limit of limit bytes, with the collector off
// but at it until the run's first collection, and watches the collections
// it makes. gcMu is held.
func limitGC(limit int64) {
	if !gcGrowing {
		debug.SetGCPercent(-1)
	}
	gcLimit, gcThrashed, gcAllocated = limit, 0, 0
	setLimit()
	watchGC()
}

// setLimit gives the runtime gcLimit as its soft memory limit, unless the
// limit is gcFloor and the run has collected: the floor is where a run
// starts to collect, not a bound to hold it under. A run whose budget is
// below the floor is past it there, and a limit at the floor, which
// counts the runtime's own memory too, would leave its heap a few
// megabytes' room and collect at every step of the work; growthAt paces
// it instead. gcMu is held.
func setLimit() {
	if gcLimit <= gcFloor && gcGrowing {
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(gcLimit)
}

// Budget sets the soft memory limit to gcBudget times held, the bytes
// of the reply and of the files the run edits (or an estimate, until they
// are known), less gcImage, when that is above gcFloor: a large run
// first collects as its memory nears that bound, a small one never. A run
// that outgrew a lower limit (an estimate that proved short, while the
// reply was parsed) is limited again. Nothing changes unless Tune set
// the collector.
func Budget(held int64) {
	gcMu.Lock()
	defer gcMu.Unlock()
	limit := max(gcFloor, min(held, math.MaxInt64/gcBudget)*gcBudget-gcImage)
	switch {
	case !gcOwn:
	case gcLimit > 0:
		gcLimit, gcAllocated = limit, 0
		setLimit()
	case limit > gcThrashed:
		limitGC(limit)
	}
}

// BudgetApply is Budget for an apply of edits in root: the reply and
// the sizes on disk of the regular files the edits name (one that cannot
// be stat'ed counts as empty), not the edits' texts (a diff's are not the
// reply's bytes, but are no part of the work the budget is set by).
func BudgetApply(root string, src []byte, edits []edit.Edit) {
	held := int64(len(src))
	if r, err := os.OpenRoot(root); err == nil {
		seen := map[string]bool{}
		for i := range edits {
			if p := edits[i].Path; !seen[p] {
				seen[p] = true
				if fi, err := r.Stat(p); err == nil && fi.Mode().IsRegular() {
					held += fi.Size()
				}
			}
		}
		r.Close()
	}
	Budget(held)
}

// watchGC calls afterGC after each collection, until it says to stop: a
// finalizer on a sentinel runs after each collection that finds it
// unreachable, and sets the next. The finalizer runs some time after its
// collection, while the run goes on allocating: HeapAlloc then is more
// than the collection left live, so room judged from it and the heap goal
// would hand over a run the limit still suits; the bytes allocated from
// one finalizer to the next are late by as much each time.
func watchGC() {
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if afterGC(m.HeapAlloc, m.TotalAlloc) {
			watchGC()
		}
	})
}

// afterGC sets GOGC after each collection under the limit (growthAt; a
// limit at the floor is the runtime's no more after the first), and,
// under a limit above the floor, drops it once the run allocated less
// than a gcThrash-th of its live heap since the collection before under
// the same limit (allocated is TotalAlloc) and that heap is within a
// gcCrowd-th of the limit. It reports whether the limit still rules, to
// be checked after the next collection.
func afterGC(live, allocated uint64) bool {
	gcMu.Lock()
	defer gcMu.Unlock()
	if gcLimit == 0 {
		return false
	}
	prev := gcAllocated
	gcAllocated = allocated
	if !gcGrowing {
		gcGrowing = true
		setLimit()
	}
	// Only a limit above the floor is the runtime's to crowd.
	crowded := gcLimit > gcFloor && live >= uint64(gcLimit-gcLimit/gcCrowd)
	if prev != 0 && allocated-prev < live/gcThrash && crowded {
		gcThrashed, gcLimit = gcLimit, 0
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(gcGrowth)
		return false
	}
	debug.SetGCPercent(growthAt(live))
	return true
}
