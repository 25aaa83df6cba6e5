package locate

// The ladder: the order of the rungs (run, places), how the places found
// are chosen among (choose), and the locate entry points. Each rung's
// comparison is in its own file; why each is safe is in doc.go.

import (
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// A level is one rung of the tolerance ladder, loosest last.
type level int

const (
	levelExact      level = iota + 1 // bytes, after converting line endings
	levelTrailingWS                  // trailing blanks ignored per line
	levelIndent                      // indentation shifted by one consistent amount
	levelWhitespace                  // runs of inner whitespace collapsed
	levelUnicode                     // typographic punctuation folded to ASCII
	levelElision                     // placeholder lines skip runs of lines
	// levelSpacing forgives blanks beside punctuation ("f( a )" for
	// "f(a)"). It is no step of find's loop: places tries it after every
	// other rung and rescue found nothing (spacing.go).
	levelSpacing
)

func (lv level) strategy() edit.Strategy {
	switch lv {
	case levelExact:
		return edit.StrategyExact
	case levelTrailingWS:
		return edit.StrategyTrailingWS
	case levelIndent:
		return edit.StrategyIndent
	case levelWhitespace:
		return edit.StrategyWhitespace
	case levelUnicode:
		return edit.StrategyUnicode
	case levelSpacing:
		return edit.StrategyWhitespace // the contract's list is fixed; a note tells the rest
	}
	return edit.StrategyElision
}

// A location is where the ladder found a Replace edit, and what to write.
type location struct {
	Splices   []Splice // of the finder's content, ascending, disjoint; none when already applied
	Strategy  edit.Strategy
	Status    edit.Status // edit.StatusApplied or edit.StatusAlreadyApplied
	LineStart int         // 1-based, of the first splice (or of the already-applied text)
	LineEnd   int
	// Occurrences are the lines of each place replaced, when there are
	// several (a replace_all); nil for one.
	Occurrences []edit.LineRange
	Matched     string // the file's text the first match covers (normalize's SEARCH)
	Written     string // the text written in its place (normalize's REPLACE)
	Note        string // how rungs 8 to 11 read the edit (rescue.go, blankedges.go, hunkedges.go, spacing.go); "" for the first seven
	// Read is the edit as a rescue (rescue.go) or an edge rung
	// (blankedges.go, hunkedges.go) read it; nil when read as written.
	Read *edit.Edit
}

// Options are what the ladder reads of the caller's options.
type Options struct {
	Strict         bool // exact matching only
	TrimTrailingWS bool // strip trailing blanks from lines the edits add

	// noAlready says the edit may not be found already applied (see
	// Forced): its new text standing, or an old text equal to it, is no
	// answer, and the edit applies as its old text says or fails.
	noAlready bool
	// probe says the caller drops a NO_MATCH, trying another reading of
	// the edit (blankEdges): its candidates, a search as costly as the
	// ladder's other rungs, are not sought.
	probe bool
}

type matchOptions = Options

// maxListed bounds the places a MULTIPLE_MATCHES lists.
const maxListed = 20

// locate finds e (a Replace) in content, which is the file's current text
// without its BOM, and returns the splices that apply it. The returned
// error carries Code, Msg, Hint and Candidates; the caller sets Path and
// Edit.
func locate(content string, e *edit.Edit, opts matchOptions) (location, *edit.Error) {
	return locateIn(newFinder(content), e, newPattern(e.Old), newPattern(e.New), opts, nil)
}

// locateIn is locate over f, with e's old and new text made patterns
// already. exact, when not nil, is what the exact rung finds for op, found
// by the caller (the batch planner, which knows it without searching f:
// see batch.go); hits are in f's offsets and lines as the edit sees them.
// f's content is then only the edit's view of the file on the hit's lines,
// so with exact set the ladder must read nothing else of f for an edit
// that batchable accepts (FuzzBatchEquivalence holds it to that).
func locateIn(f *finder, e *edit.Edit, op, np *pattern, opts matchOptions, exact []hit) (location, *edit.Error) {
	return locateWith(f, e, op, np, opts, exact, false)
}

// locateFound is locateIn where the caller knows more of op's places: the
// rungs before lv find none, and lv finds hits (not nil), in f's offsets
// and lines. The batch planner knows it of an edit whose every possible
// place lies on lines no accepted splice touched (batch.go).
func locateFound(f *finder, e *edit.Edit, op, np *pattern, opts matchOptions, lv level, hits []hit) (location, *edit.Error) {
	return locateRead(f, e, op, np, opts, hits, lv, false)
}

// locateWith is locateIn; rescued says the edit is a rescue's reading of
// another, which is not rescued again: it is the location's Read.
func locateWith(f *finder, e *edit.Edit, op, np *pattern, opts matchOptions, exact []hit, rescued bool) (location, *edit.Error) {
	loc, err := locateRead(f, e, op, np, opts, exact, levelExact, rescued)
	if rescued && err == nil && loc.Read == nil {
		loc.Read = e
	}
	return loc, err
}

// locateRead is locateWith but for the reading it reports, with exact
// the hits of rung foundAt (see locateFound).
func locateRead(f *finder, e *edit.Edit, op, np *pattern, opts matchOptions, exact []hit, foundAt level, rescued bool) (location, *edit.Error) {
	if j, ok := elidedIn(op, np, f.hasLine); ok {
		return location{}, errNewElides(wordsOf(e), j, np.lines[j-1])
	}
	from, err := f.anchors(e.Anchors)
	if err != nil {
		return location{}, err
	}
	if op.text == "" {
		return f.insert(e, np, from, opts.noAlready)
	}
	m := &matcher{f: f, e: e, opts: opts, from: from, want: max(e.Count, 0), exact: exact, exactOf: op, foundAt: foundAt,
		adds: len(np.lines) > len(op.lines), rescued: rescued}
	return m.run(op, np)
}

type matcher struct {
	f    *finder
	e    *edit.Edit
	opts matchOptions
	from int // first line the search may start on (after the anchors)
	want int // matches expected; 0: every occurrence, at least one

	exact   []hit    // if not nil, the exact rung's hits for exactOf, found by the caller
	exactOf *pattern // the old text's pattern
	// foundAt, when past levelExact, says exact are that rung's hits
	// instead, and the rungs before it find nothing (locateFound).
	foundAt level
	adds    bool // the new text has more lines than the old
	rescued bool // the edit is a rescue's reading of another (rescue.go)
}

// find runs the ladder for p and returns the hits of the first rung that
// has any, and that rung.
func (m *matcher) find(p *pattern) ([]hit, level) {
	for lv := levelExact; lv <= levelElision; lv++ {
		if lv > levelExact && (m.opts.Strict || p.blank) {
			break
		}
		if lv == levelTrailingWS && !m.found(p) && !m.f.mayHaveLines(p) {
			break // a line that stands nowhere, at any tolerance
		}
		if hits := m.search(p, lv); len(hits) > 0 {
			return hits, lv
		}
	}
	return nil, 0
}

// search finds p at one rung, from m.from, at the end of the file if the
// edit asks for it.
func (m *matcher) search(p *pattern, lv level) []hit {
	limit := m.hitLimit()
	f := m.f
	var hits []hit
	if m.found(p) {
		if lv == m.foundAt {
			return m.exact
		}
		return nil
	}
	switch lv {
	case levelExact:
		if m.exact != nil && p == m.exactOf {
			hits = m.exact
		} else {
			from := 0
			if m.from > 0 {
				lines := f.lineIndex()
				from = len(f.content)
				if m.from < len(lines) {
					from = int(lines[m.from].start)
				}
			}
			hits = f.exactHits(p, from, limit)
			if len(hits) >= limit && (m.inIndent(p, hits) || m.midLine(hits)) {
				hits = f.exactHits(p, from, 1<<30) // the filters may leave fewer than limit
			}
		}
		if m.midLine(hits) {
			// A block, hunk or chunk quotes whole lines: a place that starts
			// inside a line ("x = foo()" for "foo()") is not what it quotes.
			hits = slices.DeleteFunc(slices.Clone(hits), func(h hit) bool { return !f.atLineStart(h.start) })
		}
		if m.inIndent(p, hits) {
			// A new slice: m.exact is the caller's.
			hits = slices.DeleteFunc(slices.Clone(hits), func(h hit) bool { return f.inIndent(h.start) })
		}
	case levelElision:
		if p.gaps == 0 {
			return nil
		}
		// The lines around the gaps match as strictly as they can.
		for cmp := levelTrailingWS; cmp <= levelUnicode && len(hits) == 0; cmp++ {
			hits = f.lineHits(p, cmp, true, m.from, limit)
		}
	default:
		hits = f.lineHits(p, lv, false, m.from, limit)
	}
	if m.e.AtEOF {
		hits = slices.DeleteFunc(hits, func(h hit) bool { return strings.TrimRight(f.content[h.end:], "\r\n") != "" })
	}
	return hits
}

// found reports whether the caller found p's places at a rung past the
// exact one (locateFound).
func (m *matcher) found(p *pattern) bool {
	return m.foundAt > levelExact && m.exact != nil && p == m.exactOf
}

// run locates op, the old text, and writes np, the new, in named steps:
// find the places (or learn that the new text stands already), choose
// among them, check the placeholders the new text keeps, and write.
func (m *matcher) run(op, np *pattern) (location, *edit.Error) {
	hits, lv, note, done, err := m.places(op, np)
	if done != nil || err != nil {
		return derefOr(done), err
	}
	strategy := lv.strategy()
	all := hits
	if hits, strategy, err = m.choose(op, hits, strategy); err != nil {
		if loc, ok := m.sameEverywhere(op, np, all, lv, err); ok {
			loc.Strategy, loc.Note = strategy, joinNotes(note, loc.Note)
			return loc, nil
		}
		if lv == levelSpacing {
			// The places differ from the old text as sent: say how it was read.
			err.Hint = noteFirst(noteSpacing, err.Hint)
		}
		return location{}, err
	}
	if op.text == np.text {
		if m.opts.noAlready {
			return location{}, m.changesNothing()
		}
		loc := m.already(hits, lv)
		loc.Strategy, loc.Note = strategy, note
		return loc, nil
	}
	var pairs []int // pairLines', computed when a hit needs them
	if lv == levelElision {
		if pairs, err = keptGaps(op, m.pair(op, np, false, true), wordsOf(m.e)); err != nil {
			return location{}, err
		}
	}
	loc := m.write(op, np, hits, lv, pairs, location{Strategy: strategy, Status: edit.StatusApplied, Note: note})
	if loc.Status == edit.StatusAlreadyApplied && m.opts.noAlready {
		return location{}, m.changesNothing()
	}
	return loc, nil
}

func derefOr(l *location) location {
	if l == nil {
		return location{}
	}
	return *l
}

// places finds where op stands, at the first rung that finds it, with the
// rung and a rescue's note. done, when not nil, is the whole answer: the
// new text stands already (a resent edit), or a rescue answered; err is a
// NO_MATCH with the candidates.
func (m *matcher) places(op, np *pattern) (hits []hit, lv level, note string, done *location, err *edit.Error) {
	f, e := m.f, m.e
	hits, lv = m.find(op)
	// A resent insertion must not insert twice: when the new text contains
	// the old (at any tolerance), it is already applied when every place
	// the old text matches (at its own rung) lies inside a place of the new
	// text, and each of those holds one. (A placeholder in the new text is
	// text to write, not a gap, unless the old text has one too.)
	if len(hits) > 0 && !m.opts.noAlready && insertion(op, np) {
		if nh, nlv := m.find(np); m.standing(nh) && (nlv < levelElision || op.gaps > 0) &&
			!f.addsFinalNL(op, np, nh) && within(hits, nh) && holdsEach(nh, hits) {
			loc := m.already(nh, nlv)
			return nil, 0, "", &loc, nil
		}
	}
	if len(hits) == 0 && len(e.Anchors) > 0 && m.from > 0 && len(op.lines) > 0 &&
		lineEq(levelUnicode, strings.TrimSpace(op.lines[0]), foldPunct(strings.TrimSpace(e.Anchors[len(e.Anchors)-1]))) {
		// The SEARCH repeats its anchor line as its first line.
		m.from--
		hits, lv = m.find(op)
	}
	if len(hits) == 0 {
		if np.text != op.text && !np.blank && !m.opts.noAlready {
			if nh, nlv := m.find(np); m.standing(nh) && (nlv < levelElision || op.gaps > 0) && f.onlyExplanation(op, np, nh[0]) {
				loc := m.already(nh, nlv)
				return nil, 0, "", &loc, nil
			}
		}
		if m.rescuable() {
			if hits = m.cutHits(op); len(hits) > 0 {
				lv, note = levelIndent, noteCutFirstLine
			} else if nh := m.cutHits(np); np.text != op.text && !m.opts.noAlready && m.standing(nh) {
				// The same call, sent again after it was applied.
				loc := m.already(nh, levelIndent)
				loc.Note = noteCutFirstLine
				return nil, 0, "", &loc, nil
			} else if loc, err, ok := m.rescue(op, np); ok {
				return nil, 0, "", &loc, err
			}
		}
		if loc, err, ok := m.blankEdges(op, np); ok {
			return nil, 0, "", &loc, err
		}
		if loc, err, ok := m.hunkEdges(op, np); ok {
			return nil, 0, "", &loc, err
		}
	}
	if len(hits) == 0 {
		if hits, done = m.spacing(op, np); done != nil {
			return nil, 0, "", done, nil
		}
		if len(hits) > 0 {
			lv, note = levelSpacing, noteSpacing
		}
	}
	if len(hits) == 0 {
		w := wordsOf(e)
		if m.opts.probe {
			return nil, 0, "", nil, errNotFound(w, "", nil)
		}
		cands, hint := f.candidates(op, m.from, w)
		return nil, 0, "", nil, errNotFound(w, hint, cands)
	}
	return hits, lv, note, nil, nil
}

// choose picks, among the places found, those the edit means: every one
// (left to right, for a count other than one), the first after an anchor,
// or the one a line hint points at; more or fewer than the edit expects
// is an error.
func (m *matcher) choose(op *pattern, hits []hit, strategy edit.Strategy) ([]hit, edit.Strategy, *edit.Error) {
	e := m.e
	if overlapping(hits) && m.want != 1 {
		// Every occurrence (or a count of them): taken left to right, each
		// after the one before, as every language's replaceAll does.
		hits = leftToRight(hits)
	}
	if overlapping(hits) {
		return nil, strategy, m.multiple(hits, true)
	}
	if len(e.Anchors) > 0 && m.want == 1 && len(hits) > 1 {
		// The anchor is the model's disambiguation: the first match after
		// it is the one meant, as codex's own apply_patch reads it.
		hits = hits[:1]
	}
	if m.want > 0 && len(hits) != m.want {
		if m.want == 1 && e.Hint > 0 {
			if h, ok := pickByHint(hits, e.Hint, hintWindow(len(op.lines))); ok {
				hits, strategy = []hit{h}, edit.StrategyLineHint
			}
		}
		switch {
		case len(hits) > m.want:
			return nil, strategy, m.multiple(hits, false)
		case len(hits) < m.want:
			return nil, strategy, errTooFew(wordsOf(e), len(hits), m.want, m.f.listed(hits))
		}
	}
	return hits, strategy, nil
}

// hitLimit is how many places a search for the old text must find: every
// one when the edit wants every occurrence or names a line, since the
// line-hint rung judges every place, and the places nearest the line lead
// the list, however many stand before them in the file; otherwise enough
// for a MULTIPLE_MATCHES to list.
func (m *matcher) hitLimit() int {
	if m.want == 1 && m.e.Hint == 0 {
		return maxListed
	}
	return 1 << 30
}

// multiple is the MULTIPLE_MATCHES of the old text found at hits, or
// overlapping itself there.
func (m *matcher) multiple(hits []hit, overlaps bool) *edit.Error {
	counted := len(hits) < m.hitLimit() || m.want != 1
	if m.e.Hint > 0 {
		// The model's own retry most likely goes to the line it named.
		hits = nearestFirst(hits, m.e.Hint)
	}
	every := ""
	if m.want == 1 {
		n := len(hits)
		if !counted {
			n = 0
		}
		every = everyHint(m.e, n)
	}
	return errMultiple(wordsOf(m.e), m.f.shownHits(hits), counted, overlaps, m.want, every, m.f.listed(hits))
}

func overlapping(hits []hit) bool {
	for i := 1; i < len(hits); i++ {
		if hits[i].start < hits[i-1].end {
			return true
		}
	}
	return false
}

// leftToRight keeps the hits that start after the last kept one ends.
func leftToRight(hits []hit) []hit {
	var out []hit
	for _, h := range hits {
		if len(out) == 0 || h.start >= out[len(out)-1].end {
			out = append(out, h)
		}
	}
	return out
}
