package locate

import (
	"slices"

	"github.com/edapply/edapply/edit"
)

// Hunk edges: a diff hunk whose context the model misremembered.
//
// A hunk's '-' lines are claims about the file; its context lines are
// anchors that place them. Models writing diffs from memory edit a context
// line (the line as they recall it, or quietly changed) or leave one out,
// and the whole before-text then matches nowhere. When every rung has
// failed, a hunk with at least one '-' line is located without the context
// lines from one outer edge up to and including the line that disagrees.
// It lands only when all of these hold:
//
//   - what is left (every '-' line, every context line between changes and
//     the context nearest them) is found by the ladder at exactly one
//     place; two places are MULTIPLE_MATCHES, never a guess;
//   - the lines left out, read outward from that place, agree with the
//     file's lines there (as the rest agrees: to trailing blanks when it
//     matched so, else at the unicode rung's tolerance), all but one:
//     that one is a near miss of the file's line beside it (as alike as a
//     candidate that is not weak), or stands one line farther out, the
//     file's line between being one the model dropped, or is a blank line
//     the file does not have there;
//   - only one edge disagrees, in one line: two disagreements, at one edge
//     or at both, are too many to tell a misremembered line from another
//     place, and the hunk is refused as before;
//   - no other reading (more lines left out, or at the other edge) fits
//     another place.
//
// A hunk of only '+' lines keeps all of its anchors: nothing else places
// it; so does a rest of blank lines only. Every '-' line is always in what is matched, so a typo in one still
// never lands. The lines left out are not written: the file keeps its own
// context, and the hunk's '-' lines go and its '+' lines come as the ladder
// writes them. The receipt keeps the rung that matched and says in its
// note which line of the file differed from the hunk.

// hunkEdges locates, when the ladder found nothing, a diff hunk without the
// context at one of its edges, as the comment above says. ok is false when
// the hunk cannot be read so, and the edit's own NO_MATCH stands.
func (m *matcher) hunkEdges(op, np *pattern) (loc location, err *edit.Error, ok bool) {
	e := m.e
	lead, trail := e.LeadContext, e.TrailContext
	if m.opts.Strict || m.rescued || e.Format != edit.FormatUDiff || len(e.Anchors) > 0 || lead < 0 || trail < 0 || lead+trail == 0 {
		return location{}, nil, false
	}
	ol, nl := op.lines, np.lines
	if lead+trail >= len(ol) || lead+trail > len(nl) ||
		!slices.Equal(ol[:lead], nl[:lead]) || !slices.Equal(ol[len(ol)-trail:], nl[len(nl)-trail:]) {
		// No '-' line to place (only anchors would be left), or not
		// the shape of a hunk whose context begins and ends both sides.
		return location{}, nil, false
	}
	// Every reading: the hunk without 1, 2, ... lines at its top, then at
	// its bottom. Each place where the rest stands and the lines left out
	// fit is a place the hunk may mean; it lands only when there is one.
	var fits []edgeFit
	for _, top := range []bool{true, false} {
		n := trail
		if top {
			n = lead
		}
		for d := 1; d <= n; d++ {
			r, found := m.withoutEdge(op, np, top, d)
			switch {
			case !found:
			case r.err == nil:
				if note, ok := m.edgeFits(r, r.loc.LineStart-1, r.loc.LineEnd-1); ok {
					fits = append(fits, edgeFit{at: r.loc.LineStart + r.shift, reading: &r, note: note,
						place: hit{first: r.loc.LineStart - 1, last: r.loc.LineEnd - 1}})
				}
			case r.err.Code == edit.CodeMultipleMatches:
				for _, h := range r.places {
					if _, ok := m.edgeFits(r, h.first, h.last); ok {
						fits = append(fits, edgeFit{at: h.first + 1 + r.shift, place: h})
					}
				}
			}
		}
	}
	if len(fits) == 0 {
		return location{}, nil, false
	}
	var chosen *edgeReading
	var note string
	for _, f := range fits {
		if f.at != fits[0].at {
			return location{}, m.multipleFits(fits), true
		}
		if f.reading != nil && chosen == nil {
			chosen, note = f.reading, f.note
		}
	}
	if chosen == nil {
		// One place fits, but what placed it stands at others too.
		return location{}, m.multipleFits(fits), true
	}
	loc = chosen.loc
	loc.Note = note
	return loc, nil, true
}

// An edgeFit is a place a hunk read without the context at one edge may
// mean: its lines but the left-out ones stand there, and those fit.
type edgeFit struct {
	at      int          // the file's line where the hunk's first change is
	reading *edgeReading // the reading that placed it alone; nil when it found several places
	note    string       // what differed, when reading is set
	place   hit          // the lines that matched
}

