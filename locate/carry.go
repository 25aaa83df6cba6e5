package locate

// Indexes carried across a content's splices.
//
// A failing edit reads the content's per-line indexes (loose keys, spaced
// keys, the token postings of candidate votes). When edits land between
// failures, every failure sees a new content, and building those indexes
// afresh would key every line of the file once per failure: quadratic in
// a reply of blocks that alternately land and fail. Instead the finder of
// the new content is made from the old one and the splices between them
// (carried): a line no splice touched keeps what was derived from it, at
// its new number; only the lines the splices made are keyed. What a
// carried index holds is what an index built on the new content would
// hold, entry for entry (TestCarriedIndexes), so no answer changes.
//
// Moving an index still reads it whole (a copy of its arrays, each line
// number mapped): linear in the file at the speed of a copy, as the copy
// of the content the splices make is, but no line is keyed again.

import (
	"cmp"
	"slices"
)

// carriedPostings is how many lines of a token a token index keeps (its
// last ones): twice what a vote needs (keptPostings), so that an index
// carried across splices that took some of a common token's lines still
// holds at least keptPostings of its last lines, and the rare carry that
// would not is built afresh instead. Any run of a token's last lines at
// least keptPostings long answers a vote as keptPostings of them do.
const carriedPostings = 2 * keptPostings

// A lineMap says what became of a content's lines under its splices.
type lineMap struct {
	lines    []lineSpan // the new content's
	oldToNew []int32    // an old line's new number; -1 for a line a splice touched
	made     [][2]int   // the new lines no old line became, as runs [lo, hi), ascending
}

// each calls fn for each line the splices made, ascending.
func (m *lineMap) each(fn func(k int)) {
	for _, r := range m.made {
		for k := r[0]; k < r[1]; k++ {
			fn(k)
		}
	}
}

// madeLines is how many lines the splices made.
func (m *lineMap) madeLines() int {
	n := 0
	for _, r := range m.made {
		n += r[1] - r[0]
	}
	return n
}

// A resize is what carrying needs of a splice: where it starts and the
// bytes it replaces and writes, not its text, which the content holds.
type resize struct{ at, old, new int }

func (r resize) end() int { return r.at + r.old }

// resizesOf are the resizes of sp.
func resizesOf(sp []Splice) []resize {
	rs := make([]resize, len(sp))
	for i, x := range sp {
		rs[i] = resize{x.At, len(x.Old), len(x.New)}
	}
	return rs
}

// mapLines maps old, the lines of a content of oldLen bytes, through sp,
// splices of it (ascending, disjoint), to the lines of content, the
// result. A line is touched by a splice that replaces any byte of it or
// of its line ending, or that inserts at its start (or, for a last line
// without a line ending, at its end); the new lines between untouched
// ones are indexed from content.
func mapLines(old []lineSpan, oldLen int, sp []resize, content string) lineMap {
	m := lineMap{lines: make([]lineSpan, 0, len(old)+8), oldToNew: make([]int32, len(old))}
	// past is where a line stops being one a splice at or after it leaves
	// alone: its end, one more for a last line without a line ending (an
	// insertion there joins it).
	past := func(k int) int {
		if old[k].end == old[k].next {
			return int(old[k].next) + 1
		}
		return int(old[k].next)
	}
	startOf := func(k int) int {
		if k < len(old) {
			return int(old[k].start)
		}
		return oldLen
	}
	i, bd := 0, 0 // the next old line; the bytes the splices so far added
	keep := func(to int) {
		for ; i < to; i++ {
			l := old[i]
			m.oldToNew[i] = int32(len(m.lines))
			d := int32(bd) // a content past maxContent is refused before any index
			m.lines = append(m.lines, lineSpan{l.start + d, l.end + d, l.next + d})
		}
	}
	for j := 0; j < len(sp); {
		x := sp[j]
		from := i
		for from < len(old) && past(from) <= x.at {
			from++
		}
		keep(from)
		start := startOf(i) + bd
		// The splices from j on that touch the lines from i on, up to the
		// first line none of them touches.
		for {
			for i < len(old) && int(old[i].start) <= x.end() {
				m.oldToNew[i] = -1
				i++
			}
			bd += x.new - x.old
			j++
			// Past the last line (or in an empty content) the rest are
			// one run: the text they make need not end a line.
			if j == len(sp) || i < len(old) && sp[j].at >= past(i-1) {
				break
			}
			x = sp[j]
		}
		end := startOf(i) + bd
		lo := len(m.lines)
		for _, l := range indexLines(content[start:end]) {
			d := int32(start)
			m.lines = append(m.lines, lineSpan{l.start + d, l.end + d, l.next + d})
		}
		if len(m.lines) > lo {
			m.made = append(m.made, [2]int{lo, len(m.lines)})
		}
	}
	keep(len(old))
	return m
}

