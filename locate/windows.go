package locate

import (
	"sort"
	"strings"
)

// The places of quotes whose key line stands too often to walk.
//
// A segment finds a quote's places through its key line, walking every
// place of that line in orig and in the zones: cheap while the key line
// is rare, but a quote made only of common lines (`}`, `return nil`,
// a test table's rows) that stands together once walks thousands of
// places at every edit, edits times the file. Such a quote is found
// instead through a window of its whole lines, hashed as one: orig's
// windows with the hash of some quote of the run, found in one pass over
// orig per window length, and the windows over lines the splices made,
// hashed as each splice is placed. A current place of the quote has its
// window either on orig's lines no splice touched (the first index) or
// over a line a splice made, hashed when the last splice that made one
// of its lines was placed (the second): every place is among them, and
// each is checked against the current content.

// walkPlaces is the most places of a key line occurrences walks; a
// quote of two whole lines or more whose key line stands more often is
// found by its window, once walkFirst of them did not hold it twice.
// Variables, so that tests can send every quote through windows.
var walkPlaces, walkFirst = 64, 8

// maxWindow is the most whole lines of a quote its window hashes: its
// first ones.
const maxWindow = 16

// A windowIndex holds, for each window length made, the hashes of the
// run's quotes' windows, and the places of windows with those hashes.
type windowIndex struct {
	lineHashes []uint64                // of orig's lines, "\r" cut
	want       map[int]map[uint64]bool // window length → hashes of the run's quotes
	orig       map[uint64][]int32      // hash → orig's first lines of windows with it, ascending
	zone       map[uint64][]zoneWindow // hash → windows over lines splices made
	longest    int                     // the longest window length made
}

// A zoneWindow is a window that holds the zone line z, back lines after
// its first.
type zoneWindow struct {
	z    zoneLine
	back int
}

// windowHash is the hash of a window of the lines hs.
func windowHash(hs []uint64) uint64 {
	h := uint64(len(hs)) * 0x9e3779b97f4a7c15
	for _, x := range hs {
		h = (h^x)*0x100000001b3 + 0xc2b2ae3d27d4eb4f
	}
	return h
}

// wholeLines returns the whole lines of needle (as forWholeLines finds
// them, "\r" cut), the first maxWindow of them, and the offset of the
// first in needle; none when it has fewer than two.
func wholeLines(needle string, lineStart bool) (lines []string, off int) {
	off = -1
	forWholeLines(needle, lineStart, func(l string, o int) {
		if len(lines) < maxWindow {
			if off < 0 {
				off = o
			}
			lines = append(lines, strings.TrimSuffix(l, "\r"))
		}
	})
	if len(lines) < 2 {
		return nil, 0
	}
	return lines, off
}

// hashLines is the windowHash of lines.
func hashLines(lines []string) uint64 {
	hs := make([]uint64, len(lines))
	for i, l := range lines {
		hs[i] = lineHash(l)
	}
	return windowHash(hs)
}

// windows returns the segment's window index, making it first: the
// hashes of the run's quotes whose key line stands too often to walk,
// orig's windows with them, found in one pass per window length, and
// those over the lines the splices so far made, read once for every
// length. Made at a quote's first need, not at each length's: the
// splices before it are read once however many lengths the quotes have.
func (g *segment) windows() *windowIndex {
	if g.wins != nil {
		return g.wins
	}
	w := &windowIndex{want: map[int]map[uint64]bool{}, orig: map[uint64][]int32{}, zone: map[uint64][]zoneWindow{}}
	for _, e := range g.run {
		nd, lineStart := needle(strings.ReplaceAll(e.Old, "\r\n", "\n"), g.mode), LineOriented(e)
		lines, _ := wholeLines(nd, lineStart)
		if lines == nil {
			continue
		}
		// A quote whose key line stands at walkPlaces or fewer is walked,
		// never windowed (occurrences).
		if best, _, _, ok := g.indexed(nd, lineStart); !ok || len(g.keys[best])+len(g.zones[best]) <= walkPlaces {
			continue
		}
		want := w.want[len(lines)]
		if want == nil {
			want = map[uint64]bool{}
			w.want[len(lines)] = want
		}
		want[hashLines(lines)] = true
		w.longest = max(w.longest, len(lines))
	}
	g.wins = w
	if len(w.want) == 0 {
		return w
	}
	lines := g.f.lineIndex()
	w.lineHashes = make([]uint64, len(lines))
	for i, l := range lines {
		w.lineHashes[i] = lineHash(g.orig[l.start:l.end])
	}
	for n, want := range w.want {
		g.scans++
		for i := 0; i+n <= len(w.lineHashes); i++ {
			if h := windowHash(w.lineHashes[i : i+n]); want[h] {
				w.orig[h] = append(w.orig[h], int32(i))
			}
		}
	}
	// The splices so far made their lines: the current content's lines
	// are hashed in one pass, rather than read about each splice.
	cur := g.currentLineHashes()
	for j := range g.sp {
		var zs []zoneLine
		g.forZoneLines(&g.sp[j], func(_ string, rel int) { zs = append(zs, g.zoneLineOf(j, rel)) })
		if len(zs) > 0 {
			first := g.zoneLineNumber(j, zs[0])
			lo, hi := w.about(first, first+len(zs)-1, len(cur))
			w.addZone(zs, first, lo, cur[lo:hi+1])
		}
	}
	return w
}

