package report

import (
	"bytes"
	"fmt"
	"sort"
)

// anchoredDiff is the anchored diff of go-internal's diff.Diff, byte for
// byte, at a cost that grows with the lines that differ rather than the
// file: the receipt of one edit to a large file would otherwise split
// every line of both versions into strings and count each in a map. The
// lines of the common prefix and suffix are never split out; only the
// middle is, and a scan of the rest tells which of its lines stand
// elsewhere too.
//
// Why the output is the same: the unique lines of the prefix and suffix
// (the anchors diff.Diff finds there) pair with themselves and with every
// anchor of the middle, so its longest common subsequence is theirs plus
// the middle's, and its reconstruction picks the same middle anchors. The
// prefix's anchors fall inside the run the first sentinel expands over,
// and the first anchor of the suffix expands to what the end sentinel
// does, so neither changes a hunk. A line of the middle is an anchor when
// it stands once in each version's middle and nowhere in the prefix or
// suffix, as counting whole files would find. TestAnchoredDiffIsDiff
// holds the two to the same bytes.
func anchoredDiff(oldName string, old []byte, newName string, new []byte) []byte {
	if bytes.Equal(old, new) {
		return nil
	}
	v := splitCommon(old, new)
	var out bytes.Buffer
	fmt.Fprintf(&out, "diff %s %s\n", oldName, newName)
	fmt.Fprintf(&out, "--- %s\n", oldName)
	fmt.Fprintf(&out, "+++ %s\n", newName)
	x, y := &v.x, &v.y
	nx, ny := x.len(), y.len()
	p := v.prefix

	// The first sentinel's expansion: the common prefix, and up to C of
	// its last lines as the context of the first chunk.
	const C = 3 // lines of context
	from := max(0, p-C)
	chunk, done := pair{from, from}, pair{p, p}
	count := pair{p - from, p - from}
	var ctext [][]byte
	for i := from; i < p; i++ {
		ctext = append(ctext, x.line(i, ' '))
	}
	seq := append(v.anchors(), pair{nx, ny})
	for k, m := range seq {
		if m.x < done.x {
			continue
		}
		start := m
		if k == len(seq)-1 {
			// The end sentinel expands back over the common suffix, up to
			// what is done.
			n := min(v.suffix, nx-done.x, ny-done.y)
			start = pair{nx - n, ny - n}
		}
		for start.x > done.x && start.y > done.y && x.equal(y, start.x-1, start.y-1) {
			start.x--
			start.y--
		}
		end := m
		for end.x < nx && end.y < ny && x.equal(y, end.x, end.y) {
			end.x++
			end.y++
		}
		for i := done.x; i < start.x; i++ {
			ctext = append(ctext, x.line(i, '-'))
			count.x++
		}
		for i := done.y; i < start.y; i++ {
			ctext = append(ctext, y.line(i, '+'))
			count.y++
		}
		if (end.x < nx || end.y < ny) && (end.x-start.x < C || len(ctext) > 0 && end.x-start.x < 2*C) {
			for i := start.x; i < end.x; i++ {
				ctext = append(ctext, x.line(i, ' '))
				count.x++
				count.y++
			}
			done = end
			continue
		}
		if len(ctext) > 0 {
			n := min(end.x-start.x, C)
			for i := start.x; i < start.x+n; i++ {
				ctext = append(ctext, x.line(i, ' '))
				count.x++
				count.y++
			}
			done = pair{start.x + n, start.y + n}
			// Lines from 1; an empty side shows as 0,0.
			if count.x > 0 {
				chunk.x++
			}
			if count.y > 0 {
				chunk.y++
			}
			fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", chunk.x, count.x, chunk.y, count.y)
			for _, s := range ctext {
				out.Write(s)
			}
			count = pair{}
			ctext = ctext[:0]
		}
		if end.x >= nx && end.y >= ny {
			break
		}
		chunk = pair{end.x - C, end.y - C}
		for i := chunk.x; i < end.x; i++ {
			ctext = append(ctext, x.line(i, ' '))
			count.x++
			count.y++
		}
		done = end
	}
	return out.Bytes()
}

// A pair is a line of each version, by number from 0.
type pair struct{ x, y int }

// A sideLines is one version's lines, as diff.Diff splits them, addressed
// by number without splitting the common prefix and suffix: the middle's
// lines are split out, the suffix's as they are first read, and the
// prefix's last few.
type sideLines struct {
	text           []byte
	prefix, middle int   // lines before the middle; lines of the middle
	starts         []int // offsets of the middle's lines
	suffixAt       int   // where the suffix starts
	suffixLines    int
	suffixStarts   []int // offsets of the suffix's lines read so far
	prefixTail     []int // offsets of the prefix's last lines, ascending, and its end
}

func (s *sideLines) len() int { return s.prefix + s.middle + s.suffixLines }

// span is line i's bytes, its line ending included.
func (s *sideLines) span(i int) []byte {
	var at int
	switch {
	case i < s.prefix:
		at = s.prefixTail[len(s.prefixTail)-1-(s.prefix-i)]
	case i < s.prefix+s.middle:
		at = s.starts[i-s.prefix]
	default:
		k := i - s.prefix - s.middle
		for len(s.suffixStarts) <= k {
			last := s.suffixStarts[len(s.suffixStarts)-1]
			s.suffixStarts = append(s.suffixStarts, lineEnd(s.text, last))
		}
		at = s.suffixStarts[k]
	}
	return s.text[at:lineEnd(s.text, at)]
}