// carried returns a finder over content, old's content with sp applied,
// with what old had derived from its lines moved to their new numbers and
// derived afresh only for the lines the splices made. The indexes old had
// not made are made on demand, as for any finder.
func carried(old *finder, sp []resize, content string) *finder {
	f := newFinder(content)
	f.keyed = old.keyed
	if !old.indexed {
		return f
	}
	m := mapLines(old.lines, len(old.content), sp, content)
	f.lines, f.indexed = m.lines, true
	made := m.madeLines()
	line := func(k int) string { return content[f.lines[k].start:f.lines[k].end] }
	if old.keys != nil {
		f.keys = carryKeys(old.keys, &m, func(k int) uint64 { return looseKey(line(k)) })
		f.keyBits = keyBitsOf(f.keys)
		*f.keyed += made
		if old.keyPost != nil {
			f.keyPost = &postings{byKey: carryOrder(old.keyPost.byKey, f.keys, &m), keyOf: f.keys}
		}
	}
	if old.spacedOrder != nil {
		f.spacedKeys = carryKeys(old.spacedKeys, &m, func(k int) uint64 { return spacedKey(line(k)) })
		f.spacedOrder = carryOrder(old.spacedOrder, f.spacedKeys, &m)
		*f.keyed += made
	}
	if old.wordPost != nil {
		f.wordPost, f.wordCount, f.wordCut = carryPostings(old.wordPost, old.wordCut, old.wordCount, &m, func(k int, dst []uint64) []uint64 { return lineWords(line(k), dst) })
		*f.keyed += made
	}
	// The trigram index serves only the second pass of candidates, which
	// few failures need: it is carried when one asks (carryTrigrams).
	switch {
	case old.triPost != nil:
		f.triFrom = &carrySource{from: &finder{triPost: old.triPost, triCount: old.triCount, triCut: old.triCut}, m: &m}
	case old.triFrom != nil:
		f.triFrom = &carrySource{from: old.triFrom.from, m: composeMaps(old.triFrom.m, &m)}
	}
	if old.slips != nil {
		f.slips, _, f.slipCut = carryPostings(old.slips, old.slipCut, nil, &m, func(k int, dst []uint64) []uint64 { return shortLineSlips(line(k), dst) })
		*f.keyed += made
	}
	return f
}

// A carrySource is an index of an earlier content not carried yet: from
// holds it (only its fields are set, so that the content is not kept),
// and m maps the earlier content's lines to the finder's.
type carrySource struct {
	from *finder
	m    *lineMap
}

// carryTrigrams carries the trigram index from f.triFrom, if any.
func (f *finder) carryTrigrams() {
	src := f.triFrom
	if src == nil || f.triPost != nil {
		return
	}
	f.triFrom = nil
	lines := f.lineIndex()
	f.triPost, f.triCount, f.triCut = carryPostings(src.from.triPost, src.from.triCut, src.from.triCount, src.m, func(k int, dst []uint64) []uint64 {
		return lineTrigrams(f.content[lines[k].start:lines[k].end], dst)
	})
	*f.keyed += src.m.madeLines()
}

// composeMaps returns the lineMap of m1's splices and then m2's: the
// lines of m1's content that neither touched, at their numbers in m2's,
// and every other line of m2's content as made.
func composeMaps(m1, m2 *lineMap) *lineMap {
	m := &lineMap{lines: m2.lines, oldToNew: make([]int32, len(m1.oldToNew))}
	hit := make([]bool, len(m2.lines))
	for a, b := range m1.oldToNew {
		c := int32(-1)
		if b >= 0 {
			c = m2.oldToNew[b]
		}
		m.oldToNew[a] = c
		if c >= 0 {
			hit[c] = true
		}
	}
	for k := 0; k < len(hit); {
		if hit[k] {
			k++
			continue
		}
		lo := k
		for k < len(hit) && !hit[k] {
			k++
		}
		m.made = append(m.made, [2]int{lo, k})
	}
	return m
}

// carryKeys returns the key of each new line: an old line's, moved, or
// keyOf's for a line the splices made.
func carryKeys(old []uint64, m *lineMap, keyOf func(k int) uint64) []uint64 {
	keys := make([]uint64, len(m.lines))
	for i, k := range m.oldToNew {
		if k >= 0 {
			keys[k] = old[i]
		}
	}
	m.each(func(k int) { keys[k] = keyOf(k) })
	return keys
}

// keyBitsOf is looseKeys' bit set of keys, for a content of len(keys)
// lines.
func keyBitsOf(keys []uint64) []uint64 {
	bits := 1 << 12
	for bits < 16*len(keys) {
		bits <<= 1
	}
	set := make([]uint64, bits/64)
	for _, h := range keys {
		b := h & uint64(bits-1)
		set[b/64] |= 1 << (b % 64)
	}
	return set
}

