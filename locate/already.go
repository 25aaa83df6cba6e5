package locate

// An edit already applied: its new text standing where its old text
// would, or standing alone where the old text is found nowhere.

import (
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// onlyExplanation reports whether h, the one place the new text stands,
// explains an old text found nowhere as an edit already made, rather than
// an old text quoted wrong. It is not when a line the edit removes still
// stands around h (the comment line above a changed line, quoted with a
// typo in the line under it), nor when the old text is a near miss of the
// file outside h at least as near as any inside it: its lines two byte
// edits from a run of the file's, at most one in four of its bytes (a
// typo in a SEARCH whose replacement happens to stand elsewhere). Inside
// h the old text is also compared as written when the new text stands
// there only by a tolerance.
func (f *finder) onlyExplanation(op, np *pattern, h hit) bool {
	lines := f.lineIndex()
	loose := f.looseLines()
	kept := map[string]bool{}
	for _, l := range np.lines {
		kept[looseLine(l)] = true
	}
	removed := map[string]bool{}
	for _, l := range op.lines {
		if t := looseLine(l); telling(t) && !kept[t] {
			removed[t] = true
		}
	}
	n := len(op.lines)
	for k := max(0, h.first-n); k < len(lines) && k <= h.last+n; k++ {
		if (k < h.first || k > h.last) && removed[loose[k]] {
			return false
		}
	}
	if op.gaps > 0 {
		return true
	}
	opl := make([]string, n)
	for i, l := range op.lines {
		opl[i] = looseLine(l)
	}
	// The old text's distance to the file's runs of its length, loose:
	// the nearest inside h (3: none near) against each outside it.
	dist := func(k int) int {
		d := 0
		for i := 0; i < n && d <= 2; i++ {
			d += lineDistance(opl[i], loose[k+i])
		}
		return min(d, 3)
	}
	inH := func(k int) bool { return k >= h.first && k+n-1 <= h.last }
	dH := 3
	for k := h.first; k+n-1 <= h.last && k+n <= len(lines); k++ {
		dH = min(dH, dist(k))
		if h.cmp > levelTrailingWS {
			// The new text stands there only by a tolerance (its
			// indentation, its spacing): the old text as the file has it
			// but for a typo is the better reading of the place.
			d := 0
			for i := 0; i < n && d <= 2; i++ {
				l := lines[k+i]
				d += lineDistance(trimRight(op.lines[i]), trimRight(f.content[l.start:l.end]))
			}
			if d <= 2 && 4*d <= len(op.text) {
				return false
			}
		}
	}
	for k := 0; k+n <= len(lines); k++ {
		if inH(k) {
			continue
		}
		if d := dist(k); d <= 2 && 4*d <= len(op.text) && d <= dH {
			return false
		}
	}
	return true
}

// looseLines returns looseLine of each of f's lines, made once per
// content: every edit that finds its new text standing asks for all of
// them, and a reply sent twice has hundreds.
func (f *finder) looseLines() []string {
	if f.loose == nil {
		lines := f.lineIndex()
		f.loose = make([]string, len(lines))
		*f.keyed += len(lines)
		for k, l := range lines {
			f.loose[k] = looseLine(f.content[l.start:l.end])
		}
	}
	return f.loose
}

// looseLine is a line as the loosest literal rung, spacing, compares it:
// its punctuation folded, its blanks trimmed, dropped beside punctuation
// and collapsed elsewhere. An old text is then no nearer a place for
// spacing it quotes otherwise than the ladder would find it there.
func looseLine(l string) string {
	return spacedForm(foldPunct(l))
}

// telling reports whether a loose line says something: it holds a letter
// or a digit, which "}" and blank lines do not.
func telling(t string) bool {
	return strings.IndexFunc(t, func(r rune) bool {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80
	}) >= 0
}

// lineDistance is the number of single-byte edits (insertions,
// deletions, substitutions) between a and b, or 3 when it is more than 2.
func lineDistance(a, b string) int {
	const most = 2
	if a == b {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > most {
		return most + 1
	}
	// A band of the edit-distance table: cell j of row i stands for
	// column i+j-most.
	const width = 2*most + 1
	const inf = 1 << 20
	var prev, cur [width]int
	for j := range prev {
		c := j - most
		if c >= 0 && c <= len(b) {
			prev[j] = c
		} else {
			prev[j] = inf
		}
	}
	for i := 1; i <= len(a); i++ {
		best := inf
		for j := range cur {
			c := i + j - most
			if c < 0 || c > len(b) {
				cur[j] = inf
				continue
			}
			v := inf
			if c == 0 {
				v = i
			} else {
				sub := prev[j] // (i-1, c-1)
				if a[i-1] != b[c-1] {
					sub++
				}
				v = sub
				if j > 0 && cur[j-1]+1 < v { // (i, c-1)
					v = cur[j-1] + 1
				}
			}
			if j+1 < width && prev[j+1]+1 < v { // (i-1, c)
				v = prev[j+1] + 1
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > most {
			return most + 1
		}
		prev = cur
	}
	return min(prev[len(b)-len(a)+most], most+1)
}

// changesNothing is the error of an edit that may not be found already
// applied (Options.noAlready) and whose text, as it stands, is what it
// would write: a later edit of the reply changes the lines it quotes, so
// in the content the reply leaves, its text does not stand.
func (m *matcher) changesNothing() *edit.Error { return errChangesNothing(wordsOf(m.e)) }

// addsFinalNL reports whether np's hits miss the final newline the edit
// adds: np ends with one and op does not, and a hit ends a file without one.
func (f *finder) addsFinalNL(op, np *pattern, nh []hit) bool {
	return np.finalNL && !op.finalNL && f.endsNoNL(nh[len(nh)-1].end)
}

// insertion reports whether the new text contains the old: as text, or
// line by line at the loosest line tolerance short of elision (blanks at
// either end and inside, typography).
func insertion(op, np *pattern) bool {
	if op.insNew != np {
		op.insNew, op.ins = np, isInsertion(op, np)
	}
	return op.ins
}

func isInsertion(op, np *pattern) bool {
	if np.text == op.text || np.blank {
		return false
	}
	if strings.Contains(np.text, op.text) {
		return true
	}
	n := len(op.lines)
	if n == 0 || n >= len(np.lines) {
		return false
	}
	// Each side's lines are folded as far as a comparison first reaches:
	// most places fail on their first lines, and the old text's later
	// lines are then never folded.
	ol, nl := make([]string, 0, n), make([]string, 0, len(np.lines))
	fold := func(folded *[]string, ls []string, i int) string {
		for len(*folded) <= i {
			*folded = append(*folded, foldPunct(ls[len(*folded)]))
		}
		return (*folded)[i]
	}
	for k := 0; k+n <= len(np.lines); k++ {
		j := 0
		for j < n && eqFields(fold(&nl, np.lines, k+j), fold(&ol, op.lines, j)) {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

// standing reports whether hits of the new text show it standing in the
// file as often as the edit expects, none overlapping another.
func (m *matcher) standing(hits []hit) bool {
	return len(hits) > 0 && !overlapping(hits) && (m.want == 0 || len(hits) == m.want)
}

// already reports hits of text that already stands in the file.
func (m *matcher) already(hits []hit, lv level) location {
	h := hits[0]
	s := m.f.content[h.start:h.end]
	return location{Strategy: lv.strategy(), Status: edit.StatusAlreadyApplied,
		LineStart: h.first + 1, LineEnd: h.last + 1, Matched: s, Written: s}
}

// holdsEach reports whether every outer hit holds one of inner.
func holdsEach(outer, inner []hit) bool {
	for _, o := range outer {
		if !slices.ContainsFunc(inner, func(h hit) bool { return inside(h, o) }) {
			return false
		}
	}
	return true
}

// within reports whether every inner hit lies inside one of outer.
func within(inner, outer []hit) bool {
	for _, h := range inner {
		if !slices.ContainsFunc(outer, func(o hit) bool { return inside(h, o) }) {
			return false
		}
	}
	return true
}

func inside(h, o hit) bool { return h.start >= o.start && h.end <= o.end }
