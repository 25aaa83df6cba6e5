package locate

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strings"

	"github.com/edapply/edapply/edit"
)

// Candidates for NO_MATCH. Scoring every window of a large file against
// the SEARCH text with an edit distance would be quadratic; instead each
// line is hashed once in its loosest form (trimmed, blanks collapsed,
// punctuation folded), every file line equal to a SEARCH line votes for
// the window that would align them, and only the most voted windows are
// scored line by line. A file of 200,000 lines costs one pass.

// maxCandidates is how many near misses a NO_MATCH lists.
const maxCandidates = 3

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
// line that differs in the best.
func (f *finder) candidates(p *pattern, fromLine int) ([]edit.Candidate, string) {
	lines := f.lineIndex()
	want := make(map[uint64][]int)
	real := 0
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		real++
		k := looseKey(l)
		want[k] = append(want[k], i)
	}
	none := "No line of the SEARCH text occurs in the file; re-read the file and copy the lines to replace exactly as they stand."
	if real == 0 || len(lines) == 0 {
		return nil, none
	}
	// A bit per slice of the key space rules out most lines before the
	// map is asked.
	var maybe hashBits
	for k := range want {
		maybe.set(k)
	}
	votes := make(map[int]int)
	keys := f.looseKeys()
	for k := fromLine; k < len(lines); k++ {
		key := keys[k]
		if !maybe.has(key) {
			continue
		}
		if isBlank(f.content[lines[k].start:lines[k].end]) {
			continue
		}
		for _, i := range want[key] {
			votes[k-i]++
		}
	}
	if len(votes) == 0 {
		return nil, none
	}
	// The most voted starts (ties: the earliest), without sorting them all.
	const top = 12
	starts := make([]int, 0, top+1)
	better := func(a, b int) bool { return votes[a] > votes[b] || votes[a] == votes[b] && a < b }
	for st := range votes {
		if len(starts) == top && !better(st, starts[top-1]) {
			continue
		}
		i := len(starts)
		starts = append(starts, st)
		for i > 0 && better(st, starts[i-1]) {
			starts[i] = starts[i-1]
			i--
		}
		starts[i] = st
		if len(starts) > top {
			starts = starts[:top]
		}
	}
	var ws []window
	for _, s := range starts {
		s = max(s, fromLine, 0)
		n := min(len(p.lines), len(lines)-s)
		if n <= 0 {
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
	var cs []edit.Candidate
	var picked []window
	for _, w := range ws {
		if len(picked) == maxCandidates {
			break
		}
		if slices.ContainsFunc(picked, func(q window) bool { return w.start < q.start+q.n && q.start < w.start+w.n }) {
			continue // overlaps a better one
		}
		picked = append(picked, w)
		cs = append(cs, edit.Candidate{LineStart: w.start + 1, LineEnd: w.start + w.n, Similarity: round2(w.sim), Excerpt: f.excerpt(w.start, w.start+w.n-1)})
	}
	return cs, f.differs(p, picked[0])
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// similarity scores the window of n file lines from s against p, 0..1: the
// mean over p's lines (placeholders left out) of each line's likeness to
// the file line beside it.
func (f *finder) similarity(p *pattern, s, n int) float64 {
	lines := f.lines
	total, count := 0.0, 0
	for i, l := range p.lines {
		if p.gap[i] {
			continue
		}
		count++
		if i >= n {
			continue
		}
		total += lineLikeness(f.content[lines[s+i].start:lines[s+i].end], l)
	}
	if count == 0 {
		return 0
	}
	return total / float64(count)
}

// lineLikeness is 1 for lines equal in their loosest form, else one minus
// their edit distance over the longer length (on at most 160 bytes).
func lineLikeness(a, b string) float64 {
	a, b = strings.Join(strings.Fields(foldPunct(a)), " "), strings.Join(strings.Fields(foldPunct(b)), " ")
	if a == b {
		return 1
	}
	const maxLen = 160
	a, b = a[:min(len(a), maxLen)], b[:min(len(b), maxLen)]
	d := levenshtein(a, b)
	return 0.95 * (1 - float64(d)/float64(max(len(a), len(b))))
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
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
	return prev[len(b)]
}

// differs writes the hint for the best window: the first line that differs
// from the SEARCH text, and the lines to copy.
func (f *finder) differs(p *pattern, w window) string {
	lines := f.lines
	copyLines := fmt.Sprintf("Copy lines %s exactly as they stand.", lineRange(w.start+1, w.start+w.n))
	pick := -1
	for pass := 0; pass < 2 && pick < 0; pass++ {
		for i, l := range p.lines {
			if p.gap[i] || i >= w.n {
				continue
			}
			fl := f.content[lines[w.start+i].start:lines[w.start+i].end]
			if (pass == 0 && lineLikeness(fl, l) < 1) || (pass == 1 && fl != l) {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		if len(p.lines) > w.n {
			return fmt.Sprintf("The SEARCH text runs past the end of the file after line %d. %s", w.start+w.n, copyLines)
		}
		return copyLines
	}
	fl := f.content[lines[w.start+pick].start:lines[w.start+pick].end]
	return fmt.Sprintf("Line %d differs: the file has `%s`, the SEARCH has `%s`. %s",
		w.start+pick+1, clip(fl), clip(p.lines[pick]), copyLines)
}

// clip shortens a line for a hint.
func clip(s string) string {
	s = strings.TrimRight(s, " \t\r")
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}
