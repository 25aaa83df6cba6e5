package apply

// Batched planning of one file's run of SEARCH/REPLACE edits: the planner's
// side of locate.Segment, which tells how a batch is provably the same as
// planning edit by edit.

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/locate"
)

// batchables returns batchable of each edit. Judging an edit splits and
// classifies its lines, a microsecond or two each; from 2*judgeSplit edits
// on, the other cores (up to four in all) take a share. The goroutines
// take judgeChunk edits at a time rather than a fixed part each: waking an
// idle core takes 0.1 ms or more on a VM, and the caller judges on
// meanwhile.
func batchables(edits []edit.Edit) []locate.BatchEdit {
	bes := make([]locate.BatchEdit, len(edits))
	var next atomic.Int64
	judge := func() {
		for {
			lo := int(next.Add(judgeChunk)) - judgeChunk
			if lo >= len(edits) {
				return
			}
			for k := lo; k < min(lo+judgeChunk, len(edits)); k++ {
				bes[k] = locate.Batchable(&edits[k])
			}
		}
	}
	var wg sync.WaitGroup
	for range judgeLanes(len(edits)) - 1 {
		wg.Go(judge)
	}
	judge()
	wg.Wait()
	return bes
}

// judgeLanes is how many goroutines batchables judges n edits on.
func judgeLanes(n int) int { return max(min(runtime.GOMAXPROCS(0), 4, n/judgeSplit), 1) }

// judgeSplit is the fewest edits per goroutine batchables starts: some
// 50 µs of work, against a few µs to start and wait for a goroutine (a
// bound chosen, not tuned). judgeChunk is how many a goroutine takes at a
// time.
const judgeSplit, judgeChunk = 32, 8

// batch plans the run of Replace edits to one path that starts at edits[i]
// and returns the position after the last it planned; i when it planned
// none (the caller runs edits[i] itself). The caller has checked ctx for
// edits[i]; for the rest of the run batch stops (after flushing) when ctx
// is done, for the caller to report it.
func (p *planner) batch(ctx context.Context, edits []edit.Edit, src []string, bad []bool, i int) int {
	j := i
	for j < len(edits) && !bad[j] && edits[j].Op == edit.Replace && edits[j].Old != "" && src[j] == src[i] {
		j++
	}
	if j-i < 2 {
		return i // one edit costs the plain path what it costs the batch
	}
	// Reading the file starts its hash on another core. The edits are
	// judged before that when the judging takes the cores itself, and
	// beside the hash when it does not.
	var bes []locate.BatchEdit
	if judgeLanes(j-i) > 1 {
		bes = batchables(edits[i:j])
	}
	s := p.slot(src[i])
	if s.err != nil || !s.cur.exists {
		return i
	}
	if bes == nil {
		bes = batchables(edits[i:j])
	}
	var g *segmentOn
	skip, backoff := 0, 0
	for k := i; k < j; k++ {
		if k > i && ctx.Err() != nil {
			g.flush(true)
			return k
		}
		e := &edits[k]
		be := &bes[k-i]
		if g != nil && g.Closed() {
			g.flush(false)
			g = nil
		}
		if be.OK() && g == nil && skip == 0 {
			g = newSegmentOn(s, bes[k-i:])
			if g == nil {
				// Binary or mixed line endings: the plain path's business,
				// until an edit changes that.
				skip, backoff = nextBackoff(backoff)
			}
		}
		if skip > 0 {
			skip--
		}
		if be.OK() && g != nil {
			// What run does before replace.
			f := p.fileAt(s, e)
			s.by = k
			if loc, ok := g.Try(e, be, p.mopts); ok {
				// Matched in the file's bytes as read is no intermediate
				// content: the receipt's Before holds those anyway.
				p.setMode(f.at, e)
				p.record(f, k, resultOf(loc, sharesMemory(loc.Matched, f.at.orig.data)))
				backoff = 0
				continue
			}
		}
		// The plain path, on the content as the edits so far left it.
		accepted := g != nil && g.Accepted()
		g.flush(false)
		before := s.cur.data
		p.run(k, e, src[k], "")
		if g != nil && (accepted || !sameBytes(before, s.cur.data)) {
			// The content moved on from the segment's. Rebuilding the
			// segment costs a pass over the file; after segments that
			// accepted nothing, wait a growing number of edits first.
			if !accepted {
				skip, backoff = nextBackoff(backoff)
			}
			g = nil
		}
	}
	g.flush(true)
	return j
}

func nextBackoff(b int) (skip, next int) {
	next = min(2*b+1, 64)
	return next, next
}

// sameBytes reports whether a and b are the same slice (not merely equal).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// A segmentOn is a locate.Segment over a slot's content, with the stream
// that hashes what it makes.
type segmentOn struct {
	*locate.Segment
	s  *slot
	hs *hashStream
}

// newSegmentOn starts a segment at s's current content for the edits bes
// judged. It returns nil when the content is binary or its line endings
// are mixed.
func newSegmentOn(s *slot, bes []locate.BatchEdit) *segmentOn {
	if isBinary(s.cur.data) {
		return nil
	}
	body, hasBOM := splitBOM(s.cur.data)
	g := locate.NewSegment(body, hasBOM, bes)
	if g == nil {
		return nil
	}
	on := &segmentOn{Segment: g, s: s}
	if len(body) >= streamMin && runtime.GOMAXPROCS(0) > 1 {
		// Two pieces per splice, the BOM and the rest.
		on.hs = newHashStream(2*len(bes) + 2)
		g.SetStream(on.hs)
	}
	return on
}

// flush applies the accepted splices to the slot's content. g may be nil.
// When runEnds says the run of edits ends here and a splice changed the
// content, the stream's hash is the slot's (s.streamed).
func (g *segmentOn) flush(runEnds bool) {
	if g == nil {
		return
	}
	data := g.Flush(runEnds)
	if data != nil {
		g.s.cur.data = data
	}
	if g.hs != nil {
		if runEnds && data != nil {
			if d := g.hs.finish(); d != nil {
				g.s.streamed, g.s.streamedOf = d, data
			}
		} else {
			g.hs.Stop()
		}
		g.hs = nil
	}
}

// streamMin is the smallest content whose after hash a segment computes
// as it goes (hashStream): some 60 µs of hashing, against a goroutine's
// start.
const streamMin = 128 << 10
