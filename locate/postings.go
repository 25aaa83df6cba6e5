package locate

// Candidates for thousands of failing edits must not cost a pass over the
// file each: the file's lines are indexed once per content, by loose key
// and by token (word, or trigram for the second pass), and a failing
// edit reads only the lines that share a key or a token with its own.
// A key or token that stands on more than maxPostings lines (`}`,
// `return`) says little of where the text is and is not read; when that
// leaves an edit without a single vote, the first maxPostings of its lines
// are read and the search is said to be cut short.

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// maxPostings is how many lines of one key or token a vote reads.
const maxPostings = 256

// keptPostings is how many of a token's last lines a vote needs its
// postings to keep (they keep carriedPostings, see carry.go). A vote
// reads a token's lines from some line on only when at most maxPostings
// stand there, which are then among its last maxPostings+1; and more
// than maxPostings of them there still show as too many. A token as
// common as `return` then costs the index no more than a rare one.
const keptPostings = maxPostings + 1

// A postings index maps a key or token to the lines that have it,
// ascending, each once: a table of the tokens, open-addressed, and every
// token's lines in one array of bytes, each line as the varint of its
// distance from the one before (the first from -1), so that the index of
// a large file is a few arrays of small elements rather than a map of
// slices, and a token's lines take about a byte and a half each rather
// than four: the trigrams of a file hold six lines a line.
//
// An index of one key per line (keyPostings) is instead the lines ordered
// by key, byKey, and each line's key, keyOf: a key's lines are a run of
// byKey, found by a binary search, at four bytes a line.
type postings struct {
	slots []uint64 // the tokens, by their hash's slot; 0 for none
	ids   []int32  // ids[s] is the id of the token in slots[s]
	zero  int32    // the id of token 0, -1 when no line has it
	at    []int32  // token id i's lines are encoded in deltas[at[i]:at[i+1]]
	// deltas are the tokens' lines, encoded; buf is where get decodes
	// one token's.
	deltas []byte
	buf    []int32

	byKey []int32
	keyOf []uint64

	// cut, for a token index carried across splices, has a bit per token
	// whose lines before those kept may be missing (carry.go); nil for an
	// index made on its content.
	cut []uint64
	// move, when set, holds a token index carried across splices whose
	// lines are moved only when asked for (carry.go): the rest is unset.
	move *postingsMove
}

// get returns the lines of token t (for a token index, its last: all of
// them, or at least keptPostings of them). A token index's lines are
// decoded into room it reuses: they hold until the next get.
func (p *postings) get(t uint64) []int32 {
	if p.keyOf != nil {
		lo, _ := slices.BinarySearchFunc(p.byKey, t, func(k int32, t uint64) int { return cmp.Compare(p.keyOf[k], t) })
		hi, _ := slices.BinarySearchFunc(p.byKey[lo:], t, func(k int32, t uint64) int {
			if p.keyOf[k] <= t {
				return -1
			}
			return 1
		})
		if hi == 0 {
			return nil
		}
		return p.byKey[lo : lo+hi]
	}
	if p.move != nil {
		return p.moved(t)
	}
	id := p.find(t)
	if id < 0 {
		return nil
	}
	p.buf = p.linesOf(id, p.buf[:0])
	return p.buf
}

// isCut reports whether token id's lines before those p keeps may be
// missing.
func (p *postings) isCut(id int32) bool {
	return int(id)/64 < len(p.cut) && p.cut[id/64]&(1<<(id%64)) != 0
}

// linesOf appends the lines of token id, decoded, to dst.
func (p *postings) linesOf(id int32, dst []int32) []int32 {
	line := int32(-1)
	for b := p.deltas[p.at[id]:p.at[id+1]]; len(b) > 0; {
		d, n := binary.Uvarint(b)
		line += int32(d)
		dst = append(dst, line)
		b = b[n:]
	}
	return dst
}

// find returns t's id, -1 for a token no line has.
func (p *postings) find(t uint64) int32 {
	if t == 0 {
		return p.zero
	}
	if len(p.slots) == 0 {
		return -1
	}
	mask := uint64(len(p.slots) - 1)
	for s := t >> 7 & mask; ; s = (s + 1) & mask {
		switch p.slots[s] {
		case t:
			return p.ids[s]
		case 0:
			return -1
		}
	}
}

// add returns t's id, giving it the next one, n, when it has none.
func (p *postings) add(t uint64, n int32) (id int32, added bool) {
	if t == 0 {
		if p.zero < 0 {
			p.zero = n
			return n, true
		}
		return p.zero, false
	}
	if 2*(int(n)+1) > len(p.slots) {
		p.grow()
	}
	mask := uint64(len(p.slots) - 1)
	for s := t >> 7 & mask; ; s = (s + 1) & mask {
		switch p.slots[s] {
		case t:
			return p.ids[s], false
		case 0:
			p.slots[s], p.ids[s] = t, n
			return n, true
		}
	}
}

