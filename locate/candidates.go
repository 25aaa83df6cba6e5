package locate

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/textcut"
)

// Candidates for NO_MATCH. Scoring every window of a large file against
// the SEARCH text with an edit distance would be quadratic; instead each
// line votes, in one pass over the file, for the windows that would align
// it with a SEARCH line it resembles: equal in its loosest form (trimmed,
// blanks collapsed, punctuation folded), or sharing most of its words
// (identifiers, numbers), so that a SEARCH whose every line has a typo is
// still placed. Only the most voted windows are scored line by line. A
// file of 200,000 lines costs one pass.

// maxCandidates is how many near misses a NO_MATCH lists.
const maxCandidates = 3

// weakSimilarity is the floor of a near miss: below it the closest region
// is more likely a coincidence (shared keywords, a similar shape) than the
// text the model meant, so at most one is shown, marked weak, and the hint
// never says to copy it. Quoting invented code gives about 0.45; a real
// quote with a typo on every line stays above 0.75.
const weakSimilarity = 0.6

// candidateSpread drops a candidate this far below the best: a reader
// shown a 95% and a 62% candidate wastes a turn on the second.
const candidateSpread = 0.15

// minWordShare is the share of words (Dice's coefficient on the sets of
// words) a file line needs with a SEARCH line to vote for their window.
const minWordShare = 0.5

// scoredWindows is how many of the most voted windows are scored.
const scoredWindows = 24

var candSeed = maphash.MakeSeed()

// looseKey hashes a line in its loosest form: punctuation folded, blanks
// trimmed and inner runs of them collapsed. It does not allocate for ASCII
// lines.
func looseKey(s string) uint64 {
	// Most lines are ASCII with single blanks between their words: their
	// loose form is the line trimmed, and is hashed as it stands.
	t := trimBoth(s)
	simple := plainLine(t)
	if simple {
		return maphash.String(candSeed, t)
	}
	s = foldPunct(s)
	// The fields, one blank between them, are hashed in one call: far
	// cheaper than a write per field, and a key per line of a large file
	// is computed for every NO_MATCH and tolerant search.
	var buf [256]byte
	b := buf[:0]
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if j > i {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = append(b, s[i:j]...)
		}
		i = j
	}
	return maphash.Bytes(candSeed, b)
}

// plainLine reports whether t is a line looseKey may hash as it stands:
// only printable ASCII and spaces (no byte at or above 0x80, which may
// fold; none below 0x0E, which holds the other blanks), no two spaces in a
// row and no "--". Eight bytes are tested at once: a key is computed for
// every line of a file on every NO_MATCH.
func plainLine(t string) bool {
	const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7F7F7F7F7F7F7F7F
	// eq marks, in its high bit, each byte of x equal to c (exactly: no
	// borrow crosses bytes).
	eq := func(x, c uint64) uint64 {
		y := x ^ c*ones
		return ^((y&lows + lows) | y) & highs
	}
	var lastSp, lastDa uint64 // the previous word's last byte was ' ' or '-': bit 7
	b := []byte(t)            // not a copy: only read
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// x&highs: a byte ≥ 0x80; else (x-0x0E..)&^x&highs: one below 0x0E.
		if (x|(x-0x0E*ones)&^x)&highs != 0 {
			return false
		}
		sp, da := eq(x, ' '), eq(x, '-')
		if sp&(sp<<8|lastSp) != 0 || da&(da<<8|lastDa) != 0 {
			return false
		}
		lastSp, lastDa = sp>>56, da>>56
	}
	prev := byte(0)
	if lastSp != 0 {
		prev = ' '
	} else if lastDa != 0 {
		prev = '-'
	}
	for ; i < len(t); i++ {
		c := t[i]
		if c >= 0x80 || c < 0x0E || (c == ' ' || c == '-') && c == prev {
			return false
		}
		prev = c
	}
	return true
}

type window struct {
	start, n int
	sim      float64
}

