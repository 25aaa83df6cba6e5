package locate

// Rung 7, line-hint, and a diff's anchors: where the edit says it goes.

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/edapply/edapply/edit"
)

// hintWindow is how far (in lines) a line hint may be from the match it
// picks: a hunk's own length, at least 8. Diff line numbers drift by the
// lines earlier hunks add; farther than a hunk away the hint is stale and
// picks nothing.
func hintWindow(oldLines int) int { return max(8, oldLines) }

// nearestFirst returns hits ordered by their distance from the 1-based
// line, in file order among equals.
func nearestFirst(hits []hit, line int) []hit {
	hs := slices.Clone(hits)
	slices.SortStableFunc(hs, func(a, b hit) int {
		return cmp.Compare(abs(a.first+1-line), abs(b.first+1-line))
	})
	return hs
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pickByHint picks the hit starting nearest the 1-based line hint when it
// is within window lines and strictly nearer than every other.
func pickByHint(hits []hit, hint, window int) (hit, bool) {
	best, bestD, second := -1, 1<<30, 1<<30
	for i, h := range hits {
		d := h.first + 1 - hint
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD, second = i, d, bestD
		} else if d < second {
			second = d
		}
	}
	if best < 0 || bestD > window || second <= bestD {
		return hit{}, false
	}
	return hits[best], true
}

// anchors finds e's anchor lines in order and returns the 0-based line
// after the last, where the search for the old text starts.
func (f *finder) anchors(anchors []string) (int, *edit.Error) {
	from := 0
	for _, a := range anchors {
		t := strings.TrimSpace(a)
		if t == "" {
			continue
		}
		lines := f.lineIndex()
		found := -1
		for _, lv := range []level{levelIndent, levelUnicode} {
			pat := prepLine(lv, t)
			for k := from; k < len(lines); k++ {
				if lineEq(lv, f.content[lines[k].start:lines[k].end], pat) {
					found = k
					break
				}
			}
			if found >= 0 {
				break
			}
		}
		if found < 0 {
			return 0, errAnchorNotFound(t)
		}
		from = found + 1
	}
	return from, nil
}

// A hinted MULTIPLE_MATCHES of a quote of whole lines lists the places
// nearest its line hint and counts every one; walking them all to sort
// them by their distance from the hint would cost every place of the
// line per refused edit. The segment keeps the count (placesOf), and the
// places nearest the hint are found by walking orig's lines of the key
// from the hinted line both ways, passing over those splices touched for
// good, and through the lines splices made.

// hintedPlaces returns, for needle, whole lines with their endings no
// two of whose places overlap (oneLine, spanTallied), whose places at
// line starts are asked for, the limit places nearest the 1-based line
// hint, ordered as nearestFirst orders every place, and the first two
// places and the last in the current content; lastLine gives a place's
// last line from its first. False when needle is not indexed or stands
// at fewer than two places.
func (g *segment) hintedPlaces(needle string, hint, limit int, lastLine func(first int) int) (near []hit, first, second, last hit, ok bool) {
	best, locs, keyOff, ok := g.indexed(needle, true)
	if !ok {
		return nil, hit{}, hit{}, hit{}, false
	}
	hitAt := func(x, c int) hit {
		return hit{start: x, end: x + len(needle), first: c, last: lastLine(c), cmp: levelExact}
	}
	placeAt := func(x int) (hit, bool) {
		g.visits++
		if x < 0 || x+len(needle) > g.size() || !g.equalAt(x, needle) || !g.startsLine(x) {
			return hit{}, false
		}
		return hitAt(x, g.lineAt(x)), true
	}
	keyLines := strings.Count(needle[:keyOff], "\n")
	origAt := func(i int) (hit, bool) {
		x, c, ok, plain := g.origPlace(locs[i], needle, keyOff, keyLines, true)
		if !plain {
			return placeAt(x)
		}
		g.visits++
		if !ok {
			return hit{}, false
		}
		return hitAt(x, c), true
	}
	zoned := g.zonedNear(best, keyOff, hint, limit, placeAt)
	fw, bw := g.keySkip(best), g.keyBackSkip(best)
	// next returns the first place of orig's lines from index *i on,
	// walking up or down, and moves *i past it.
	next := func(i *int, up bool) (hit, bool) {
		for {
			if up {
				*i = g.untouchedFrom(fw, locs, *i)
			} else {
				*i = g.untouchedBefore(bw, locs, *i)
			}
			if *i < 0 || *i >= len(locs) {
				return hit{}, false
			}
			h, ok := origAt(*i)
			if up {
				*i++
			} else {
				*i--
			}
			if ok {
				return h, true
			}
		}
	}
	// orig's places walked from index i on (up) or back (down), at most n.
	walk := func(i, n int, up bool, out []hit) []hit {
		for range n {
			h, ok := next(&i, up)
			if !ok {
				break
			}
			out = append(out, h)
		}
		return out
	}
	ordered := append(walk(0, 2, true, nil), walk(len(locs)-1, 1, false, nil)...)
	ordered = append(ordered, zoned...)
	byStart := func(a, b hit) int { return cmp.Compare(a.start, b.start) }
	slices.SortFunc(ordered, byStart)
	ordered = slices.CompactFunc(ordered, func(a, b hit) bool { return a.start == b.start })
	if len(ordered) < 2 {
		return nil, hit{}, hit{}, hit{}, false
	}
	// The places of orig's lines from the hinted one on stand at or
	// after it in the current content, those before it before it; a
	// place's key line stands as many lines after its first as in needle.
	at := g.origLine(hint-1+strings.Count(needle[:keyOff], "\n"), true)
	from := sort.Search(len(locs), func(i int) bool { return locs[i].line >= at })
	// The two walks, each away from the hint, merged by distance: the
	// nearer first, and at equal distance the one before the hint, as
	// nearestFirst's file order has it.
	up, down := from, from-1
	hu, okU := next(&up, true)
	hd, okD := next(&down, false)
	dist := func(h hit) int { return abs(h.first + 1 - hint) }
	near = make([]hit, 0, limit+len(zoned))
	for len(near) < limit && (okU || okD) {
		if okD && (!okU || dist(hd) <= dist(hu)) {
			near = append(near, hd)
			hd, okD = next(&down, false)
		} else {
			near = append(near, hu)
			hu, okU = next(&up, true)
		}
	}
	near = append(near, zoned...)
	slices.SortFunc(near, func(a, b hit) int {
		return cmp.Or(cmp.Compare(abs(a.first+1-hint), abs(b.first+1-hint)), byStart(a, b))
	})
	return near[:min(len(near), limit)], ordered[0], ordered[1], ordered[len(ordered)-1], true
}

