package locate

import "strings"

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