// candidates ranks the regions of the file (from line fromLine on) that
// most resemble p, best first, and writes the hint that names the first
// line that differs in the best, in w's words.
func (f *finder) candidates(p *pattern, fromLine int, w *words) ([]edit.Candidate, string) {
	f.searches++
	votes, cut := f.votes(p, fromLine, false)
	f.slipVotes(p, fromLine, votes)
	cut = !f.longVotes(p, fromLine, votes) || cut
	ws := f.scoreWindows(p, fromLine, votes, nil)
	if len(ws) == 0 || ws[0].sim < weakSimilarity {
		// Lines of one or two words, each misspelt, share no word: their
		// letters (three at a time) still place them. A second pass, paid
		// only when the first found nothing close.
		tv, tcut := f.votes(p, fromLine, true)
		ws = f.scoreWindows(p, fromLine, tv, ws)
		cut = cut || tcut
	}
	cs, hint := f.rankCandidates(p, fromLine, ws, w)
	if cut {
		hint += " " + hintCutShort()
	}
	return cs, hint
}

// rankCandidates is candidates, given the windows scored, best first.
func (f *finder) rankCandidates(p *pattern, fromLine int, ws []window, w *words) ([]edit.Candidate, string) {
	stands := f.uniqueAt(p, fromLine)
	lonely := -1 // the line of p, standing once in the file, that placed ws[0]
	a, anchoredOK := f.anchoredBlock(p, fromLine)
	if (len(ws) == 0 || ws[0].sim < weakSimilarity) && !anchoredOK {
		// Nothing is close: the place around a line that stands once in
		// the file is likelier than a coincidence of shape (a block
		// anchored by the first and last lines is likelier still).
		if u, i, ok := f.uniqueWindow(p, stands); ok {
			ws = slices.DeleteFunc(ws, func(x window) bool { return x.start == u.start })
			ws = slices.Insert(ws, 0, u)
			lonely = i
		}
	}
	if len(ws) == 0 {
		return nil, hintNoLineAlike(w)
	}
	best := ws[0]
	weak := best.sim < weakSimilarity
	var cs []edit.Candidate
	var picked []window
	for _, w := range ws {
		// Places nearly alike with the best are all listed: naming some
		// of a tie would hint at one of them.
		inTie := w.sim >= best.sim-tieSpread && len(picked) < maxTied
		if (len(picked) >= maxCandidates && !inTie) || weak && len(picked) == 1 || w.sim < best.sim-candidateSpread {
			break
		}
		if slices.ContainsFunc(picked, func(q window) bool { return w.start < q.start+q.n && q.start < w.start+w.n }) {
			continue // overlaps a better one
		}
		picked = append(picked, w)
		sw := f.shownWindow(w)
		cs = append(cs, edit.Candidate{LineStart: sw.start + 1, LineEnd: sw.start + sw.n, Similarity: floor2(w.sim),
			Excerpt: f.excerpt(w.start, w.start+w.n-1), Weak: weak})
	}
	var hint string
	lines, apart := scattered(p, stands)
	inOrder := apart && slices.IsSorted(lines)
	apart = apart && !(inOrder && anchoredOK) // the block says more
	switch {
	case apart:
		// Each line is located on its own: the candidates are its places.
		cs = cs[:0]
		shown := make([]int, len(lines))
		for i, k := range lines {
			shown[i] = f.shownLine(k)
			if i < maxTied {
				cs = append(cs, edit.Candidate{LineStart: shown[i], LineEnd: shown[i], Similarity: 0.99, Excerpt: f.excerpt(k, k)})
			}
		}
		return cs, hintScattered(w, shown, inOrder)
	case lonely >= 0 && weak:
		hint = hintLonely(w, f.shownLine(stands[lonely]), lonely+1, f.shownWindow(best))
	case weak:
		hint = hintNothingClose(w, f.shownWindow(best))
	case tied(picked):
		// Copying one of several near-equal places would turn it into the
		// text the model meant for another (add into div): say so.
		n := 1
		for n < len(picked) && picked[n].sim >= best.sim-tieSpread {
			n++
		}
		tie := make([]window, n)
		for i, x := range picked[:n] {
			tie[i] = f.shownWindow(x)
		}
		hint = hintTied(w, tie)
	default:
		hint = f.differs(p, best, w)
	}
	if !anchoredOK || slices.ContainsFunc(picked, func(w window) bool { return w.start == a.start && w.n == a.n }) {
		return cs, hint
	}
	sa := f.shownWindow(a)
	ac := edit.Candidate{LineStart: sa.start + 1, LineEnd: sa.start + sa.n, Similarity: floor2(a.sim),
		Excerpt: f.excerpt(a.start, a.start+a.n-1), Weak: a.sim < weakSimilarity}
	anchored := hintAnchored(w, sa)
	// Best first still; the block displaces the last of a full list.
	if len(cs) == maxCandidates && !tied(picked) {
		cs = cs[:maxCandidates-1]
	}
	at := 0
	for at < len(cs) && cs[at].Similarity >= ac.Similarity {
		at++
	}
	cs = slices.Insert(cs, at, ac)
	if weak || a.sim > best.sim {
		// The block is the likelier place, and its words replace a hint
		// about a region it beats or one that is no near miss.
		return cs, anchored
	}
	return cs, hint + " " + anchored
}

