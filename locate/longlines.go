package locate

import "strings"

// A line far longer than any a model quotes whole (minified code, a data
// line) is quoted in pieces: a SEARCH line that is a piece of it shares
// too few of its words to vote for it, and is looked for in it as text.

// longLine is the length from which a file line is long.
const longLine = 512

// minPiece is the shortest SEARCH line, trimmed, looked for in long lines:
// a shorter one stands by chance in many.
const minPiece = 8

// scanBudget bounds the bytes of long lines that a finder's candidate
// searches read, as a multiple of the content's size: failing edits by
// the thousand on a file of one long line must not read it a thousand
// times.
const scanBudget = 4

// isLong reports whether the file line fl is long and more than twice as
// long as the SEARCH line sl: sl is then judged as a piece of it.
func isLong(fl, sl string) bool { return len(fl) >= longLine && len(fl) > 2*len(sl) }

// longLines returns the lines of f longer than longLine, found once.
func (f *finder) longLines() []int {
	if !f.longKnown {
		f.longKnown = true
		for k, l := range f.lineIndex() {
			if l.end-l.start >= longLine {
				f.long = append(f.long, k)
			}
		}
	}
	return f.long
}

// longVotes adds to votes a vote for each window that aligns a long line
// of the file, from line fromLine on, holding a SEARCH line of p as it
// reads (trimmed) with that line. It reads the long lines within the
// finder's budget and reports whether it read them all.
func (f *finder) longVotes(p *pattern, fromLine int, votes map[int]float64) bool {
	long := f.longLines()
	if len(long) == 0 {
		return true
	}
	lines := f.lineIndex()
	for i, l := range p.lines {
		t := strings.TrimSpace(l)
		if p.gap[i] || len(t) < minPiece || len(t) >= longLine {
			continue
		}
		for _, k := range long {
			if k < fromLine {
				continue
			}
			fl := f.content[lines[k].start:lines[k].end]
			if f.scanned += len(fl); f.scanned > scanBudget*len(f.content)+longLine {
				return false
			}
			if _, whole, ok := findPiece(fl, t); ok {
				if whole {
					votes[k-i]++
				} else {
					votes[k-i] += 0.5
				}
			}
		}
	}
	return true
}

// findPiece finds the SEARCH line t, trimmed, in the long line fl: as it
// reads (whole), or else either half of it, as a piece with one slip
// keeps one half intact. at is where the stretch of fl t stands for
// would begin.
func findPiece(fl, t string) (at int, whole, ok bool) {
	if i := strings.Index(fl, t); i >= 0 {
		return i, true, true
	}
	h := len(t) / 2
	if h < minPiece/2 {
		return 0, false, false
	}
	if i := strings.Index(fl, t[:h]); i >= 0 {
		return i, false, true
	}
	if i := strings.Index(fl, t[h:]); i >= 0 {
		return max(0, i-h), false, true
	}
	return 0, false, false
}

// stretch is the part of the long line fl that the SEARCH line sl, a
// piece of it, stands for: around where findPiece finds it, a little
// wider than sl; the head of fl when it is not found.
func stretch(fl, sl string) string {
	t := strings.TrimSpace(sl)
	at, _, _ := findPiece(fl, t)
	from := max(0, at-len(t)/2)
	to := min(len(fl), at+len(t)+len(t)/2)
	for from > 0 && !utf8RuneStart(fl[from]) {
		from--
	}
	for to < len(fl) && !utf8RuneStart(fl[to]) {
		to++
	}
	return fl[from:to]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
