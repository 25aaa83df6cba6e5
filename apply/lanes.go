package apply

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxLanes bounds the goroutines one task of an Apply runs on, the
// caller's included (reading the files ahead): the
// machines edapply runs on give a few cores to it at most, and past four
// the lanes wait on the disk and on each other more than they help.
const maxLanes = 4

// lanes is how many goroutines n items are spread on when each goroutine
// should get split items at least: 1 to maxLanes, no more than the cores.
func lanes(n, split int) int { return max(min(runtime.GOMAXPROCS(0), maxLanes, n/split), 1) }

// spread calls fn(k) for every k in [0, n), once each, on the given
// number of new goroutines and on the caller while it calls help. The
// goroutines take the next k as they finish one, so a slow item holds up
// no other. wait returns when the goroutines are done: every k, unless
// fn declines the rest by a flag of its own.
func spread(goroutines, n int, fn func(k int)) (help, wait func()) {
	var next atomic.Int64
	work := func() {
		for {
			k := int(next.Add(1)) - 1
			if k >= n {
				return
			}
			fn(k)
		}
	}
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(work)
	}
	return work, wg.Wait
}
