package locate

import "slices"

// Lines of the SEARCH text that stand exactly once in the file are its
// surest anchors: when every line stands, each once but not together, the
// model quoted them in another order; when nothing else is close, the
// place around one of them is the likeliest.

// uniqueAt returns, for each line of p, the file line from fromLine on
// where its loose form stands, when it stands there alone; -1 for a line
// that stands nowhere or more than once, a blank line or a placeholder.
func (f *finder) uniqueAt(p *pattern, fromLine int) []int {
	at := make([]int, len(p.lines))
	post := f.keyPostings()
	for i, l := range p.lines {
		at[i] = -1
		if p.gap[i] || isBlank(l) {
			continue
		}
		if ls := from(post.get(looseKey(l)), fromLine); len(ls) == 1 {
			at[i] = int(ls[0])
		}
	}
	return at
}

// scattered returns the file lines where each line of p stands, when
// every one (blank lines and placeholders aside, two at least) stands
// exactly once and they are not in p's order one after another: the old
// text quotes lines of the file in another order or from places apart.
func scattered(p *pattern, at []int) ([]int, bool) {
	var ls []int
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		if at[i] < 0 {
			return nil, false
		}
		ls = append(ls, at[i])
	}
	if len(ls) < 2 || slices.IsSorted(ls) && ls[len(ls)-1]-ls[0] == len(ls)-1 {
		return nil, false
	}
	return ls, true
}

// uniqueWindow is the window of p's length aligning p's first line that
// stands exactly once in the file with it, and that line's index in p.
func (f *finder) uniqueWindow(p *pattern, at []int) (window, int, bool) {
	for i, k := range at {
		if k < 0 {
			continue
		}
		s := max(k-i, 0)
		n := min(len(p.lines), len(f.lineIndex())-s)
		if n <= 0 {
			return window{}, 0, false
		}
		return window{s, n, f.similarity(p, s, n)}, i, true
	}
	return window{}, 0, false
}