// tieSpread is how close in similarity two candidates are nearly alike:
// the SEARCH text is then as far from each, and none is the place meant
// more than the others.
const tieSpread = 0.01

// maxTied bounds the candidates of a tie.
const maxTied = 8

// tied reports whether the best two of picked, best first, are nearly
// alike.
func tied(picked []window) bool {
	return len(picked) > 1 && picked[1].sim >= picked[0].sim-tieSpread
}

// maxAnchoredSpan bounds the block anchoredBlock reports, in lines beyond
// the SEARCH text's own: a longer one is more likely two places than one
// the model summarized, and its excerpt would swamp the receipt.
const maxAnchoredSpan = 40

// anchoredBlock finds, from line fromLine on, the one block of the file
// that opens with p's first line and closes with its last (each as
// looseKey reads it, with the same indentation between them as in p), the
// lines between being others: the place a model meant when it summarized
// the middle of a block. It is never applied: the lines between would be
// a guess. ok is false for p of fewer than three lines, for no such block
// or for several, and for one longer than p by more than maxAnchoredSpan
// lines. The block's sim is the share of lines it and p hold alike, in
// order.
func (f *finder) anchoredBlock(p *pattern, fromLine int) (window, bool) {
	first, last := -1, -1
	for i, l := range p.lines {
		if isBlank(l) || p.gap[i] {
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	if first < 0 || last-first < 2 {
		return window{}, false
	}
	lines := f.lineIndex()
	kf, kl := looseKey(p.lines[first]), looseKey(p.lines[last])
	step := len(leadingWS(p.lines[last])) - len(leadingWS(p.lines[first]))
	indent := func(k int) int { return len(leadingWS(f.content[lines[k].start:lines[k].end])) }
	span := last - first + 1 + maxAnchoredSpan
	var found window
	n := 0
	post := f.keyPostings()
	firsts, lasts := from(post.get(kf), max(fromLine, 0)), from(post.get(kl), max(fromLine, 0))
	if len(firsts) > maxPostings {
		return window{}, false // a first line that common opens many blocks
	}
	for _, s32 := range firsts {
		s := int(s32)
		for _, e32 := range from(lasts, s+1) {
			e := int(e32)
			if e-s >= span {
				break
			}
			if indent(e)-indent(s) == step {
				if n++; n > 1 {
					return window{}, false
				}
				found = window{start: s, n: e - s + 1}
				break
			}
		}
	}
	if n != 1 {
		return window{}, false
	}
	ps := p.lines[first : last+1]
	if p.gaps > 0 {
		// Placeholder lines stand for the block's lines between: the
		// block is judged on the SEARCH text's own lines, as the share of
		// them it holds in order (never all: then a rung had matched).
		own := make([]string, 0, len(ps))
		for i, l := range ps {
			if !p.gap[first+i] {
				own = append(own, l)
			}
		}
		found.sim = min(float64(f.inOrder(own, found.start, found.n))/float64(len(own)), 0.99)
		return found, true
	}
	found.sim = 2 * float64(f.inOrder(ps, found.start, found.n)) / float64(len(ps)+found.n)
	return found, true
}

// maxInOrderCells bounds the table inOrder fills.
const maxInOrderCells = 1 << 16

// inOrder is how many lines ps and the file's n lines from start hold
// alike (by looseKey), in order: their longest common subsequence.
func (f *finder) inOrder(ps []string, start, n int) int {
	keys := f.looseKeys()[start : start+n]
	if len(ps)*n > maxInOrderCells {
		// A table that large would cost the square of a long SEARCH:
		// the lines matched in order greedily, a count never above the
		// longest common subsequence, do instead.
		at := map[uint64][]int{}
		for i, k := range keys {
			at[k] = append(at[k], i)
		}
		j, c := 0, 0
		for _, l := range ps {
			is := at[looseKey(l)]
			if x, _ := slices.BinarySearch(is, j); x < len(is) {
				j, c = is[x]+1, c+1
			}
		}
		return c
	}
	row := make([]int, n+1)
	for _, l := range ps {
		k := looseKey(l)
		diag := 0
		for j := 1; j <= n; j++ {
			up := row[j]
			if keys[j-1] == k {
				row[j] = diag + 1
			} else {
				row[j] = max(row[j], row[j-1])
			}
			diag = up
		}
	}
	return row[n]
}

// scoreWindows scores the most voted windows not in ws yet and returns
// them with ws, best first (ties: the earliest).
func (f *finder) scoreWindows(p *pattern, fromLine int, votes map[int]float64, ws []window) []window {
	lines := f.lineIndex()
	// The most voted starts (ties: the earliest), without sorting them all.
	starts := make([]int, 0, scoredWindows+1)
	better := func(a, b int) bool { return votes[a] > votes[b] || votes[a] == votes[b] && a < b }
	for st := range votes {
		if len(starts) == scoredWindows && !better(st, starts[scoredWindows-1]) {
			continue
		}
		i := len(starts)
		starts = append(starts, st)
		for i > 0 && better(st, starts[i-1]) {
			starts[i] = starts[i-1]
			i--
		}
		starts[i] = st
		if len(starts) > scoredWindows {
			starts = starts[:scoredWindows]
		}
	}
	for _, s := range starts {
		s = max(s, fromLine, 0)
		n := min(len(p.lines), len(lines)-s)
		if n <= 0 || slices.ContainsFunc(ws, func(w window) bool { return w.start == s }) {
			continue
		}
		ws = append(ws, window{s, n, f.similarity(p, s, n)})
	}
	sort.SliceStable(ws, func(a, b int) bool {
		if ws[a].sim != ws[b].sim {
			return ws[a].sim > ws[b].sim
		}
		return ws[a].start < ws[b].start
	})
	return ws
}

// maxTrigrams bounds the trigrams of a line that take part in a vote.
const maxTrigrams = 160

// lineTrigrams appends to dst the hashes of the three-byte runs of line
// trimmed, ASCII case folded, repeats kept.
func lineTrigrams(line string, dst []uint64) []uint64 {
	t := trimBoth(line)
	for i := 0; i+3 <= len(t) && i < maxTrigrams; i++ {
		var h uint64
		for _, c := range []byte(t[i : i+3]) {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h = h<<8 | uint64(c)
		}
		dst = append(dst, h*0x9E3779B97F4A7C15) // spread over the high bits hashBits reads
	}
	return dst
}

// maxLineWords bounds the words of a line that take part in a vote: a
// minified line has thousands, and the first ones place it as well.
const maxLineWords = 64

// lineWords appends to dst the hashes of the distinct words of line: runs
// of letters, digits, '_' and non-ASCII bytes, ASCII case folded.
func lineWords(line string, dst []uint64) []uint64 {
	start := len(dst)
	for i := 0; i < len(line) && len(dst)-start < maxLineWords; {
		for i < len(line) && !isWordByte(line[i]) {
			i++
		}
		j := i
		h := uint64(14695981039346656037) // FNV-1a
		for j < len(line) && isWordByte(line[j]) {
			c := line[j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h = (h ^ uint64(c)) * 1099511628211
			j++
		}
		if j > i {
			w := h
			if !slices.Contains(dst[start:], w) {
				dst = append(dst, w)
			}
		}
		i = j
	}
	return dst
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// floor2 rounds x down to two decimals, so that a near miss never reads
// as 100%.
func floor2(x float64) float64 { return math.Floor(x*100+1e-9) / 100 }

// similarity scores the window of n file lines from s against p, 0..1: the
// mean over p's lines (placeholders left out) of each line's likeness to
// the file line beside it.
func (f *finder) similarity(p *pattern, s, n int) float64 {
	lines := f.lines
	f.visits += n
	total, count := 0.0, 0.0
	for i, l := range p.lines {
		if p.gap[i] {
			continue
		}
		// A line the file has in many places (`}`, `return nil`) says
		// less of where the text is than one it has once.
		wt := f.rarity(l)
		count += wt
		if i >= n {
			continue
		}
		fl := f.content[lines[s+i].start:lines[s+i].end]
		if isLong(fl, l) {
			total += wt * pieceLikeness(stretch(fl, l), l)
			continue
		}
		if isFragment(p) {
			total += wt * pieceLikeness(fl, l)
			continue
		}
		total += wt * lineLikeness(fl, l)
	}
	if count == 0 {
		return 0
	}
	return total / count
}

// isFragment reports whether p is a piece of one line (a tool call's
// old_string such as `"/items"`), not whole lines: a line holding it is
// as close as the piece is to some stretch of the line.
func isFragment(p *pattern) bool {
	return len(p.lines) == 1 && !p.finalNL && !p.gap[0]
}

// pieceLikeness is lineLikeness for a piece of a line: 0.99 when line
// holds it as it reads, else 0.95 times one minus the edit distance from
// piece to the stretch of line closest to it over the piece's length.
func pieceLikeness(line, piece string) float64 {
	line, piece = seen(line), seen(piece)
	if piece == "" {
		return 0
	}
	if strings.Contains(line, piece) {
		return 0.99
	}
	const maxLen = 400
	line, piece = line[:min(len(line), maxLen)], piece[:min(len(piece), maxLen)]
	// Edit distance with the line's prefix and suffix free.
	d := slices.Min(distanceRow(piece, line, true))
	return 0.95 * max(0, 1-float64(d)/float64(len(piece)))
}

// lineLikeness is 1 for equal lines, 0.99 for lines that look alike (see
// seen: a difference in blanks, punctuation or invisible characters is
// still one, so a candidate never reads as 100% when it is not the
// text), else 0.95 times
// one minus their edit distance over the longer length (on at most 160
// bytes), less 0.01 when their indentation differs.
func lineLikeness(a, b string) float64 {
	if a == b {
		return 1
	}
	// Of two lines as far from b in their words, the one indented as b
	// is is the likelier: "\treturn" for "\trturn", not "\t\treturn".
	sameIndent := a[:len(a)-len(strings.TrimLeft(a, " \t"))] == b[:len(b)-len(strings.TrimLeft(b, " \t"))]
	a, b = seen(a), seen(b)
	if a == b {
		return 0.99
	}
	run, isRun := runAdded(a, b)
	const maxLen = 160
	a, b = a[:min(len(a), maxLen)], b[:min(len(b), maxLen)]
	d := levenshtein(a, b)
	if len(a) <= maxSlipLine && len(b) <= maxSlipLine {
		// In a short word a transposition is one slip, not two.
		d = min(d, osaDistance(a, b))
	}
	l := 0.95 * (1 - float64(d)/float64(max(len(a), len(b))))
	if isRun {
		l = max(l, run)
	}
	if !sameIndent {
		l -= 0.01
	}
	return l
}

// levenshtein is the edit distance from a to b. Candidates score every
// line of every window they weigh with it: where the shorter text has at
// most maxBitLen bytes, the distance is computed a column of the table at
// a time, in machine words (Myers' bit-vector algorithm, in blocks of 64
// rows), in a few steps per byte of the longer.
func levenshtein(a, b string) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 || len(a) > maxBitLen {
		return distanceRow(a, b, false)[len(b)]
	}
	// peq[slot[c]-1] has bit i of block k set where a[64k+i] is c.
	var slot [256]uint8
	var peq [maxBitBytes][maxBitLen / 64]uint64
	n := 0
	for i := 0; i < len(a); i++ {
		c := a[i]
		if slot[c] == 0 {
			if n == maxBitBytes {
				return distanceRow(a, b, false)[len(b)]
			}
			n++
			slot[c] = uint8(n)
		}
		peq[slot[c]-1][i/64] |= 1 << (i % 64)
	}
	blocks := (len(a) + 63) / 64
	// pv and mv hold the +1 and -1 vertical differences of the current
	// column, a block of a's bytes each; score is the last row's entry.
	var pv, mv [maxBitLen / 64]uint64
	for k := range blocks {
		pv[k] = ^uint64(0)
	}
	score := len(a)
	var none [maxBitLen / 64]uint64
	for j := 0; j < len(b); j++ {
		eqs := &none
		if s := slot[b[j]]; s > 0 {
			eqs = &peq[s-1]
		}
		hin := 1 // the first row grows by one a column
		for k := range blocks {
			eq, p, m := eqs[k], pv[k], mv[k]
			xv := eq | m
			if hin < 0 {
				eq |= 1
			}
			xh := (((eq & p) + p) ^ p) | eq
			ph := m | ^(xh | p)
			mh := p & xh
			high := uint64(1) << 63
			if k == blocks-1 {
				high = 1 << ((len(a) - 1) % 64)
			}
			hout := 0
			if ph&high != 0 {
				hout = 1
			} else if mh&high != 0 {
				hout = -1
			}
			ph <<= 1
			mh <<= 1
			if hin < 0 {
				mh |= 1
			} else if hin > 0 {
				ph |= 1
			}
			pv[k] = mh | ^(xv | ph)
			mv[k] = ph & xv
			hin = hout
		}
		score += hin
	}
	return score
}

// maxBitLen is the longest text levenshtein takes a word at a time (the
// lines candidates compare are cut to 160 bytes), and maxBitBytes the
// most distinct bytes it may hold.
const (
	maxBitLen   = 192
	maxBitBytes = 64
)

// distanceRow is the last row of the edit-distance table from a to b:
// entry j is the distance from a to b[:j], or with freePrefix to the
// closest suffix of b[:j].
func distanceRow(a, b string, freePrefix bool) []int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	if !freePrefix {
		for j := range prev {
			prev[j] = j
		}
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = min(c, prev[j], cur[j-1]) + 1
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev
}

// differs writes the hint, in wd's words, for the best window: the first
// line that differs from the old text, and the lines to copy. A line that
// differs visibly is named before one that differs only in invisible
// characters, which the hint names and shows escaped.
func (f *finder) differs(p *pattern, w window, wd *words) string {
	lines := f.lines
	pick := -1
	for pass := 0; pass < 2 && pick < 0; pass++ {
		for i, l := range p.lines {
			if p.gap[i] || i >= w.n {
				continue
			}
			fl := f.content[lines[w.start+i].start:lines[w.start+i].end]
			if (pass == 0 && lineLikeness(fl, l) < 0.99) || (pass == 1 && fl != l) {
				pick = i
				break
			}
		}
	}
	sw := f.shownWindow(w)
	if pick < 0 {
		return hintCopy(wd, sw, len(p.lines) > w.n)
	}
	fl, sl := f.content[lines[w.start+pick].start:lines[w.start+pick].end], p.lines[pick]
	if isLong(fl, sl) {
		return hintLongLineDiffers(wd, f.shownLine(w.start+pick), stretch(fl, sl), sl, isFragment(p))
	}
	return hintLineDiffers(wd, sw, f.shownLine(w.start+pick), fl, sl)
}

// lookAlike reports whether a and b read the same: equal once blanks are
// collapsed, punctuation folded and invisible characters dropped.
func lookAlike(a, b string) bool {
	return seen(a) == seen(b)
}

// seen is s as a reader sees it: invisible characters dropped, every run
// of blanks one space, punctuation folded.
func seen(s string) string {
	if t, ok := seenASCII(s); ok {
		return t
	}
	return seenAny(s)
}

// seenAny is seen for any s.
func seenAny(s string) string {
	if strings.IndexFunc(s, invisibleRune) >= 0 {
		s = strings.Map(func(r rune) rune {
			switch {
			case r == '\t' || unicode.IsSpace(r):
				return ' '
			case invisibleRune(r):
				return -1
			}
			return r
		}, s)
	}
	return strings.Join(strings.Fields(foldPunct(s)), " ")
}

// seenASCII is seen of s where s is ASCII, holds no "--" and no control
// byte but blanks, and no run of blanks inside it but single spaces: s
// with its edges' blanks cut, which a line of code mostly is. It says
// false for any other s.
func seenASCII(s string) (string, bool) {
	lo, hi := 0, len(s)
	for lo < hi && isBlankByte(s[lo]) {
		lo++
	}
	for hi > lo && isBlankByte(s[hi-1]) {
		hi--
	}
	for i := lo; i < hi; i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf || c == 0x7f:
			return "", false
		case c == ' ':
			if s[i+1] == ' ' {
				return "", false
			}
		case c < ' ':
			return "", false
		case c == '-':
			if i+1 < hi && s[i+1] == '-' {
				return "", false
			}
		}
	}
	return s[lo:hi], true
}

// isBlankByte reports whether c is an ASCII byte strings.Fields splits at.
func isBlankByte(c byte) bool { return isSpace(c) || c == '\n' }

// invisibleRune reports whether r does not show as itself in a hint: a
// control character, a space other than ' ', a format character.
func invisibleRune(r rune) bool {
	return r != ' ' && (unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r))
}

