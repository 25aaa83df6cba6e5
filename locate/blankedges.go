package locate

import (
	"strings"

	"github.com/edapply/edapply/edit"
)

// blankEdges locates, when the ladder found nothing, an old text that
// begins or ends with blank lines without those lines: models pad the
// text they quote with a blank line that the file does not hold. The new
// text loses as many blank lines at the same end, where it has them, so
// a blank line the model meant to keep is not added. Every other line
// must match as the ladder matches it, unique or refused; a text of blank
// lines only is not read so. When the rest is not found either, or the
// new text is found already (a resent edit), the edit's own NO_MATCH
// stands (ok false). A match is reported no closer
// than the whitespace rung, since blank lines were ignored.
func (m *matcher) blankEdges(op, np *pattern) (loc location, err *edit.Error, ok bool) {
	if m.opts.Strict || m.rescued {
		return location{}, nil, false
	}
	old, nw, cut, trimmed := cutBlankEdges(op.text, np.text)
	if !trimmed {
		return location{}, nil, false
	}
	if nw == old {
		return location{}, nil, false // it only changed the blank lines, which are not there
	}
	// The new text standing in the file already is the sign of an edit
	// sent again after it applied: its padding may be the blank line it
	// removed. Matching the rest again would write it twice.
	tnp := newPattern(nw)
	for _, p := range []*pattern{np, tnp} {
		if !p.blank {
			if hits, _ := m.find(p); len(hits) > 0 {
				return location{}, nil, false
			}
		}
	}
	e := *m.e
	e.Old, e.New = old, nw
	e.Marks = withMarks(m.e, cut.lead, cut.trail, cut.nlead, cut.ntrail)
	opts := m.opts
	opts.probe = true
	loc, err = locateWith(m.f, &e, newPattern(old), tnp, opts, nil, true)
	if err != nil {
		if err.Code == edit.CodeNoMatch {
			return location{}, nil, false
		}
		err.Hint = strings.TrimSpace(noteFirst(noteBlankEdges, err.Hint))
		return loc, err, true
	}
	switch loc.Strategy {
	case edit.StrategyExact, edit.StrategyTrailingWS, edit.StrategyIndent:
		loc.Strategy = edit.StrategyWhitespace
	}
	loc.Note = noteBlankEdges
	return loc, nil, true
}

// trimBlankEdges drops old's leading and trailing blank lines, and up to
// as many from the same ends of nw. trimmed is false when old has none,
// or has nothing else.
func trimBlankEdges(old, nw string) (o, n string, trimmed bool) {
	o, n, _, trimmed = cutBlankEdges(old, nw)
	return o, n, trimmed
}

// blankCut counts the blank lines trimBlankEdges drops: at the start and
// the end of the old text, and of the new.
type blankCut struct{ lead, trail, nlead, ntrail int }

// cutBlankEdges is trimBlankEdges, with the lines it drops counted.
func cutBlankEdges(old, nw string) (o, n string, cut blankCut, trimmed bool) {
	ol := splitKeep(old)
	lead, trail := blankRun(ol, false), blankRun(ol, true)
	if lead+trail == 0 || lead >= len(ol) {
		return old, nw, blankCut{}, false
	}
	nl := splitKeep(nw)
	nlead := min(lead, blankRun(nl, false))
	nl = nl[nlead:]
	ntrail := min(trail, blankRun(nl, true))
	nl = nl[:len(nl)-ntrail]
	return strings.Join(ol[lead:len(ol)-trail], ""), strings.Join(nl, ""), blankCut{lead, trail, nlead, ntrail}, true
}

// splitKeep splits s into lines that keep their "\n".
func splitKeep(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// blankRun counts the blank lines at the start of lines, or at the end.
func blankRun(lines []string, fromEnd bool) int {
	n := 0
	for n < len(lines) {
		l := lines[n]
		if fromEnd {
			l = lines[len(lines)-1-n]
		}
		if strings.TrimSpace(l) != "" {
			break
		}
		n++
	}
	return n
}
