package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// gcFloor is the heap below which a run of the command collects no
// garbage. A run is short and its heap a few times the bytes it touches:
// collecting before that costs more than it frees (a tenth of a
// 50,000-line diff's run).
const gcFloor = 128 << 20

// deferGC turns the collector off until the heap reaches gcFloor (a soft
// memory limit), and back to Go's default once a collection finds more
// than half of gcFloor live: a huge run's heap then grows with its live
// data as usual, rather than being held at the floor by collection after
// collection. GOGC or GOMEMLIMIT set in the environment rule instead.
func deferGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
	watchGC(gcFloor / 2)
}

// watchGC restores the default collector (GOGC=100, no memory limit)
// after the first collection that leaves more than live bytes in use. A
// finalizer on a sentinel runs after each collection that finds it
// unreachable, and sets the next.
func watchGC(live uint64) {
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > live {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			return
		}
		watchGC(live)
	})
}