// listed turns hits into candidates of similarity 1.
func (f *finder) listed(hits []hit) []edit.Candidate {
	return listedOf(hits, f.shownLine, f.excerpt)
}

// listedOf is finder.listed of a content whose lines an error names by
// shown, and whose excerpts excerpt cuts.
func listedOf(hits []hit, shown func(k int) int, excerpt func(first, last int) string) []edit.Candidate {
	if len(hits) == 0 {
		return nil
	}
	cs := make([]edit.Candidate, 0, min(len(hits), maxListed))
	for i, h := range hits {
		if i == maxListed {
			break
		}
		// A one-line place's line is mapped to disk once.
		first := shown(h.first)
		last := first
		if h.last != h.first {
			last = shown(h.last)
		}
		cs = append(cs, edit.Candidate{LineStart: first, LineEnd: last, Similarity: 1, Excerpt: excerpt(h.first, h.last)})
	}
	return cs
}

// An excerpt is cut to a budget, so that no receipt grows with the file:
// a miss on a file whose one line is 50 MB would quote the line, and a
// MULTIPLE_MATCHES of long places would quote each whole.
const (
	excerptLines    = 60   // lines an excerpt quotes
	excerptBytes    = 8192 // bytes it quotes, its marks aside
	excerptLineRoom = 512  // bytes it quotes of one line
)

