package locate

import (
	"github.com/edapply/edapply/edit"
)

// An old text that stands at several places is not ambiguous when
// applying the edit at any one of them writes the same file: two adjacent
// identical `else:` branches, one of them deleted. It is applied at the
// first and the receipt names the places; where the files differ it stays
// MULTIPLE_MATCHES.

// maxSameSpan bounds, in bytes, the stretch of the file between the first
// and the last place that sameEverywhere compares: a comparison costs
// that stretch, and places that far apart give the same file only in a
// file that repeats itself over them.
const maxSameSpan = 1 << 20

// sameEverywhere applies the edit at the first of hits, every place of
// the old text, when the choice failed with err, a MULTIPLE_MATCHES of an
// edit meant for one place whose every place is known, and each place
// gives the file the first gives. ok is false otherwise.
func (m *matcher) sameEverywhere(op, np *pattern, hits []hit, lv level, err *edit.Error) (location, bool) {
	if err.Code != edit.CodeMultipleMatches || m.want != 1 || len(hits) < 2 || len(hits) >= m.hitLimit() ||
		lv == levelElision || op.text == np.text || overlapping(hits) || hits[len(hits)-1].end-hits[0].start > maxSameSpan {
		return location{}, false
	}
	var first location
	var prev Splice
	for i, h := range hits {
		loc := m.write(op, np, []hit{h}, lv, nil, location{Status: edit.StatusApplied})
		if loc.Status != edit.StatusApplied || len(loc.Splices) != 1 {
			return location{}, false
		}
		x := loc.Splices[0]
		if i == 0 {
			first = loc
		} else if x.At < prev.end() || !m.f.sameResult(prev, x) {
			return location{}, false
		}
		prev = x
	}
	first.Note = noteSamePlaces(wordsOf(m.e), hits)
	return first, true
}

// sameResult reports whether splicing a or b, a before b and apart, into
// the content gives the same text: what lies before a and after b is
// common, so a's new text and the content up to b's end must read as the
// content from a up to b and b's new text. It compares without a copy.
func (f *finder) sameResult(a, b Splice) bool {
	c := f.content
	if len(a.New)-len(a.Old) != len(b.New)-len(b.Old) {
		return false
	}
	left := [2]string{a.New, c[a.end():b.end()]}
	right := [2]string{c[a.At:b.At], b.New}
	return equalJoined(left, right)
}

// equalJoined reports whether x[0]+x[1] == y[0]+y[1], without joining.
func equalJoined(x, y [2]string) bool {
	if len(x[0])+len(x[1]) != len(y[0])+len(y[1]) {
		return false
	}
	at := func(p [2]string, i int) byte {
		if i < len(p[0]) {
			return p[0][i]
		}
		return p[1][i-len(p[0])]
	}
	for i, n := 0, len(x[0])+len(x[1]); i < n; {
		// Compare the longest run that lies in one piece on both sides.
		xi, yi := x[0], y[0]
		xo, yo := i, i
		if i >= len(x[0]) {
			xi, xo = x[1], i-len(x[0])
		}
		if i >= len(y[0]) {
			yi, yo = y[1], i-len(y[0])
		}
		run := min(len(xi)-xo, len(yi)-yo)
		if run == 0 {
			if at(x, i) != at(y, i) {
				return false
			}
			i++
			continue
		}
		if xi[xo:xo+run] != yi[yo:yo+run] {
			return false
		}
		i += run
	}
	return true
}

// joinNotes joins a rung's note and another, either possibly empty.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
