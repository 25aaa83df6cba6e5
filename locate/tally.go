package locate

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// A one-line quote refused with MULTIPLE_MATCHES without a line hint,
// where a place inside a line stands among the first twenty, is answered
// with the count of every place at a line start (matcher.multiple): the
// lines of the current content equal to the quoted one that a line
// ending follows. Walking the key line's index to count them would cost
// every place of the line per refused edit, places × edits in a run, so
// the segment keeps the count instead, once it has walked them for the
// first such edit: each splice it places takes off the lines of its
// zone (the orig lines it newly touches, and the lines of the splices it
// replaces) and adds back the lines it makes.

// A lineTally is the number of places of a one-line needle, text and
// its line ending, in the current content.
type lineTally struct {
	text string // the needle's line, without its "\n"
	n    int
}

// oneLine reports whether needle is a single line and its ending, a
// line of the file the way keyLine and the indexes see it.
func oneLine(needle string) bool {
	return strings.IndexByte(needle, '\n') == len(needle)-1
}

// placesOfLine returns how many places at a line start needle, one line
// and its ending (oneLine) that is indexed, has in the current content:
// the count of allOccurrences, kept from the first asking on. False when
// it cannot be kept (its line's hash names another tally).
func (g *segment) placesOfLine(needle string) (int, bool) {
	line := needle[:len(needle)-1]
	h := lineHash(line)
	if t, ok := g.tallies[h]; ok {
		if t.text != line {
			return 0, false
		}
		return t.n, true
	}
	xs, ok := g.allOccurrences(needle, true, 1<<62)
	if !ok {
		return 0, false
	}
	if g.tallies == nil {
		g.tallies = map[uint64]*lineTally{}
	}
	g.tallies[h] = &lineTally{text: line, n: len(xs)}
	return len(xs), true
}

// tallyLine adds d to the tally of line, if one is kept, when a line
// ending follows it (nl).
func (g *segment) tallyLine(line string, nl bool, d int) {
	g.tallyLines++
	if !nl || !g.maybe.may(line) {
		return
	}
	if t, ok := g.tallies[lineHash(line)]; ok && t.text == line {
		t.n += d
	}
}

// forZoneLinesNL is forZoneLinesIn, telling of each line whether a
// line ending follows it in the current content: every line but the
// zone's last, which ends where orig's line the splice ends in does.
// to, when not math.MaxInt, is a line's start in the text: the last
// line before it is not the zone's last.
func (g *segment) forZoneLinesNL(sp *held, from, to int, fn func(line string, nl bool)) {
	var prev string
	started := false
	g.forZoneLinesIn(sp, from, to, func(l string, _ int) {
		if started {
			fn(prev, true)
		}
		prev, started = l, true
	})
	if started {
		fn(prev, to != math.MaxInt || lineEndAt(g.orig, sp.end()) < len(g.orig))
	}
}

// keptLines are the lines of the splices a merge replaces that it keeps
// as they are (relative to their texts, as forZoneLinesIn takes them):
// those of the first that start before before, and those of the last
// that start at from or after it.
type keptLines struct{ before, from int }

// keepNone keeps no line.
var keepNone = keptLines{before: math.MinInt, from: math.MaxInt}

// untally takes off the tallies the lines that a splice of orig's bytes
// at to end, about to take the place of the splices sp[jlo:jhi] (place),
// removes from the current content: those of the splices it replaces,
// but the ones it keeps, and the orig lines of its zone no splice had
// touched. It runs before the trees of the texts it keeps are cut.
func (g *segment) untally(jlo, jhi, at, end int, kept keptLines) {
	if g.tallies == nil {
		return
	}
	off := func(l string, nl bool) { g.tallyLine(l, nl, -1) }
	for q := jlo; q < jhi; q++ {
		from, to := math.MinInt, math.MaxInt
		if q == jlo {
			from = kept.before
		}
		if q == jhi-1 {
			to = kept.from
		}
		g.forZoneLinesNL(&g.sp[q], from, to, off)
	}
	// orig's lines from the one at is in to the one end is in, but
	// those of the replaced splices' zones, which are whole lines.
	s, end, q := lineStartAt(g.orig, at), lineEndAt(g.orig, end), jlo
	for s <= end {
		if q < jhi && s >= lineStartAt(g.orig, g.sp[q].At) {
			s = lineEndAt(g.orig, g.sp[q].end()) + 1
			q++
			continue
		}
		e := lineEndAt(g.orig, s)
		g.tallyLine(g.orig[s:e], e < len(g.orig), -1)
		s = e + 1
	}
}

