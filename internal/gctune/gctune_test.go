package gctune

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// saveGC puts the runtime's collector settings and Tune's state back
// as they were when the test ends.
func saveGC(t *testing.T) {
	prev := debug.SetGCPercent(-1)
	debug.SetGCPercent(prev)
	prevLimit := debug.SetMemoryLimit(-1)
	gcMu.Lock()
	prevOwn, prevGC, prevThrashed, prevAllocated, prevGrowing := gcOwn, gcLimit, gcThrashed, gcAllocated, gcGrowing
	gcMu.Unlock()
	t.Cleanup(func() {
		debug.SetGCPercent(prev)
		debug.SetMemoryLimit(prevLimit)
		gcMu.Lock()
		gcOwn, gcLimit, gcThrashed, gcAllocated, gcGrowing = prevOwn, prevGC, prevThrashed, prevAllocated, prevGrowing
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

// goalOf is the heap goal GOGC sets for a heap of live bytes.
func goalOf(live uint64) uint64 { return live + live*uint64(gcPercent())/100 }

// TestAfterGC: a collection under a limit above the floor sets
// GOGC=gcGrowth beside it, or, for a heap a quarter past which would stay
// below gcFloor, the GOGC that grows it to the floor; a collection after
// the run allocated more than a gcThrash-th of its live heap since the one
// before keeps the limit, and so does one after less while the heap is
// below a gcCrowd-th of the limit; one after less with the heap within it
// drops the limit, until Budget sets a higher one (TestBudgetGC).
func TestAfterGC(t *testing.T) {
	saveGC(t)
	const limit = 2 * gcFloor
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	gcMu.Lock()
	gcOwn, gcLimit, gcAllocated, gcGrowing = true, limit, 0, false
	gcMu.Unlock()

	const crowded = limit - limit/gcCrowd // the least heap that crowds the limit
	const live = crowded
	if !afterGC(live, 100<<20) || gcPercent() != gcGrowth || debug.SetMemoryLimit(-1) != limit {
		t.Fatalf("after the first collection GOGC %d and limit %d; want %d and %d", gcPercent(), debug.SetMemoryLimit(-1), gcGrowth, limit)
	}
	const small = 1 << 20
	if !afterGC(small, 100<<20+small) || debug.SetMemoryLimit(-1) != limit {
		t.Fatal("a collection that left a small heap dropped the limit")
	}
	if g := goalOf(small); g < gcFloor-small/100 || g > gcFloor {
		t.Fatalf("the goal of a %d-byte heap is %d; want the floor, %d", small, g, gcFloor)
	}
	if !afterGC(live, 100<<20+small+live/gcThrash+1) || gcPercent() != gcGrowth || debug.SetMemoryLimit(-1) != limit {
		t.Fatal("a collection after just over a sixteenth of the live heap was allocated dropped the limit")
	}
	if !afterGC(0, 200<<20) || debug.SetMemoryLimit(-1) != limit {
		t.Fatal("an empty heap dropped the limit")
	}
	if !afterGC(crowded-1, 200<<20+1) || debug.SetMemoryLimit(-1) != limit {
		t.Fatal("a collection soon after the one before, the heap just short of crowding the limit, dropped the limit")
	}
	if afterGC(live, 200<<20+live/gcThrash) {
		t.Fatal("a collection after less than a sixteenth of the live heap was allocated, the heap crowding the limit, kept the limit")
	}
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != gcGrowth || l != math.MaxInt64 {
		t.Fatalf("after the handover GOGC %d and limit %d; want %d and none", p, l, gcGrowth)
	}
	gcMu.Lock()
	thrashed := gcThrashed
	gcMu.Unlock()
	if thrashed != limit {
		t.Fatalf("the handover remembered the limit %d; want %d, the one outgrown", thrashed, limit)
	}
	debug.SetGCPercent(-1)
	if afterGC(live, 300<<20) || gcPercent() != -1 {
		t.Fatal("a collection after the handover changed the collector again")
	}
}

// TestFloorGC: a limit at the floor holds until the run's first
// collection, and then the heap is paced alone, growing to the floor or a
// quarter past what is live; a budget above the floor limits it again.
func TestFloorGC(t *testing.T) {
	saveGC(t)
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
	gcMu.Lock()
	gcOwn, gcLimit, gcAllocated, gcGrowing = true, gcFloor, 0, false
	gcMu.Unlock()
	Budget(1 << 20)
	if l := debug.SetMemoryLimit(-1); l != gcFloor {
		t.Fatalf("before the first collection the limit is %d; want the floor, %d", l, gcFloor)
	}
	const live = 4 << 20
	if !afterGC(live, 100<<20) || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Fatalf("after the first collection the limit is %d; want none", debug.SetMemoryLimit(-1))
	}
	if g := goalOf(live); g < gcFloor-live/100 || g > gcFloor {
		t.Fatalf("the goal of a %d-byte heap is %d; want the floor, %d", live, g, gcFloor)
	}
	// Collections that follow each other closely at the floor hand
	// nothing over: no limit rules.
	afterGC(gcFloor, 100<<20+1)
	afterGC(gcFloor, 100<<20+2)
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != gcGrowth || l != math.MaxInt64 {
		t.Fatalf("a heap at the floor: GOGC %d and limit %d; want %d and none", p, l, gcGrowth)
	}
	Budget(1 << 20)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Fatalf("a budget below the floor after the first collection set the limit %d", l)
	}
	Budget(100 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(gcBudget*100<<20-gcImage); got != want {
		t.Fatalf("limit %d for a 100 MiB run after the first collection; want %d", got, want)
	}
}

// TestWatchGC: the watch runs after real collections: with the collector
// off and a limit below what the process holds, a collection finds the
// heap crowded and the collector is handed over.
func TestWatchGC(t *testing.T) {
	saveGC(t)
	debug.SetGCPercent(-1)
	live := make([][]byte, 40)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	held := int64(gcFloor + 8<<20) // a limit at the floor rules only until the first collection
	gcMu.Lock()
	gcOwn, gcLimit, gcAllocated, gcGrowing = true, held, 0, false
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

// TestBudgetGC: the soft limit is gcBudget times the run's bytes less
// gcImage, never below gcFloor. Where Tune did not set the collector
// (GOGC or GOMEMLIMIT in the environment) nothing changes; after a
// handover, a budget above the limit the run outgrew limits it again, one
// at or below it does not.
func TestBudgetGC(t *testing.T) {
	saveGC(t)
	limit := func() int64 { return debug.SetMemoryLimit(-1) } // -1 reads it
	set := func(own bool, lim, thrashed int64, percent int) {
		gcMu.Lock()
		gcOwn, gcLimit, gcThrashed, gcGrowing = own, lim, thrashed, percent == gcGrowth
		gcMu.Unlock()
		debug.SetGCPercent(percent)
		if lim == 0 {
			lim = math.MaxInt64
		}
		debug.SetMemoryLimit(lim)
	}
	defer set(false, 0, 0, 100) // stops the watch Budget may start

	set(true, gcFloor, 0, -1)
	Budget(1 << 20)
	if got := limit(); got != gcFloor {
		t.Fatalf("limit %d for a 1 MiB run; want the floor %d", got, gcFloor)
	}
	Budget(100 << 20)
	if got := limit(); got != gcBudget*100<<20-gcImage {
		t.Fatalf("limit %d for a 100 MiB run; want %d", got, gcBudget*100<<20-gcImage)
	}
	Budget(math.MaxInt64)
	if got := limit(); got <= gcBudget*100<<20 {
		t.Fatalf("limit %d for a huge run; want it raised, not wrapped", got)
	}

	set(false, 0, 0, 100) // GOGC or GOMEMLIMIT in the environment
	Budget(100 << 20)
	if got, p := limit(), gcPercent(); got != math.MaxInt64 || p != 100 {
		t.Fatalf("limit %d and GOGC %d under the environment's setting; want none and 100", got, p)
	}

	outgrown := int64(gcBudget*40<<20 - gcImage)
	set(true, 0, outgrown, gcGrowth) // handed over at a 40 MiB run's limit
	Budget(40 << 20)
	if got, p := limit(), gcPercent(); got != math.MaxInt64 || p != gcGrowth {
		t.Fatalf("limit %d and GOGC %d after a budget no higher than the one outgrown; want none and %d", got, p, gcGrowth)
	}
	Budget(60 << 20)
	if got, p := limit(), gcPercent(); got != gcBudget*60<<20-gcImage || p != gcGrowth {
		t.Fatalf("limit %d and GOGC %d after a budget above the one outgrown; want %d and %d", got, p, gcBudget*60<<20-gcImage, gcGrowth)
	}
}

// TestBudgetApply: the budget of an apply counts the reply and the files
// the edits name, once each, not the edits' texts, which a diff's parse
// builds beside the reply.
func TestBudgetApply(t *testing.T) {
	saveGC(t)
	gcMu.Lock()
	gcOwn, gcLimit, gcThrashed = true, gcFloor, 0
	gcMu.Unlock()
	src := make([]byte, 30<<20)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a"), make([]byte, 10<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	edits := []edit.Edit{
		{Op: edit.Replace, Path: "a", Old: strings.Repeat("x", 20<<20), New: strings.Repeat("y", 25<<20)},
		{Op: edit.Replace, Path: "a", Old: "x", New: "y"},
		{Op: edit.Create, Path: "new", New: "n\n"},
	}
	BudgetApply(root, src, edits)
	if got, want := debug.SetMemoryLimit(-1), int64(gcBudget*40<<20-gcImage); got != want {
		t.Fatalf("limit %d for a 30 MiB reply over 10 MiB of files; want %d", got, want)
	}
}