// grow doubles the table.
func (p *postings) grow() {
	old, oldIDs := p.slots, p.ids
	p.slots = make([]uint64, max(2*len(old), 1024))
	p.ids = make([]int32, len(p.slots))
	mask := uint64(len(p.slots) - 1)
	for i, t := range old {
		if t == 0 {
			continue
		}
		s := t >> 7 & mask
		for p.slots[s] != 0 {
			s = (s + 1) & mask
		}
		p.slots[s], p.ids[s] = t, oldIDs[i]
	}
}

// makePostings indexes lines 0..n-1, whose tokens each(k, emit) emits
// (repeats allowed), keeping up to keep lines of each token, its last. It returns the index and each line's count of distinct
// tokens. Each line's tokens are made twice, once to count, once to
// fill: cheaper in memory than holding them all.
func makePostings(n, keep int, each func(k int, emit func(uint64))) (*postings, []uint8) {
	p := &postings{zero: -1}
	perLine := make([]uint8, n)
	var count, last []int32 // per token id: its lines, the last line counted
	var k int
	emitCount := func(t uint64) {
		id, added := p.add(t, int32(len(count)))
		if added {
			count, last = append(count, 0), append(last, -1)
		}
		if last[id] != int32(k) {
			last[id] = int32(k)
			count[id]++
			if perLine[k] < 255 {
				perLine[k]++
			}
		}
	}
	for k = 0; k < n; k++ {
		each(k, emitCount)
	}
	at := make([]int32, len(count)+1)
	total := 0
	for id, c := range count {
		at[id] = int32(total)
		total += int(min(c, int32(keep)))
	}
	at[len(count)] = int32(total)
	lines := make([]int32, total)
	// seen counts each token's lines met in the second pass: of a token
	// of c lines, the first c-keep are not kept.
	seen := make([]int32, len(count))
	emitFill := func(t uint64) {
		id := p.find(t)
		if last[id] == -int32(k)-2 {
			return // met on this line already
		}
		last[id] = -int32(k) - 2
		skip := max(count[id]-int32(keep), 0)
		if j := seen[id]; j >= skip {
			lines[at[id]+j-skip] = int32(k)
		}
		seen[id]++
	}
	for k = 0; k < n; k++ {
		each(k, emitFill)
	}
	count, last, seen = nil, nil, nil
	p.encode(at, lines)
	return p, perLine
}

// encode sets p's lines to lines, token id i's lines[at[i]:at[i+1]],
// encoded as deltas.
func (p *postings) encode(at, lines []int32) {
	size := 0
	for id := range len(at) - 1 {
		prev := int32(-1)
		for _, l := range lines[at[id]:at[id+1]] {
			size += uvarintLen(uint64(l - prev))
			prev = l
		}
	}
	p.deltas = make([]byte, 0, size)
	for id := range len(at) - 1 {
		prev := int32(-1)
		from := len(p.deltas)
		for _, l := range lines[at[id]:at[id+1]] {
			p.deltas = binary.AppendUvarint(p.deltas, uint64(l-prev))
			prev = l
		}
		at[id] = int32(from)
	}
	at[len(at)-1] = int32(len(p.deltas))
	p.at = at
}

// uvarintLen is the length of x's varint.
func uvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}

// keyPostings returns the lines of each loose key, every one of them,
// made once per content.
func (f *finder) keyPostings() *postings {
	if f.keyPost == nil {
		keys := f.looseKeys()
		order := orderByKey(keys)
		f.keyPost = &postings{byKey: order, keyOf: keys}
	}
	return f.keyPost
}