// retally adds to the tallies the lines of sp's zone, just placed, that
// start at from or after it and before to: those of the chunk it wrote,
// not the ones it kept of the splices it replaced (untally).
func (g *segment) retally(sp *held, from, to int) {
	if g.tallies != nil {
		g.forZoneLinesNL(sp, from, to, func(l string, nl bool) { g.tallyLine(l, nl, 1) })
	}
}

// Walking a key line's places in orig from the start, as the first
// places of a refused quote are found, passes over the lines splices
// touched since, which would cost the run's splices per refused edit. A
// line a splice touched stays touched for the rest of the segment, so
// the walk skips it for good: skip[i] leads to a later index where
// locs[i] was touched, as in a disjoint-set forest.

// untouchedFrom returns the first index from i of locs (orig's lines,
// ascending) whose line no splice touched, len(locs) for none; skip is
// the walk's forest for locs, made on first use.
func (g *segment) untouchedFrom(skip *[]int32, locs []keyLoc, i int) int {
	if *skip == nil {
		*skip = make([]int32, len(locs)+1)
		for k := range *skip {
			(*skip)[k] = int32(k)
		}
	}
	s := *skip
	r := i
	for r < len(locs) {
		if int(s[r]) != r {
			g.visits++
			r = int(s[r])
			continue
		}
		if !g.touched(locs[r].line, locs[r].line) {
			break
		}
		g.visits++
		s[r] = int32(r + 1)
		r++
	}
	for i != r { // path compression
		next := int(s[i])
		s[i] = int32(r)
		i = next
	}
	return r
}

// keySkip is the skip forest of orig's lines with key line hash key.
func (g *segment) keySkip(key uint64) *[]int32 {
	if g.skips == nil {
		g.skips = map[uint64]*[]int32{}
	}
	s, ok := g.skips[key]
	if !ok {
		s = new([]int32)
		g.skips[key] = s
	}
	return s
}

// liveFrom returns the first index from i on, before hi, of zs, zone
// lines of one key, whose splice still stands, and that splice (live);
// hi for none. The lines
// from i to hi are one sorted run (zoneRuns) or part of one. A line gone
// stays gone, so the walk passes over it once: skip, the key's skip
// forest (entry k is k for a line that may stand, or an index past k
// up to which every line is gone), sends a later walk past every line
// it found gone, never past the run's end, so that re-sorting the lines
// after a run leaves the skips before it true.
func (g *segment) liveFrom(zs []zoneLine, skip []int32, i, hi int) (r, j int) {
	r = i
	for r < hi {
		if int(skip[r]) != r {
			r = int(skip[r])
			continue
		}
		var ok bool
		if j, ok = g.live(zs[r]); ok {
			break
		}
		g.zoneSkips++
		skip[r] = int32(r + 1)
		r++
	}
	for k := i; k < r; { // path compression
		next := int(skip[k])
		skip[k] = int32(r)
		k = next
	}
	return r, j
}

// liveBefore is liveFrom walking towards the start: the last index up
// to i, from lo on, of zs whose splice still stands; lo-1 for none.
// back, the key's skip forest for these walks, has entry k k for a line
// that may stand, or an index below k down to which (not included)
// every line is gone, never below the run's start.
func (g *segment) liveBefore(zs []zoneLine, back []int32, i, lo int) (r, j int) {
	r = i
	for r >= lo {
		if int(back[r]) != r {
			r = int(back[r])
			continue
		}
		var ok bool
		if j, ok = g.live(zs[r]); ok {
			break
		}
		g.zoneSkips++
		back[r] = int32(r - 1)
		r--
	}
	for k := i; k > r; { // path compression
		next := int(back[k])
		back[k] = int32(r)
		k = next
	}
	return r, j
}