// carryOrder returns the new lines ordered by their key (keys) and then
// by number, as old ordered the old lines: the untouched lines keep their
// order (their numbers all move the same way between splices), and the
// lines the splices made are put in their places by a binary search.
func carryOrder(old []int32, keys []uint64, m *lineMap) []int32 {
	byKey := func(a, b int32) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	kept := make([]int32, 0, len(m.lines))
	for _, l := range old {
		if k := m.oldToNew[l]; k >= 0 {
			kept = append(kept, k)
		}
	}
	if len(kept) == len(m.lines) {
		return kept
	}
	made := make([]int32, 0, m.madeLines())
	m.each(func(k int) { made = append(made, int32(k)) })
	slices.SortFunc(made, byKey)
	order := make([]int32, 0, len(m.lines))
	for _, k := range made {
		i, _ := slices.BinarySearchFunc(kept, k, byKey)
		order = append(append(order, kept[:i]...), k)
		kept = kept[i:]
	}
	return append(order, kept...)
}

// carryPostings returns a token index of the new lines (and each line's
// count of distinct tokens, when counts is not nil) from old, one of the
// old lines keeping its tokens' last carriedPostings lines, and the
// tokens of each line the splices made. A token's lines in old may lack
// some before those kept: when it has carriedPostings of them, or when
// its bit in oldCut is set (nil for an index made afresh); the bits of
// the new index are returned. It returns nil when such a token would
// keep fewer than keptPostings lines: its lines before those old kept
// are unknown, and the index is made afresh.
func carryPostings(old *postings, oldCut []uint64, counts []uint8, m *lineMap, tokens func(k int, dst []uint64) []uint64) (*postings, []uint8, []uint64) {
	// The table of tokens is old's, shared (it is only read) unless a
	// made line brings a token old has not.
	p := &postings{slots: old.slots, ids: old.ids, zero: old.zero}
	n := int32(len(old.at) - 1) // tokens in p
	owned := false
	var perLine []uint8
	if counts != nil {
		perLine = make([]uint8, len(m.lines))
		for i, k := range m.oldToNew {
			if k >= 0 {
				perLine[k] = counts[i]
			}
		}
	}
	// The made lines' tokens, as (token id, line), each pair once.
	type pair struct{ id, line int32 }
	var pairs []pair
	var buf []uint64
	m.each(func(k int) {
		buf = tokens(k, buf[:0])
		from := len(pairs)
		for _, t := range buf {
			id := p.find(t)
			if id < 0 {
				if !owned {
					p.slots, p.ids, owned = slices.Clone(p.slots), slices.Clone(p.ids), true
				}
				id, _ = p.add(t, n)
				n++
			}
			dup := false
			for _, q := range pairs[from:] {
				if q.id == id {
					dup = true
					break
				}
			}
			if !dup {
				pairs = append(pairs, pair{id, int32(k)})
			}
		}
		if perLine != nil {
			perLine[k] = uint8(min(len(pairs)-from, 255))
		}
	})
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.id, b.id) })
	// The lines are gathered flat, then encoded as old's are.
	at := make([]int32, n+1)
	lines := make([]int32, 0, len(old.deltas)+len(pairs))
	newCut := make([]uint64, (n+63)/64)
	var kept, was []int32
	for id := range n {
		was = was[:0]
		if int(id) < len(old.at)-1 {
			was = old.linesOf(id, was)
		}
		if (len(pairs) == 0 || pairs[0].id != id) && !(int(id)/64 < len(oldCut) && oldCut[id/64]&(1<<(id%64)) != 0) && len(was) < carriedPostings {
			// No made line has it and old held all its lines: they move.
			at[id] = int32(len(lines))
			for _, l := range was {
				if k := m.oldToNew[l]; k >= 0 {
					lines = append(lines, k)
				}
			}
			continue
		}
		var mine []int32
		for len(pairs) > 0 && pairs[0].id == id {
			mine, pairs = append(mine, pairs[0].line), pairs[1:]
		}
		kept = kept[:0]
		for _, l := range was {
			if k := m.oldToNew[l]; k >= 0 {
				kept = append(kept, k)
			}
		}
		// old may have held more lines of it
		cut := len(was) >= carriedPostings || int(id)/64 < len(oldCut) && oldCut[id/64]&(1<<(id%64)) != 0
		if cut {
			if len(kept) == 0 {
				return nil, nil, nil
			}
			// Only the lines from the first kept on are known.
			i, _ := slices.BinarySearch(mine, kept[0])
			mine = mine[i:]
		}
		start := len(lines)
		at[id] = int32(start)
		lines = mergeLines(lines, kept, mine)
		if cut && len(lines)-start < keptPostings {
			return nil, nil, nil
		}
		if over := len(lines) - start - carriedPostings; over > 0 {
			lines = append(lines[:start], lines[start+over:]...)
			cut = true
		}
		if cut {
			newCut[id/64] |= 1 << (id % 64)
		}
	}
	at[n] = int32(len(lines))
	p.encode(at, lines)
	return p, perLine, newCut
}

// mergeLines appends the union of a and b, ascending and disjoint, to dst.
func mergeLines(dst, a, b []int32) []int32 {
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// shortLineSlips appends to dst the slip index's tokens of line: the
// variants of a short line (slipVariants), none for any other.
func shortLineSlips(line string, dst []uint64) []uint64 {
	t := trimBoth(line)
	if len(t) < 3 || len(t) > maxSlipLine {
		return dst
	}
	return slipVariants(t, dst)
}
