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
// of the content the splices make is, but no line is keyed again. The
// arrays a carry writes, its line maps and token counts among them, are
// those of the finder before the one it carries from (a carryRoom), which
// no one reads any longer: a reply of many failures between landing edits
// would otherwise leave a file's worth of garbage per failure for the
// collector.

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
	// lines are the new content's: once the finder they were made for is
	// carried on, only their count is read (a carryRoom reuses them).
	lines    []lineSpan
	oldToNew []int32  // an old line's new number; -1 for a line a splice touched
	made     [][2]int // the new lines no old line became, as runs [lo, hi), ascending
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
// ones are indexed from content. The lines are written into room's array
// and the map into scratch's when they have the capacity (every element
// is written).
func mapLines(old []lineSpan, oldLen int, sp []resize, content string, room []lineSpan, scratch []int32) lineMap {
	m := lineMap{lines: reuse(room, len(old)+8)[:0], oldToNew: reuse(scratch, len(old))}
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

// A carryRoom holds the per-line arrays of a finder no one reads any
// longer, for a carry to write the next finder's into: a Doc's finders
// take turns between two sets of arrays rather than each making its own.
type carryRoom struct {
	lines              []lineSpan
	keys, keyBits      []uint64
	spacedKeys         []uint64
	order, spacedOrder []int32
	// oldToNew is the line map a carry made last, when no index it made
	// holds it: only read while carrying, it is the next carry's.
	oldToNew []int32
	// maps are the composed line maps (lineMap.oldToNew) of the indexes
	// of a finder carried from that the finder carried to does not hold:
	// the next carry composes its maps into them.
	maps [][]int32
	// counts is the per-line token counts of such a finder.
	counts []uint8
}

// carry returns carried(old, sp, content), its arrays written into r's,
// and makes r hold old's instead: the caller drops old for the finder
// returned, and no index carried from old reads them.
func (r *carryRoom) carry(old *finder, sp []resize, content string) *finder {
	f := carried(old, sp, content, r)
	r.keep(old, f)
	return f
}

// keep makes r hold old's per-line arrays, and those of its line maps
// and counts that f, the finder carried from it, does not read.
func (r *carryRoom) keep(old, f *finder) {
	maps := r.maps
	held := f.lineMaps()
	for _, a := range old.lineMaps() {
		if len(maps) < maxRoomMaps && !slices.ContainsFunc(held, sameArray(a)) && !slices.ContainsFunc(maps, sameArray(a)) {
			maps = append(maps, a)
		}
	}
	// r.counts, if the carry took it, is f's now.
	var counts []uint8
	if len(old.wordCount) > 0 && (len(f.wordCount) == 0 || &f.wordCount[0] != &old.wordCount[0]) {
		counts = old.wordCount
	}
	*r = carryRoom{lines: old.lines, keys: old.keys, keyBits: old.keyBits, spacedKeys: old.spacedKeys, spacedOrder: old.spacedOrder,
		oldToNew: r.oldToNew, maps: maps, counts: counts}
	if old.keyPost != nil {
		r.order = old.keyPost.byKey
	}
}

// maxRoomMaps bounds the line maps a carryRoom keeps: a carry composes
// one for the word and slip indexes and one for the trigrams'.
const maxRoomMaps = 4

// lineMaps are the composed line maps f's indexes read: those of the
// moves of its token indexes and of the trigram index it would carry.
func (f *finder) lineMaps() [][]int32 {
	var ms [][]int32
	add := func(m *lineMap) {
		if m != nil && len(m.oldToNew) > 0 {
			ms = append(ms, m.oldToNew)
		}
	}
	for _, p := range []*postings{f.wordPost, f.slips, f.triPost} {
		if p != nil && p.move != nil {
			add(p.move.m)
		}
	}
	if src := f.triFrom; src != nil {
		add(src.m)
		if p := src.from.triPost; p != nil && p.move != nil {
			add(p.move.m)
		}
	}
	return ms
}

// sameArray reports whether b starts where a does: a and b, not empty,
// share their memory.
func sameArray(a []int32) func(b []int32) bool {
	return func(b []int32) bool { return len(b) > 0 && &a[0] == &b[0] }
}

// takeMap returns a line map array of n elements from r's, each to be
// written, or a new one (always, for a nil r).
func (r *carryRoom) takeMap(n int) []int32 {
	if r == nil {
		return make([]int32, n)
	}
	for i, a := range r.maps {
		if cap(a) >= n {
			r.maps = slices.Delete(r.maps, i, i+1)
			return a[:n]
		}
	}
	return make([]int32, n)
}

// reuse returns s with n elements, their values left as they are, or a
// new slice with some room to grow when s has not the capacity. It never
// returns nil: a finder's nil array says an index was not made, and an
// index carried to an empty content is made, with no lines.
func reuse[T any](s []T, n int) []T {
	if s != nil && cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, n+n/16+16)
}