// zoneRuns returns the zone lines of key as runs, each standing in the
// order of its lines' places in the current content: then the first
// places among a run are its first live ones, and those near a line are
// found by a binary search in it. Two lines that both stand keep their
// order whatever splices come (a splice is placed between others, never
// across them), so a run stays sorted as lines of it go. The lines made
// since the last call are sorted into a run of their own, and the last
// two runs are merged while the earlier is at most twice as long as the
// later, so that each run is more than twice the next (a logarithmic
// number of runs), or while the later's lines all stand after the
// earlier's, which joins them as they are: lines made in file order
// stay one run, each looked at once.
func (g *segment) zoneRuns(key uint64) []zoneRun {
	zs := g.zones[key]
	if len(zs) == 0 {
		return nil
	}
	if g.zruns == nil {
		g.zruns = map[uint64]*zoneRuns{}
	}
	x := g.zruns[key]
	if x == nil {
		x = &zoneRuns{}
		g.zruns[key] = x
	}
	if n := lastOr(x.ends, 0); n < len(zs) {
		all := zs
		run := g.placedZones(zs[n:])
		slices.SortStableFunc(run, func(p, q placedZone) int { return cmp.Compare(p.at, q.at) })
		// The last run's lines gone at its end go now, so that joining the
		// new run to it does not read them again.
		start := 0
		if len(x.ends) > 1 {
			start = x.ends[len(x.ends)-2]
		}
		for ; n > start; n-- {
			g.zoneSorts++
			if _, ok := g.live(zs[n-1]); ok {
				break
			}
		}
		if len(x.ends) > 0 {
			if x.ends = x.ends[:len(x.ends)-1]; n > start {
				x.ends = append(x.ends, n)
			}
		}
		moved := n // the lines from moved on change places
		zs = appendZones(zs[:n], run)
		ends := append(x.ends, len(zs))
		for len(ends) > 1 {
			lo, mid, hi := 0, ends[len(ends)-2], ends[len(ends)-1]
			if len(ends) > 2 {
				lo = ends[len(ends)-3]
			}
			if !g.zonesAfter(zs[lo:mid], zs[mid:hi]) {
				if mid-lo > 2*(hi-mid) {
					break
				}
				zs = appendZones(zs[:lo], mergePlaced(g.placedZones(zs[lo:mid]), g.placedZones(zs[mid:hi])))
				moved = lo
			}
			ends = append(ends[:len(ends)-2], len(zs))
		}
		clear(all[len(zs):])
		g.zones[key], x.ends = zs, ends
		x.skip, x.back = x.skip[:min(len(x.skip), moved)], x.back[:min(len(x.back), moved)]
		for k := len(x.skip); k < len(zs); k++ {
			x.skip, x.back = append(x.skip, int32(k)), append(x.back, int32(k))
		}
	}
	x.runs = x.runs[:0]
	lo := 0
	for _, hi := range x.ends {
		x.runs, lo = append(x.runs, zoneRun{all: zs, skip: x.skip, back: x.back, base: lo, zs: zs[lo:hi]}), hi
	}
	return x.runs
}

// zoneRuns are the sorted runs of one key's zone lines: ends, where each
// ends, ascending, and skip and back, their skip forests for walks
// forward (liveFrom) and back (liveBefore); runs is room for the runs
// zoneRuns returns, which hold until it is called again.
type zoneRuns struct {
	ends       []int
	skip, back []int32
	runs       []zoneRun
}

// A zoneRun is one sorted run of a key's zone lines (zoneRuns): zs, the
// key's lines, all, from index base on, and their skip forests.
type zoneRun struct {
	all        []zoneLine
	skip, back []int32
	base       int
	zs         []zoneLine
}

// nextLive returns the first index of r.zs from i on whose line stands,
// len(r.zs) for none (liveFrom), and the splice it is a line of.
func (g *segment) nextLive(r zoneRun, i int) (int, int) {
	k, j := g.liveFrom(r.all, r.skip, r.base+i, r.base+len(r.zs))
	return k - r.base, j
}

// prevLive returns the last index of r.zs up to i whose line stands, -1
// for none (liveBefore), and the splice it is a line of.
func (g *segment) prevLive(r zoneRun, i int) (int, int) {
	k, j := g.liveBefore(r.all, r.back, r.base+i, r.base)
	return k - r.base, j
}

// lastOr is s's last element, or, for none, or.
func lastOr(s []int, or int) int {
	if len(s) == 0 {
		return or
	}
	return s[len(s)-1]
}

// A placedZone is a zone line that stands and where it starts in the
// current content.
type placedZone struct {
	at int
	z  zoneLine
}

// placedZones returns the lines of zs that stand, with their places, in
// a new slice.
func (g *segment) placedZones(zs []zoneLine) []placedZone {
	g.zoneSorts += len(zs)
	ps := make([]placedZone, 0, len(zs))
	for _, z := range zs {
		if j, ok := g.live(z); ok {
			ps = append(ps, placedZone{g.zoneStart(j, z), z})
		}
	}
	return ps
}

// mergePlaced merges a and b, each sorted by place, into one.
func mergePlaced(a, b []placedZone) []placedZone {
	return appendMerged(make([]placedZone, 0, len(a)+len(b)), a, b, func(x, y placedZone) bool { return x.at < y.at })
}

