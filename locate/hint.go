package locate

// Rung 7, line-hint, and a diff's anchors: where the edit says it goes.

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// hintWindow is how far (in lines) a line hint may be from the match it
// picks: a hunk's own length, at least 8. Diff line numbers drift by the
// lines earlier hunks add; farther than a hunk away the hint is stale and
// picks nothing.
func hintWindow(oldLines int) int { return max(8, oldLines) }

// nearestFirst returns hits ordered by their distance from the 1-based
// line, in file order among equals.
func nearestFirst(hits []hit, line int) []hit {
	hs := slices.Clone(hits)
	slices.SortStableFunc(hs, func(a, b hit) int {
		return cmp.Compare(abs(a.first+1-line), abs(b.first+1-line))
	})
	return hs
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pickByHint picks the hit starting nearest the 1-based line hint when it
// is within window lines and strictly nearer than every other.
func pickByHint(hits []hit, hint, window int) (hit, bool) {
	best, bestD, second := -1, 1<<30, 1<<30
	for i, h := range hits {
		d := h.first + 1 - hint
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD, second = i, d, bestD
		} else if d < second {
			second = d
		}
	}
	if best < 0 || bestD > window || second <= bestD {
		return hit{}, false
	}
	return hits[best], true
}

// anchors finds e's anchor lines in order and returns the 0-based line
// after the last, where the search for the old text starts.
func (f *finder) anchors(anchors []string) (int, *edit.Error) {
	from := 0
	for _, a := range anchors {
		t := strings.TrimSpace(a)
		if t == "" {
			continue
		}
		lines := f.lineIndex()
		found := -1
		for _, lv := range []level{levelIndent, levelUnicode} {
			pat := prepLine(lv, t)
			for k := from; k < len(lines); k++ {
				if lineEq(lv, f.content[lines[k].start:lines[k].end], pat) {
					found = k
					break
				}
			}
			if found >= 0 {
				break
			}
		}
		if found < 0 {
			return 0, errAnchorNotFound(t)
		}
		from = found + 1
	}
	return from, nil
}