// An edgeReading is the hunk read without d context lines at one edge.
type edgeReading struct {
	top    bool     // the lines left out are at the top
	left   []string // the lines left out, outward from what is matched
	shift  int      // the lines from the start of what is matched to the first change
	cmp    level    // the rung that found the rest, or its new text
	places []hit    // every place the rest stands
	loc    location // where the rest is, when err is nil
	err    *edit.Error
}

// withoutEdge locates the hunk without d context lines at its top (or its
// bottom). found is false when neither the rest of its old text nor of its
// new text stands anywhere, which is told without the search for a
// NO_MATCH's candidates.
func (m *matcher) withoutEdge(op, np *pattern, top bool, d int) (r edgeReading, found bool) {
	ol, nl := op.lines, np.lines
	a, b := 0, d
	if top {
		a, b = d, 0
	}
	e := *m.e
	e.Old = joinLines(ol[a:len(ol)-b], b > 0 || op.finalNL)
	e.New = joinLines(nl[a:len(nl)-b], b > 0 || np.finalNL)
	e.LeadContext, e.TrailContext = 0, 0
	e.Marks = withMarks(m.e, a, b, a, b)
	if e.Hint > 0 {
		e.Hint += a
	}
	r = edgeReading{top: top, shift: m.e.LeadContext - a}
	if top {
		r.left = slices.Clone(ol[:a])
		slices.Reverse(r.left)
	} else {
		r.left = ol[len(ol)-b:]
	}
	rop, rnp := newPattern(e.Old), newPattern(e.New)
	if rop.blank {
		// Blank lines claim nothing that places them.
		return r, false
	}
	// Every place, not the first few a MULTIPLE_MATCHES lists: the lines
	// left out may fit at any of them.
	every := *m
	every.want = 0
	if r.places, r.cmp = every.find(rop); len(r.places) == 0 {
		if rnp.blank {
			return r, false
		}
		var nh []hit
		if nh, r.cmp = every.find(rnp); len(nh) == 0 {
			return r, false
		}
	}
	r.loc, r.err = locateWith(m.f, &e, rop, rnp, m.opts, nil, true)
	return r, r.err == nil || r.err.Code != edit.CodeNoMatch
}

// edgeFits reports whether r's left-out lines fit the file around lines
// first..last (0-based), where the rest of the hunk stands: read outward,
// each agrees with the file's line but one, which is a near miss of its
// line, stands past a line the hunk dropped, or is a blank line the file
// does not have. note names the file's line.
func (m *matcher) edgeFits(r edgeReading, first, last int) (note string, ok bool) {
	f := m.f
	lines := f.lineIndex()
	start, step, where := last+1, 1, "bottom"
	if r.top {
		start, step, where = first-1, -1, "top"
	}
	at := func(k int) (string, bool) {
		if k < 0 || k >= len(lines) {
			return "", false
		}
		return f.content[lines[k].start:lines[k].end], true
	}
	// A left-out line agrees as the rest does: to its trailing blanks
	// when the rest matched to them, else with any indentation, blanks
	// and typography.
	cmp := levelTrailingWS
	if r.cmp > levelTrailingWS {
		cmp = levelUnicode
	}
	agrees := func(k int, l string) bool {
		t, ok := at(k)
		return ok && lineEq(cmp, t, prepLine(cmp, l))
	}
	rest := func(i, k int) bool {
		for ; i < len(r.left); i, k = i+1, k+step {
			if !agrees(k, r.left[i]) {
				return false
			}
		}
		return true
	}
	for i, k := 0, start; i < len(r.left); i, k = i+1, k+step {
		l := r.left[i]
		if agrees(k, l) {
			continue
		}
		if IsPlaceholder(r.left, i) {
			return "", false
		}
		// A line the model dropped: the hunk's line is the next one out.
		if agrees(k+step, l) && rest(i+1, k+2*step) {
			return noteEdgeDropped(where, k+1), true
		}
		// A blank line the model added: the file's line is the next
		// hunk line's.
		if isBlank(l) && rest(i+1, k) {
			return noteEdgeBlank(where, k+1-step), true
		}
		if t, ok := at(k); ok && !isBlank(t) && !isBlank(l) && lineLikeness(t, l) >= weakSimilarity && rest(i+1, k+step) {
			return noteEdgeDiffers(l, where, k+1, t), true
		}
		return "", false
	}
	// Every left-out line agrees: the ladder would have found the hunk,
	// had its lines not needed tolerances that disagree (an indentation
	// no one shift maps). Not a misremembered line.
	return "", false
}

// multipleFits is the MULTIPLE_MATCHES of a hunk that, read without the
// context at one of its edges, may mean more than one place.
func (m *matcher) multipleFits(fits []edgeFit) *edit.Error {
	var places []hit
	seen := map[int]bool{}
	for _, f := range fits {
		if seen[f.at] || len(places) == maxListed {
			continue
		}
		seen[f.at] = true
		places = append(places, f.place)
	}
	return errEdgesMultiple(m.f.shownHits(places), m.f.listed(places))
}