// carried returns a finder over content, old's content with sp applied,
// with what old had derived from its lines moved to their new numbers and
// derived afresh only for the lines the splices made. The indexes old had
// not made are made on demand, as for any finder. Its per-line arrays are
// written into room's where they fit; old's are only read.
func carried(old *finder, sp []resize, content string, room *carryRoom) *finder {
	f := newFinder(content)
	f.keyed = old.keyed
	if !old.indexed {
		return f
	}
	// The line map outlives the carry when an index is moved from one
	// made in full (carryPostings keeps the map to move its lines by) or
	// the trigram index waits to be carried from old's (carrySource).
	held := old.wordPost != nil && old.wordPost.move == nil || old.slips != nil && old.slips.move == nil || old.triPost != nil
	var scratch []int32
	if !held {
		scratch = room.oldToNew
	}
	m := mapLines(old.lines, len(old.content), sp, content, room.lines, scratch)
	if !held {
		room.oldToNew = m.oldToNew
	}
	f.lines, f.indexed = m.lines, true
	if cap(old.shared) >= len(f.lines) {
		// Zeroed between searches, and old is done with.
		f.shared = old.shared[:len(f.lines)]
	}
	made := m.madeLines()
	line := func(k int) string { return content[f.lines[k].start:f.lines[k].end] }
	if old.keys != nil {
		f.keys = carryKeys(old.keys, &m, func(k int) uint64 { return looseKey(line(k)) }, room.keys)
		f.keyBits = keyBitsOf(f.keys, room.keyBits)
		*f.keyed += made
		if old.keyPost != nil {
			f.keyPost = &postings{byKey: carryOrder(old.keyPost.byKey, f.keys, &m, room.order), keyOf: f.keys}
		}
	}
	if old.spacedOrder != nil {
		f.spacedKeys = carryKeys(old.spacedKeys, &m, func(k int) uint64 { return spacedKey(line(k)) }, room.spacedKeys)
		f.spacedOrder = carryOrder(old.spacedOrder, f.spacedKeys, &m, room.spacedOrder)
		*f.keyed += made
	}
	compose := composer(&m, room)
	if old.wordPost != nil {
		f.wordPost, f.wordCount = carryPostings(old.wordPost, old.wordCount, room.counts, &m, compose, func(k int, dst []uint64) []uint64 { return lineWords(line(k), dst) }, func(p *postings) {
			f.wordsRemade++
			remake(p, &f.wordPost, func() { f.tokenIndex(false) })
		})
		*f.keyed += made
	}
	// The trigram index serves only the second pass of candidates, which
	// few failures need: it is carried when one asks (carryTrigrams).
	switch {
	case old.triPost != nil:
		f.triFrom = &carrySource{from: &finder{triPost: old.triPost.source(), triCount: old.triCount}, m: &m}
	case old.triFrom != nil:
		f.triFrom = &carrySource{from: old.triFrom.from, m: composeMaps(old.triFrom.m, &m, room)}
	}
	if old.slips != nil {
		f.slips, _ = carryPostings(old.slips, nil, nil, &m, compose, func(k int, dst []uint64) []uint64 { return shortLineSlips(line(k), dst) }, func(p *postings) {
			remake(p, &f.slips, func() { f.slipIndex() })
		})
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
	f.triPost, f.triCount = carryPostings(src.from.triPost, src.from.triCount, nil, src.m, composer(src.m, nil), func(k int, dst []uint64) []uint64 {
		return lineTrigrams(f.content[lines[k].start:lines[k].end], dst)
	}, func(p *postings) {
		remake(p, &f.triPost, func() { f.tokenIndex(true) })
	})
	*f.keyed += src.m.madeLines()
}

// remake makes p, the index *field holds, afresh in place: build makes
// *field anew when it is nil, and p, which callers may hold, takes its
// place.
func remake(p *postings, field **postings, build func()) {
	*field = nil
	build()
	*p = **field
	*field = p
}

// composer returns a function that maps the lines of an earlier content,
// those m1 maps to m's old content, through m too: the composed map each
// carried index reads, made once for the indexes that share m1, in an
// array of room's when room is not nil.
func composer(m *lineMap, room *carryRoom) func(m1 *lineMap) *lineMap {
	var from, to *lineMap
	return func(m1 *lineMap) *lineMap {
		if m1 != from {
			from = m1
			to = &lineMap{lines: m.lines, oldToNew: room.takeMap(len(m1.oldToNew))}
			for a, b := range m1.oldToNew {
				to.oldToNew[a] = -1
				if b >= 0 {
					to.oldToNew[a] = m.oldToNew[b]
				}
			}
		}
		return to
	}
}

// composeMaps returns the lineMap of m1's splices and then m2's: the
// lines of m1's content that neither touched, at their numbers in m2's,
// and every other line of m2's content as made; its map in an array of
// room's.
func composeMaps(m1, m2 *lineMap, room *carryRoom) *lineMap {
	m := &lineMap{lines: m2.lines, oldToNew: room.takeMap(len(m1.oldToNew))}
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
// keyOf's for a line the splices made; in room's array when it fits.
func carryKeys(old []uint64, m *lineMap, keyOf func(k int) uint64, room []uint64) []uint64 {
	keys := reuse(room, len(m.lines)) // every line's is written
	for i, k := range m.oldToNew {
		if k >= 0 {
			keys[k] = old[i]
		}
	}
	m.each(func(k int) { keys[k] = keyOf(k) })
	return keys
}

// keyBitsOf is looseKeys' bit set of keys, for a content of len(keys)
// lines, in room's array when it fits.
func keyBitsOf(keys []uint64, room []uint64) []uint64 {
	bits := 1 << 12
	for bits < 16*len(keys) {
		bits <<= 1
	}
	set := reuse(room, bits/64)
	clear(set)
	for _, h := range keys {
		b := h & uint64(bits-1)
		set[b/64] |= 1 << (b % 64)
	}
	return set
}

// carryOrder returns the new lines ordered by their key (keys) and then
// by number, as old ordered the old lines: the untouched lines keep their
// order (their numbers all move the same way between splices), and the
// lines the splices made are put in their places by a binary search,
// from the last back; in room's array when it fits.
func carryOrder(old []int32, keys []uint64, m *lineMap, room []int32) []int32 {
	byKey := func(a, b int32) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	order := reuse(room, len(m.lines))[:0]
	for _, l := range old {
		if k := m.oldToNew[l]; k >= 0 {
			order = append(order, k)
		}
	}
	kept := len(order)
	if kept == len(m.lines) {
		return order
	}
	made := make([]int32, 0, m.madeLines())
	m.each(func(k int) { made = append(made, int32(k)) })
	slices.SortFunc(made, byKey)
	order = order[:len(m.lines)]
	end := len(order) // order[end:] is done
	for i := len(made) - 1; i >= 0; i-- {
		at, _ := slices.BinarySearchFunc(order[:kept], made[i], byKey)
		end -= copy(order[end-(kept-at):end], order[at:kept])
		kept = at
		end--
		order[end] = made[i]
	}
	return order
}

// A postingsMove is a token index carried across splices whose lines are
// moved only when a vote asks for them: base, an index of an earlier
// content made or moved in full, whose lines m maps to this content's,
// and made, the tokens of the lines the splices since made that stand.
// Moving every token's lines at every carry would read and write the
// whole index per failure; a vote reads the lines of a few tokens.
type postingsMove struct {
	base *postings
	m    *lineMap // only its oldToNew is read
	// made holds each token's last carriedPostings lines made since
	// base, ascending by token and then by line.
	made []tokenLine
	// fresh makes p, the index moved, afresh on its content: for a token
	// whose lines kept fall short of what a vote needs.
	fresh      func(p *postings)
	room, kept []int32 // scratch of linesOf
}

// A tokenLine is one line a token stands on.
type tokenLine struct {
	token uint64
	line  int32
}

// maxMade bounds the tokens of made lines a move holds, on a content of
// n lines, before it moves the index in full: a tokenLine is ten times
// the bytes of a line in an index's deltas.
func maxMade(n int) int { return n/4 + 4096 }

// carryPostings returns a token index of the new lines (and each line's
// count of distinct tokens, when counts is not nil) from old, an index of
// the old lines keeping its tokens' last carriedPostings lines, and the
// tokens of each line the splices made. compose maps the lines of an
// earlier content through m. It returns nil when the index is to be made
// afresh (see settle); fresh, for the index returned, makes it afresh in
// place.
func carryPostings(old *postings, counts, room []uint8, m *lineMap, compose func(*lineMap) *lineMap, tokens func(k int, dst []uint64) []uint64, fresh func(p *postings)) (*postings, []uint8) {
	var perLine []uint8
	if counts != nil {
		perLine = reuse(room, len(m.lines))
		clear(perLine)
		for i, k := range m.oldToNew {
			if k >= 0 {
				perLine[k] = counts[i]
			}
		}
	}
	mv := &postingsMove{base: old, m: m, fresh: fresh}
	var kept []tokenLine
	if old.move != nil {
		mv.base, mv.m = old.move.base, compose(old.move.m)
		kept = make([]tokenLine, 0, len(old.move.made))
		for _, x := range old.move.made {
			if k := m.oldToNew[x.line]; k >= 0 {
				kept = append(kept, tokenLine{x.token, k})
			}
		}
	}
	var add []tokenLine
	var buf []uint64
	m.each(func(k int) {
		buf = tokens(k, buf[:0])
		slices.Sort(buf)
		buf = slices.Compact(buf)
		for _, t := range buf {
			add = append(add, tokenLine{t, int32(k)})
		}
		if perLine != nil {
			perLine[k] = uint8(min(len(buf), 255))
		}
	})
	// Lines come in order: sorting by token keeps each token's ascending.
	slices.SortStableFunc(add, func(a, b tokenLine) int { return cmp.Compare(a.token, b.token) })
	mv.made = mergeMade(kept, add)
	p := &postings{move: mv}
	if len(mv.made) > maxMade(len(m.lines)) {
		p = mv.settle()
	}
	return p, perLine
}

// mergeMade returns the union of a and b, each ascending by token and
// then by line, keeping each token's last carriedPostings lines: any run
// of a token's last lines that long holds the last lines of the token's
// whole list that a vote may need.
func mergeMade(a, b []tokenLine) []tokenLine {
	less := func(x, y tokenLine) bool { return x.token < y.token || x.token == y.token && x.line < y.line }
	out := make([]tokenLine, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var x tokenLine
		if len(b) == 0 || len(a) > 0 && less(a[0], b[0]) {
			x, a = a[0], a[1:]
		} else {
			x, b = b[0], b[1:]
		}
		out = append(out, x)
	}
	// Trim each token's run to its last carriedPostings lines.
	w := 0
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && out[j].token == out[i].token {
			j++
		}
		w += copy(out[w:], out[max(i, j-carriedPostings):j])
		i = j
	}
	return out[:w]
}

// madeOf is the lines made since mv.base that token t stands on.
func (mv *postingsMove) madeOf(t uint64) []tokenLine {
	i, _ := slices.BinarySearchFunc(mv.made, t, func(x tokenLine, t uint64) int { return cmp.Compare(x.token, t) })
	j := i
	for j < len(mv.made) && mv.made[j].token == t {
		j++
	}
	return mv.made[i:j]
}

// linesOf appends token t's lines to dst, as an index carried in full
// would hold them: base's that stand, mapped, and those made since,
// merged, the last carriedPostings of them. A token whose lines in base
// may lack some before those kept (cut) is known only from the first
// kept on. cut reports that the lines appended may lack some before
// them; ok is false when a vote could need lines that are not known:
// none of base's stand, or fewer than keptPostings are known.
func (mv *postingsMove) linesOf(t uint64, dst []int32) (lines []int32, cut, ok bool) {
	kept := mv.kept[:0]
	if id := mv.base.find(t); id >= 0 {
		mv.room = mv.base.linesOf(id, mv.room[:0])
		cut = len(mv.room) >= carriedPostings || mv.base.isCut(id)
		for _, l := range mv.room {
			if k := mv.m.oldToNew[l]; k >= 0 {
				kept = append(kept, k)
			}
		}
	}
	mv.kept = kept
	mine := mv.madeOf(t)
	if cut {
		if len(kept) == 0 {
			return dst, true, false
		}
		i, _ := slices.BinarySearchFunc(mine, kept[0], func(x tokenLine, l int32) int { return cmp.Compare(x.line, l) })
		mine = mine[i:]
	}
	mv.room = mv.room[:0]
	for _, x := range mine {
		mv.room = append(mv.room, x.line)
	}
	start := len(dst)
	dst = appendMerged(dst, kept, mv.room, cmp.Less[int32])
	n := len(dst) - start
	if cut && n < keptPostings {
		return dst, true, false
	}
	if over := n - carriedPostings; over > 0 {
		dst = append(dst[:start], dst[start+over:]...)
		cut = true
	}
	return dst, cut, true
}

// source is p as an index to carry from: without what would make p
// afresh, which holds p's finder, content and all.
func (p *postings) source() *postings {
	if p.move == nil {
		return p
	}
	mv := *p.move
	mv.fresh, mv.room, mv.kept = nil, nil, nil
	return &postings{move: &mv}
}

// moved is get for an index carried but not moved.
func (p *postings) moved(t uint64) []int32 {
	lines, _, ok := p.move.linesOf(t, p.buf[:0])
	if !ok {
		p.move.fresh(p)
		return p.get(t)
	}
	p.buf = lines
	return lines
}

// settle returns the index mv holds, every token's lines moved, or nil
// when some token's would fall short (linesOf): the index is then made
// afresh when asked for.
func (mv *postingsMove) settle() *postings {
	b := mv.base
	p := &postings{slots: b.slots, ids: b.ids, zero: b.zero}
	n := int32(len(b.at) - 1)
	tokenOf := make([]uint64, n, int(n)+len(mv.made)/8)
	for s, t := range b.slots {
		if t != 0 {
			tokenOf[b.ids[s]] = t
		}
	}
	// A zero token's id is b.zero; tokenOf holds 0 for it already.
	owned := false
	for i := 0; i < len(mv.made); i++ {
		t := mv.made[i].token
		if i > 0 && mv.made[i-1].token == t || p.find(t) >= 0 {
			continue
		}
		if !owned {
			// The table is old's, shared (only read), until a made line
			// brings a token old has not.
			p.slots, p.ids, owned = slices.Clone(p.slots), slices.Clone(p.ids), true
		}
		p.add(t, n)
		tokenOf = append(tokenOf, t)
		n++
	}
	at := make([]int32, n+1)
	lines := make([]int32, 0, len(b.deltas)+len(mv.made))
	p.cut = make([]uint64, (n+63)/64)
	for id := range n {
		at[id] = int32(len(lines))
		var cut, ok bool
		if lines, cut, ok = mv.linesOf(tokenOf[id], lines); !ok {
			return nil
		}
		if cut {
			p.cut[id/64] |= 1 << (id % 64)
		}
	}
	at[n] = int32(len(lines))
	p.encode(at, lines)
	return p
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