// line is line i as a diff line after mark: a last line without a line
// ending gets one and diff's note.
func (s *sideLines) line(i int, mark byte) []byte {
	l := s.span(i)
	b := make([]byte, 0, len(l)+len(noNewline)+2)
	b = append(append(b, mark), l...)
	if len(l) == 0 || l[len(l)-1] != '\n' {
		b = append(b, noNewline...)
	}
	return b
}

const noNewline = "\n\\ No newline at end of file\n"

func (s *sideLines) equal(t *sideLines, i, j int) bool { return bytes.Equal(s.span(i), t.span(j)) }

// lineEnd is the end of the line starting at at: past its '\n', or the
// end of text.
func lineEnd(text []byte, at int) int {
	if k := bytes.IndexByte(text[at:], '\n'); k >= 0 {
		return at + k + 1
	}
	return len(text)
}

// A commonSplit is two versions split into a common prefix of whole
// lines, a middle each, and a common suffix of whole lines.
type commonSplit struct {
	x, y           sideLines
	prefix, suffix int // lines
}

func splitCommon(old, new []byte) *commonSplit {
	c := 0
	for c < len(old) && c < len(new) && old[c] == new[c] {
		c++
	}
	pend := bytes.LastIndexByte(old[:c], '\n') + 1
	s := 0
	for s < len(old)-pend && s < len(new)-pend && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	// The suffix starts at a line start of both.
	qx, qy := len(old)-s, len(new)-s
	if !(qx == pend || old[qx-1] == '\n') || !(qy == pend || new[qy-1] == '\n') {
		if k := bytes.IndexByte(old[qx:], '\n'); k >= 0 {
			qx, qy = qx+k+1, qy+k+1
		} else {
			qx, qy = len(old), len(new)
		}
	}
	v := &commonSplit{prefix: bytes.Count(old[:pend], []byte{'\n'}), suffix: countLines(old[qx:])}
	for _, side := range []struct {
		s    *sideLines
		text []byte
		q    int
	}{{&v.x, old, qx}, {&v.y, new, qy}} {
		sl := side.s
		sl.text, sl.prefix, sl.suffixAt, sl.suffixLines = side.text, v.prefix, side.q, v.suffix
		for at := pend; at < side.q; at = lineEnd(side.text, at) {
			sl.starts = append(sl.starts, at)
		}
		sl.middle = len(sl.starts)
		sl.suffixStarts = []int{side.q}
		// The prefix's last lines, for context.
		tail := []int{pend}
		for at := pend; at > 0 && len(tail) <= 3; {
			at = bytes.LastIndexByte(side.text[:at-1], '\n') + 1
			tail = append(tail, at)
		}
		for i, j := 0, len(tail)-1; i < j; i, j = i+1, j-1 {
			tail[i], tail[j] = tail[j], tail[i]
		}
		sl.prefixTail = tail
	}
	return v
}

// countLines is how many lines diff.Diff splits b into.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// anchors are the pairs of diff.Diff's longest common subsequence of
// unique lines that lie in the middle, with the first sentinel before
// them, as its tgs returns them (the prefix's and suffix's anchors left
// out: see anchoredDiff).
func (v *commonSplit) anchors() []pair {
	x, y := &v.x, &v.y
	// Counts in each middle, 0, 1 or many: -1 and -2 for x, -4 and -8
	// for y, as tgs keeps them.
	m := make(map[string]int)
	lengths := make(map[int]bool)
	for i := range x.middle {
		l := x.span(x.prefix + i)
		if c := m[string(l)]; c > -2 {
			m[string(l)] = c - 1
		}
		lengths[len(l)] = true
	}
	for i := range y.middle {
		l := y.span(y.prefix + i)
		if c := m[string(l)]; c > -8 {
			m[string(l)] = c - 4
		}
		lengths[len(l)] = true
	}
	// A middle line that stands in the prefix or suffix too is unique in
	// neither file.
	elsewhere := func(l []byte) {
		if lengths[len(l)] {
			if _, ok := m[string(l)]; ok {
				m[string(l)] = -16
			}
		}
	}
	for at := 0; at < v.x.prefixTail[len(v.x.prefixTail)-1]; {
		e := lineEnd(x.text, at)
		elsewhere(x.text[at:e])
		at = e
	}
	for at := x.suffixAt; at < len(x.text); {
		e := lineEnd(x.text, at)
		elsewhere(x.text[at:e])
		at = e
	}
	var xi, yi, inv []int
	for i := range y.middle {
		l := y.span(y.prefix + i)
		if m[string(l)] == -1+-4 {
			m[string(l)] = len(yi)
			yi = append(yi, y.prefix+i)
		}
	}
	for i := range x.middle {
		if j, ok := m[string(x.span(x.prefix+i))]; ok && j >= 0 {
			xi = append(xi, x.prefix+i)
			inv = append(inv, j)
		}
	}
	// Szymanski's Algorithm A, as tgs runs it, its reconstruction
	// included.
	J, n := inv, len(xi)
	T, L := make([]int, n), make([]int, n)
	for i := range T {
		T[i] = n + 1
	}
	for i := range n {
		k := sort.Search(n, func(k int) bool { return T[k] >= J[i] })
		T[k] = J[i]
		L[i] = k + 1
	}
	k := 0
	for _, l := range L {
		k = max(k, l)
	}
	seq := make([]pair, k)
	for i := n - 1; i >= 0 && k > 0; i-- {
		if L[i] == k {
			seq[k-1] = pair{xi[i], yi[J[i]]}
			k--
		}
	}
	return seq
}