// zonedNear returns the places on lines splices made, of the key line
// whose hash is best, at keyOff in the needle, that the answer may
// need: in each of their sorted runs (zoneRuns), the first two, the
// last, and the limit before and after the 1-based line hint, found by
// a binary search. placeAt gives the place whose key line starts at x.
func (g *segment) zonedNear(best uint64, keyOff, hint, limit int, placeAt func(x int) (hit, bool)) []hit {
	var out []hit
	for _, r := range g.zoneRuns(best) {
		zs := r.zs
		// walk collects up to n places from index i on, stepping by step,
		// past the lines gone at once.
		walk := func(i, step, n int) {
			for k := 0; k < n && i >= 0 && i < len(zs); i += step {
				var j int
				if step > 0 {
					i, j = g.nextLive(r, i)
				} else {
					i, j = g.prevLive(r, i)
				}
				if i < 0 || i == len(zs) {
					return
				}
				if h, ok := placeAt(g.zoneStart(j, zs[i]) - keyOff); ok {
					out = append(out, h)
					k++
				}
			}
		}
		// The first index whose line stands at or after the hinted line.
		from := g.zoneFrom(r, func(j int, z zoneLine) bool { return g.lineAt(g.zoneStart(j, z)-keyOff)+1 >= hint })
		walk(0, 1, 2)
		walk(len(zs)-1, -1, 1)
		walk(from, 1, limit)
		walk(from-1, -1, limit)
	}
	slices.SortFunc(out, func(a, b hit) int { return cmp.Compare(a.start, b.start) })
	return slices.CompactFunc(out, func(a, b hit) bool { return a.start == b.start })
}

// zoneFrom returns the first index of r's lines of a line for which
// atOrAfter, a predicate false before some line and true from it on,
// holds; len(r.zs) for none. A line gone is read as the next live one
// after it.
func (g *segment) zoneFrom(r zoneRun, atOrAfter func(j int, z zoneLine) bool) int {
	return sort.Search(len(r.zs), func(i int) bool {
		i, j := g.nextLive(r, i)
		return i == len(r.zs) || atOrAfter(j, r.zs[i])
	})
}

// untouchedBefore returns the last index up to i of locs (orig's lines,
// ascending) whose line no splice touched, -1 for none: untouchedFrom
// walking towards the start, skip its forest, whose entry k+1 stands for
// locs[k] and 0 for none.
func (g *segment) untouchedBefore(skip *[]int32, locs []keyLoc, i int) int {
	if *skip == nil {
		*skip = make([]int32, len(locs)+1)
		for k := range *skip {
			(*skip)[k] = int32(k)
		}
	}
	s := *skip
	r := i + 1
	for r > 0 {
		if int(s[r]) != r {
			g.visits++
			r = int(s[r])
			continue
		}
		if !g.touched(locs[r-1].line, locs[r-1].line) {
			break
		}
		g.visits++
		s[r] = int32(r - 1)
		r--
	}
	for k := i + 1; k != r; { // path compression
		next := int(s[k])
		s[k] = int32(r)
		k = next
	}
	return r - 1
}

// keyBackSkip is the skip forest of orig's lines with key line hash key
// for the walks towards the start (untouchedBefore).
func (g *segment) keyBackSkip(key uint64) *[]int32 {
	if g.backSkips == nil {
		g.backSkips = map[uint64]*[]int32{}
	}
	s, ok := g.backSkips[key]
	if !ok {
		s = new([]int32)
		g.backSkips[key] = s
	}
	return s
}