// appendMerged appends a and b, each sorted by less, merged, to dst; of
// two equal, a's comes first.
func appendMerged[T any](dst, a, b []T, less func(x, y T) bool) []T {
	for len(a) > 0 && len(b) > 0 {
		if less(b[0], a[0]) {
			dst, b = append(dst, b[0]), b[1:]
		} else {
			dst, a = append(dst, a[0]), a[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// appendZones appends the lines of ps to zs.
func appendZones(zs []zoneLine, ps []placedZone) []zoneLine {
	for _, p := range ps {
		zs = append(zs, p.z)
	}
	return zs
}

// zonesAfter reports whether every line of b that stands stands after
// every one of a (both sorted), so that a and b are one run as they are.
func (g *segment) zonesAfter(a, b []zoneLine) bool {
	last, first := -1, -1
	for i := len(a) - 1; i >= 0 && last < 0; i-- {
		g.zoneSorts++
		if j, ok := g.live(a[i]); ok {
			last = g.zoneStart(j, a[i])
		}
	}
	for i := 0; i < len(b) && first < 0; i++ {
		g.zoneSorts++
		if j, ok := g.live(b[i]); ok {
			first = g.zoneStart(j, b[i])
		}
	}
	return last < 0 || first < 0 || first > last
}

// A quote of two lines or more refused the same way is counted the same
// way, but a place of it is changed by a splice on any of its lines: the
// segment keeps the count of each such quote (a span) it has walked,
// and each change of the current content's bytes takes off the places
// that start on the lines it touches or on the lines before them that a
// place reaching into it starts on, and adds back those it leaves there.
// Only quotes no two of whose places can overlap are kept (apart), so
// that the first places and those nearest a line hint are all the
// answer needs beyond the count; and only a few of them, since every
// change looks at each one's lines.

// maxSpanTallies is how many span counts a segment keeps; quotes
// beyond them are counted by walking their places.
const maxSpanTallies = 8

// A spanTally is the number of places at line starts of a needle of
// two lines or more, each with its ending, in the current content.
type spanTally struct {
	needle string
	n      int
}

// spanTallied reports whether needle, found at line starts, is a span
// the segment may count: two whole lines or more, the last with its
// ending, and no line sequence of it that ends it also starting it, so
// that no two of its places at line starts overlap.
func spanTallied(needle string) bool {
	if !strings.HasSuffix(needle, "\n") || oneLine(needle) {
		return false
	}
	for o := strings.IndexByte(needle, '\n') + 1; o < len(needle); o += strings.IndexByte(needle[o:], '\n') + 1 {
		if strings.HasPrefix(needle, needle[o:]) {
			return false
		}
	}
	return true
}

// placesOf returns how many places at line starts needle, a line
// (oneLine) or a span (spanTallied) that is indexed, has in the current
// content: the count of allOccurrences, kept from the first asking on.
// False when it cannot be kept.
func (g *segment) placesOf(needle string) (int, bool) {
	if oneLine(needle) {
		return g.placesOfLine(needle)
	}
	for _, t := range g.spans {
		if t.needle == needle {
			return t.n, true
		}
	}
	if len(g.spans) == maxSpanTallies {
		return 0, false
	}
	xs, ok := g.allOccurrences(needle, true, 1<<62)
	if !ok {
		return 0, false
	}
	g.spans = append(g.spans, &spanTally{needle: needle, n: len(xs)})
	g.spanLines = max(g.spanLines, strings.Count(needle, "\n"))
	return len(xs), true
}

// spanWindow returns the first line of the current content on which a
// place of a kept span may start and still reach the bytes from x on:
// the line of x, less the lines of the longest span but one.
func (g *segment) spanWindow(x int) int {
	return max(g.lineAt(x)-(g.spanLines-1), 0)
}

// tallySpans adds d to each kept span's count for each of its places
// that starts on the current content's lines from to the line of y.
func (g *segment) tallySpans(from, y, d int) {
	last := g.lineAt(y)
	for c := from; c <= last && c < g.lineCount(); c++ {
		s := g.currentLineStart(c)
		for _, t := range g.spans {
			g.tallyLines++
			if s+len(t.needle) <= g.size() && g.equalAt(s, t.needle) {
				t.n += d
			}
		}
	}
}

// untallySpans takes off the kept spans' places that writing over the
// current content's bytes x to y may change, and returns the line they
// are counted from, for retallySpans once the bytes are written.
func (g *segment) untallySpans(x, y int) int {
	if len(g.spans) == 0 {
		return 0
	}
	from := g.spanWindow(x)
	g.tallySpans(from, y, -1)
	return from
}

// retallySpans adds back the kept spans' places from line from to the
// end of the bytes just written, which now end at y.
func (g *segment) retallySpans(from, y int) {
	if len(g.spans) > 0 {
		g.tallySpans(from, y, 1)
	}
}

// countable reports whether placesOf may count needle: a line, or a
// span it keeps the count of or has room for.
func (g *segment) countable(needle string) bool {
	return oneLine(needle) || len(g.spans) < maxSpanTallies ||
		slices.ContainsFunc(g.spans, func(t *spanTally) bool { return t.needle == needle })
}