// excerpt returns the file's lines first..last (0-based, inclusive), each
// ending in "\n", within the excerpt budget: a line cut short ends in
// "…" and the count of bytes left out, and lines left out are counted on
// a last line of their own.
func (f *finder) excerpt(first, last int) string {
	lines := f.lineIndex()
	return excerptOf(first, min(last, len(lines)-1), func(k int) string { return f.content[lines[k].start:lines[k].end] })
}

// excerptOf is finder.excerpt of the lines first..last of a content, each
// read by line(k), without its line ending; last is one of its lines.
func excerptOf(first, last int, line func(k int) string) string {
	var b strings.Builder
	room := excerptBytes
	k := first
	for ; k <= last && k-first < excerptLines && room > 0; k++ {
		l := line(k)
		if n := min(excerptLineRoom, room); len(l) > n {
			cut := textcut.Prefix(l, n)
			b.WriteString(cut)
			fmt.Fprintf(&b, "… (%d more bytes on this line)\n", len(l)-len(cut))
			room -= len(cut)
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
		room -= len(l)
	}
	if k <= last {
		fmt.Fprintf(&b, "… (%d more lines)\n", last-k+1)
	}
	return b.String()
}

// osaDistance is the edit distance from a to b that counts a swap of two
// adjacent bytes as one edit (optimal string alignment).
func osaDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// minRunBase is the shortest line runAdded judges: in a shorter one a
// shared prefix is a coincidence.
const minRunBase = 8

// runAdded reports whether one of a and b is the other with one run of
// text added (`class Avg(Aggregate):`, `class Avg(FixDurationInputMixin,
// Aggregate):`), and their likeness then: a line edited in place, alike
// whatever the run's length, the less so the longer the run (and never
// more than one slip would make them).
func runAdded(a, b string) (float64, bool) {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) < minRunBase || len(a) == len(b) {
		return 0, false
	}
	pre := 0
	for pre < len(a) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	if pre+suf < len(a) || pre == 0 {
		return 0, false
	}
	return 0.85 - 0.1*float64(len(b)-len(a))/float64(len(b)), true
}

// rarity weighs a SEARCH line l by how often its loose form stands in the
// file: 1 for a line that stands once or nowhere, less for one that
// stands in many places.
func (f *finder) rarity(l string) float64 {
	n := len(f.keyPostings().get(looseKey(l)))
	if n <= 1 {
		return 1
	}
	return 1 / (1 + math.Log(float64(n)))
}