// windowLineHash is the hash a window takes of line: its lineHash, "\r"
// cut.
func windowLineHash(line string) uint64 { return lineHash(strings.TrimSuffix(line, "\r")) }

// currentLineHashes are the lineHash of each line of the current
// content, "\r" cut, in order.
func (g *segment) currentLineHashes() []uint64 {
	hs := make([]uint64, 0, g.lineCount())
	var part []byte // the bytes of a line begun in an earlier piece
	g.each(0, g.size(), func(t string) {
		for {
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				part = append(part, t...)
				return
			}
			if len(part) > 0 {
				part = append(part, t[:i]...)
				hs = append(hs, windowLineHash(string(part)))
				part = part[:0]
			} else {
				hs = append(hs, windowLineHash(t[:i]))
			}
			t = t[i+1:]
		}
	})
	if len(part) > 0 {
		hs = append(hs, windowLineHash(string(part)))
	}
	return hs
}

// zoneLines are lines a splice's placing wrote, in order, and their
// hashes ("\r" cut).
type zoneLines struct {
	zs []zoneLine
	hs []uint64
}

func (zl *zoneLines) add(z zoneLine, line string) {
	zl.zs = append(zl.zs, z)
	zl.hs = append(zl.hs, windowLineHash(line))
}

// addZoneWindows records the windows made over the lines of sp[j] its
// placing wrote. Only the lines about them are read, once for every
// length: the written ones' hashes came with them.
func (g *segment) addZoneWindows(j int, written *zoneLines) {
	w, zs := g.wins, written.zs
	if w == nil || len(zs) == 0 || len(w.want) == 0 {
		return
	}
	first := g.zoneLineNumber(j, zs[0])
	last := first + len(zs) - 1
	lo, hi := w.about(first, last, g.lineCount())
	hs := make([]uint64, hi-lo+1)
	for c := lo; c <= hi; c++ {
		if c >= first && c <= last {
			hs[c-lo] = written.hs[c-first]
			continue
		}
		l, _ := g.currentLine(c)
		hs[c-lo] = lineHash(l)
		g.windowReads++
	}
	w.addZone(zs, first, lo, hs)
}

// about is the current lines a window of a length made may take beside
// the lines first to last, of count.
func (w *windowIndex) about(first, last, count int) (lo, hi int) {
	return max(first-w.longest+1, 0), min(last+w.longest-1, count-1)
}

// addZone records the windows of every length made that hold one of
// zs, zone lines that are the current lines from first on; hs are the
// hashes of the current lines from lo on, about them.
func (w *windowIndex) addZone(zs []zoneLine, first, lo int, hs []uint64) {
	last, hi := first+len(zs)-1, lo+len(hs)-1
	for k, want := range w.want {
		for s := max(first-k+1, lo); s+k-1 <= hi && s <= last; s++ {
			if h := windowHash(hs[s-lo : s-lo+k]); want[h] {
				r := max(s, first) // the window's first line of zs
				w.zone[h] = append(w.zone[h], zoneWindow{z: zs[r-first], back: r - s})
			}
		}
	}
}

// windowOccurrences is occurrences for a needle of n whole lines, the
// first at off, whose window hash h the index w holds: the places of the
// window, checked by add, which stops them at two.
func (g *segment) windowOccurrences(w *windowIndex, h uint64, n, off int, add func(x int) bool) {
	ls := g.f.lineIndex()
	for _, L := range w.orig[h] {
		if g.touched(int(L), int(L)+n-1) {
			continue // over a line a splice made: a zone window
		}
		o := int(ls[L].start)
		if add(o + g.cumB(g.before(o)) - off) {
			return
		}
	}
	for _, zw := range w.zone[h] {
		j, ok := g.live(zw.z)
		if !ok {
			continue
		}
		if add(g.currentLineStart(g.zoneLineNumber(j, zw.z)-zw.back) - off) {
			return
		}
	}
}

// keyLocAt is the occurrence key of a place whose key line starts at x
// of the current content: orig's line of key locs where it stands
// untouched, else a zone line's (line -1), as occurrences' walks give.
func (g *segment) keyLocAt(x int, locs []keyLoc) keyLoc {
	j := g.spliceAt(x)
	if j < len(g.sp) && x >= g.cStart(j) {
		return keyLoc{line: -1}
	}
	o := x - g.cumB(j)
	i := sort.Search(len(locs), func(i int) bool { return locs[i].off >= o })
	if i < len(locs) && locs[i].off == o && !g.touched(locs[i].line, locs[i].line) {
		return locs[i]
	}
	return keyLoc{line: -1}
}
