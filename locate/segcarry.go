package locate

import (
	"sort"
	"strings"
)

// Key lines carried from a segment to the next.
//
// A failure between landings ends the segment (its splices are applied,
// and the ladder reads the content they made), and the next edit starts
// a new segment on that content: scanning every line of it for the
// edits' key lines was a pass over the file per failure. The segment
// that ends knows where those lines stand already: orig's lines no
// splice touched, moved by the splices before them, and the lines about
// its splices, which it reads again in the new content.

// carriedKeys are a flushed segment's key lines in the content its
// splices made: what newSegment would find there, for any edits whose key
// lines the segment indexed.
type carriedKeys struct {
	body           string
	keys           map[uint64][]keyLoc
	nl, crlf, mode int
	read           int // the lines carryKeys read about the splices
}

// carryKeys returns where g's key lines stand in body, the content g's
// splices make; nil for a closed segment, whose content may differ in a
// way the batch does not follow (its line endings, a BOM).
func (g *segment) carryKeys(body string) *carriedKeys {
	if g.closed || g.keys == nil {
		return nil
	}
	ck := &carriedKeys{body: body, keys: make(map[uint64][]keyLoc, len(g.keys)), nl: g.nl + g.cumL(len(g.sp)), crlf: g.crlf, mode: g.mode}
	// The lines a splice touched: from the start of the line its text
	// starts on to the end of the one its text ends on, read in body, and
	// where two such runs meet, as one. Every other line of body is one
	// of orig's that no splice replaced a byte of, or inserted at.
	made := map[uint64][]keyLoc{}
	scanned, line := -1, 0 // the last byte read (its "\n"); the line after it
	for j := range g.sp {
		a := g.cStart(j)
		b := a + g.sp[j].New.len()
		off := lineStartAt(body, a)
		if off <= scanned+1 {
			off = scanned + 1
		} else {
			line = g.zone[j].first + g.cumL(j)
		}
		stop := len(body)
		if k := strings.IndexByte(body[b:], '\n'); k >= 0 {
			stop = b + k
		}
		n := g.keyLinesIn(body, off, stop, line, func(h uint64, kl keyLoc) { made[h] = append(made[h], kl) })
		line += n
		ck.read += n
		scanned = stop
	}
	for h, locs := range g.keys {
		var kept []keyLoc
		for _, kl := range locs {
			nl := len(g.orig)
			if k := strings.IndexByte(g.orig[kl.off:], '\n'); k >= 0 {
				nl = kl.off + k
			}
			// A splice touches the line when it starts at or before its
			// "\n" and ends at or after its start.
			j := sort.Search(len(g.sp), func(j int) bool { return g.sp[j].At > nl })
			if j > 0 && g.sp[j-1].end() >= kl.off {
				continue
			}
			kept = append(kept, keyLoc{kl.line + g.cumL(j), kl.off + g.cumB(j)})
		}
		ck.keys[h] = mergeKeyLocs(kept, made[h])
	}
	return ck
}

// mergeKeyLocs merges a and b, ascending by line and disjoint, into one.
func mergeKeyLocs(a, b []keyLoc) []keyLoc {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	return appendMerged(make([]keyLoc, 0, len(a)+len(b)), a, b, func(x, y keyLoc) bool { return x.line < y.line })
}