// orderByKey returns the lines 0..len(keys)-1 ordered by their key, lines
// of one key ascending: a counting sort by the key's top bits (about a
// line a bucket: keys are seeded hashes) and an insertion sort within
// each bucket, which the lines of one common key enter already in order.
func orderByKey(keys []uint64) []int32 {
	bits := 1
	for 1<<bits < len(keys) {
		bits++
	}
	shift := 64 - bits
	start := make([]int32, 1<<bits+1)
	for _, k := range keys {
		start[k>>shift+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	order := make([]int32, len(keys))
	for line, k := range keys {
		b := k >> shift
		order[start[b]] = int32(line)
		start[b]++
	}
	// start[b] is now the end of bucket b, the start of bucket b+1.
	from := int32(0)
	for b := 0; b < 1<<bits; b++ {
		run := order[from:start[b]]
		for i := 1; i < len(run); i++ {
			for j := i; j > 0 && keys[run[j]] < keys[run[j-1]]; j-- {
				run[j], run[j-1] = run[j-1], run[j]
			}
		}
		from = start[b]
	}
	return order
}

// tokenIndex returns, made once per content, each line's count of
// distinct tokens and the lines of each token (its last carriedPostings):
// words, or with tri the trigrams of the second pass.
func (f *finder) tokenIndex(tri bool) (counts []uint8, post *postings) {
	postP, countsP, tokens := &f.wordPost, &f.wordCount, lineWords
	if tri {
		postP, countsP, tokens = &f.triPost, &f.triCount, lineTrigrams
		f.carryTrigrams()
	}
	if *postP == nil {
		lines := f.lineIndex()
		*f.keyed += len(lines)
		var buf []uint64
		*postP, *countsP = makePostings(len(lines), carriedPostings, func(k int, emit func(uint64)) {
			buf = tokens(f.content[lines[k].start:lines[k].end], buf[:0])
			for _, t := range buf {
				emit(t)
			}
		})
	}
	return *countsP, *postP
}

// from is the lines of ls from line fromLine on.
func from(ls []int32, fromLine int) []int32 {
	i, _ := slices.BinarySearch(ls, int32(fromLine))
	return ls[i:]
}

// votes counts, for each start of a window from fromLine on, how much the
// file lines in it resemble the SEARCH lines they would align with: a
// line equal in its loosest form votes its rarity (see rarity), any other
// the share of tokens (words; with tri, trigrams) of each pair that has
// at least minWordShare of them in common. cut reports that keys or
// tokens too frequent to read were read in part (see maxPostings).
func (f *finder) votes(p *pattern, fromLine int, tri bool) (votes map[int]float64, cut bool) {
	votes = make(map[int]float64)
	lines := f.lineIndex()
	if len(lines) == 0 {
		return votes, false
	}
	keys, kpost := f.looseKeys(), f.keyPostings()
	ntoks, tpost := f.tokenIndex(tri)
	tokens := lineWords
	if tri {
		tokens = lineTrigrams
	}
	want := map[uint64]bool{}
	for i, l := range p.lines {
		if !p.gap[i] && !isBlank(l) {
			want[looseKey(l)] = true
		}
	}
	fragment := isFragment(p)
	var mine []uint64
	var cands []int32
	shared := f.counts()
	var frequent []int // SEARCH lines whose every key and token was too frequent to read
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		read := false
		if ls := from(kpost.get(looseKey(l)), fromLine); len(ls) <= maxPostings {
			wt := f.rarity(l)
			f.visits += len(ls)
			for _, k := range ls {
				if !isBlank(f.content[lines[k].start:lines[k].end]) {
					votes[int(k)-i] += wt
				}
			}
			read = true
		}
		mine = tokens(l, mine[:0])
		if tri {
			slices.Sort(mine)
			mine = slices.Compact(mine)
		}
		if len(mine) == 0 {
			if !read {
				frequent = append(frequent, i)
			}
			continue
		}
		// Each token of the line and of a file line is counted once, so
		// a file line's hits are the tokens the two share.
		cands = cands[:0]
		for _, t := range mine {
			ls := from(tpost.get(t), fromLine)
			if len(ls) > maxPostings {
				continue
			}
			read = true
			f.visits += len(ls)
			for _, k := range ls {
				if shared[k] == 0 {
					cands = append(cands, k)
				}
				shared[k]++
			}
		}
		if !read {
			frequent = append(frequent, i)
		}
		for _, k := range cands {
			n := min(int(shared[k]), len(mine))
			shared[k] = 0
			if want[keys[k]] {
				continue // equal to a SEARCH line: it voted as such
			}
			share := 2 * float64(n) / float64(len(mine)+int(ntoks[k]))
			if fragment {
				// A piece of a line is judged by how much of it the line holds.
				share = float64(n) / float64(len(mine))
			}
			if share >= minWordShare {
				votes[int(k)-i] += share
			}
		}
	}
	if len(votes) == 0 && len(frequent) > 0 {
		// Every line that could vote stands too often: read the first of
		// its places, and say the search was cut short.
		for _, i := range frequent {
			l := p.lines[i]
			ls := from(kpost.get(looseKey(l)), fromLine)
			wt := f.rarity(l)
			f.visits += min(len(ls), maxPostings)
			for _, k := range ls[:min(len(ls), maxPostings)] {
				if !isBlank(f.content[lines[k].start:lines[k].end]) {
					votes[int(k)-i] += wt
				}
			}
		}
		cut = true
	}
	return votes, cut
}

// counts returns a zeroed counter per line, kept for the next search:
// each user leaves it zeroed. A counter counts the tokens a line shares
// with one SEARCH line, at most maxTrigrams: a byte holds it.
func (f *finder) counts() []uint8 {
	if f.shared == nil {
		f.shared = make([]uint8, len(f.lineIndex()))
	}
	return f.shared
}
