package locate

// The ladder's rungs and why each is safe: see doc.go.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// A splice replaces content[Start:End] with New. Offsets are bytes.
type splice struct {
	Start, End int
	New        string
}

// A location is where the ladder found a Replace edit, and what to write.
type location struct {
	Splices   []splice // ascending, non-overlapping; empty when already applied
	Strategy  Strategy
	Status    Status // StatusApplied or StatusAlreadyApplied
	LineStart int    // 1-based, of the first splice (or of the already-applied text)
	LineEnd   int
	Matched   string // the file's text the first match covers (normalize's SEARCH)
	Written   string // the text written in its place (normalize's REPLACE)
	Note      string // how a rescue or an edge rung read the edit (rescue.go, blankedges.go, hunkedges.go); "" for the other rungs
	// Read is the old and new text a rescue or an edge rung located and
	// wrote in the edit's place; nil when they are the edit's own.
	Read *Reading
}

// A Reading is an edit's old and new text as a rescue (rescue.go) or an
// edge rung (blankedges.go, hunkedges.go) read them: line-number prefixes
// stripped, escapes undone, blank or context lines at an edge left out.
// Package apply's check judges the splices against it, and it against the
// edit.
type Reading struct {
	Old, New string
}

// Options are what the ladder reads of the caller's options.
type Options struct {
	Strict         bool // exact matching only
	TrimTrailingWS bool // strip trailing blanks from lines the edits add

	// noAlready says the edit may not be found already applied (see
	// Forced): its new text standing, or an old text equal to it, is no
	// answer, and the edit applies as its old text says or fails.
	noAlready bool
}

type matchOptions = Options

// maxListed bounds the places a MULTIPLE_MATCHES lists.
const maxListed = 20

// hintWindow is how far (in lines) a line hint may be from the match it
// picks: a hunk's own length, at least 8. Diff line numbers drift by the
// lines earlier hunks add; farther than a hunk away the hint is stale and
// picks nothing.
func hintWindow(oldLines int) int { return max(8, oldLines) }

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

// locateWith is locateIn; rescued says the edit is a rescue's reading of
// another, which is not rescued again: its texts are the location's Read.
func locateWith(f *finder, e *edit.Edit, op, np *pattern, opts matchOptions, exact []hit, rescued bool) (location, *edit.Error) {
	loc, err := locateRead(f, e, op, np, opts, exact, rescued)
	if rescued && err == nil && loc.Read == nil {
		loc.Read = &Reading{Old: e.Old, New: e.New}
	}
	return loc, err
}

// locateRead is locateWith but for the reading it reports.
func locateRead(f *finder, e *edit.Edit, op, np *pattern, opts matchOptions, exact []hit, rescued bool) (location, *edit.Error) {
	if j, ok := elidedIn(op, np, f.hasLine); ok {
		w := wordsOf(e)
		return location{}, &edit.Error{Code: edit.CodeElision,
			Msg: fmt.Sprintf("%s elides code with a placeholder at its line %d: `%s`", w.new, j, strings.TrimSpace(np.lines[j-1])),
			Hint: "Write out every line the replacement keeps instead of a placeholder comment, or put the same placeholder at the same place in " +
				w.theOld + "."}
	}
	from, err := f.anchors(e.Anchors)
	if err != nil {
		return location{}, err
	}
	if op.text == "" {
		return f.insert(e, np, from, opts.noAlready)
	}
	m := &matcher{f: f, e: e, opts: opts, from: from, want: max(e.Count, 0), exact: exact, exactOf: op,
		adds: len(np.lines) > len(op.lines), rescued: rescued}
	return m.run(op, np)
}

// hasLine reports whether the file has a line that trims to t.
func (f *finder) hasLine(t string) bool {
	c := f.content
	for off := 0; t != ""; {
		i := strings.Index(c[off:], t)
		if i < 0 {
			return false
		}
		s, e := off+i, off+i+len(t)
		if isBlank(c[lineStartAt(c, s):s]) && isBlank(c[e:lineEndAt(c, e)]) {
			return true
		}
		off = s + 1
	}
	return false
}

type matcher struct {
	f    *finder
	e    *edit.Edit
	opts matchOptions
	from int // first line the search may start on (after the anchors)
	want int // matches expected; 0: every occurrence, at least one

	exact   []hit    // if not nil, the exact rung's hits for exactOf, found by the caller
	exactOf *pattern // the old text's pattern
	adds    bool     // the new text has more lines than the old
	rescued bool     // the edit is a rescue's reading of another (rescue.go)
}

// find runs the ladder for p and returns the hits of the first rung that
// has any, and that rung.
func (m *matcher) find(p *pattern) ([]hit, level) {
	for lv := levelExact; lv <= levelElision; lv++ {
		if lv > levelExact && (m.opts.Strict || p.blank) {
			break
		}
		if lv == levelTrailingWS && !m.f.mayHaveLines(p) {
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
					from = lines[m.from].start
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

// midLine reports whether the edit quotes whole lines (LineOriented) and
// one of its exact hits starts inside a line.
func (m *matcher) midLine(hits []hit) bool {
	if !LineOriented(m.e) {
		return false
	}
	for _, h := range hits {
		if !m.f.atLineStart(h.start) {
			return true
		}
	}
	return false
}

func (f *finder) atLineStart(off int) bool { return off == 0 || f.content[off-1] == '\n' }

// inIndent reports whether one of p's exact hits starts inside a line's
// indentation while p starts with blanks and spans lines (or the edit adds
// lines): that is a suffix of the indentation, not the line the model
// quoted, and the indent rung, which aligns whole lines, judges it.
func (m *matcher) inIndent(p *pattern, hits []hit) bool {
	if !startsBlank(p) || len(p.lines) < 2 && !m.adds {
		return false
	}
	for _, h := range hits {
		if m.f.inIndent(h.start) {
			return true
		}
	}
	return false
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
	if hits, strategy, err = m.choose(op, hits, strategy); err != nil {
		if lv == levelSpacing {
			// The places differ from the old text as sent: say how it was read.
			err.Hint = upperFirst(noteSpacing) + ". " + err.Hint
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
	loc := m.write(op, np, hits, lv, pairs, location{Strategy: strategy, Status: StatusApplied, Note: note})
	if loc.Status == StatusAlreadyApplied && m.opts.noAlready {
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
		cands, hint := f.candidates(op, m.from, w)
		return nil, 0, "", nil, &edit.Error{Code: edit.CodeNoMatch, Msg: w.old + " not found", Hint: hint, Candidates: cands}
	}
	return hits, lv, note, nil, nil
}

// choose picks, among the places found, those the edit means: every one
// (left to right, for a count other than one), the first after an anchor,
// or the one a line hint points at; more or fewer than the edit expects
// is an error.
func (m *matcher) choose(op *pattern, hits []hit, strategy Strategy) ([]hit, Strategy, *edit.Error) {
	e := m.e
	if overlapping(hits) && m.want != 1 {
		// Every occurrence (or a count of them): taken left to right, each
		// after the one before, as every language's replaceAll does.
		hits = leftToRight(hits)
	}
	if overlapping(hits) {
		return nil, strategy, m.multiple(hits, wordsOf(e).old+" overlaps itself in the file")
	}
	if len(e.Anchors) > 0 && m.want == 1 && len(hits) > 1 {
		// The anchor is the model's disambiguation: the first match after
		// it is the one meant, as codex's own apply_patch reads it.
		hits = hits[:1]
	}
	if m.want > 0 && len(hits) != m.want {
		if m.want == 1 && e.Hint > 0 {
			if h, ok := pickByHint(hits, e.Hint, hintWindow(len(op.lines))); ok {
				hits, strategy = []hit{h}, StrategyLineHint
			}
		}
		switch {
		case len(hits) > m.want:
			return nil, strategy, m.multiple(hits, "")
		case len(hits) < m.want:
			w := wordsOf(e)
			return nil, strategy, &edit.Error{Code: edit.CodeNoMatch,
				Msg:        fmt.Sprintf("%s found %d times, expected %d", w.old, len(hits), m.want),
				Hint:       fmt.Sprintf("%s occurs %d times; set the count to %d or change %s.", w.TheOld, len(hits), len(hits), w.theOld),
				Candidates: m.f.listed(hits)}
		}
	}
	return hits, strategy, nil
}

// keptGaps checks that pairs, np's lines paired with op's, keep every
// placeholder of op (a gap the elision rung matched over): a dropped one
// would delete the lines it stands for. w words the error.
func keptGaps(op *pattern, pairs []int, w *words) ([]int, *edit.Error) {
	kept := make([]bool, len(op.lines))
	for _, i := range pairs {
		if i >= 0 {
			kept[i] = true
		}
	}
	for i, g := range op.gap {
		if g && !kept[i] {
			return nil, &edit.Error{Code: edit.CodeElision,
				Msg:  fmt.Sprintf("%s %d is a placeholder %s does not keep: `%s`", w.oldLine, i+1, w.theNew, strings.TrimSpace(op.lines[i])),
				Hint: "Put the same placeholder line at the corresponding place in " + w.theNew + ", or write out the lines it skips."}
		}
	}
	return pairs, nil
}

// write adds to loc a splice per hit: np as sent where that keeps the
// file's bytes, else written line by line in the file's conventions. A
// location whose splices change nothing is already applied.
func (m *matcher) write(op, np *pattern, hits []hit, lv level, pairs []int, loc location) location {
	f := m.f
	for _, h := range hits {
		if f.sentAsIs(op, np, h, m.opts.TrimTrailingWS) {
			loc.Splices = append(loc.Splices, f.lastLineCut(splice{h.start, h.end, np.text}))
			continue
		}
		if pairs == nil {
			pairs = m.pair(op, np, lv == levelExact, false)
		}
		us := f.units(op, h)
		finalNL := np.finalNL
		if !h.lineMode && m.e.Format != edit.FormatJSON && len(op.lines) > 0 && len(np.lines) > 0 && op.finalNL != np.finalNL {
			// A SEARCH that stops at a line's end without its newline, or
			// a REPLACE that forgot its final newline: whole lines were meant.
			// But an old text that ends a file without a final newline,
			// replaced by one with, adds it (a diff's "\ No newline" line).
			// A tool call's texts found as sent are replaced as sent,
			// as str_replace replaces them.
			if op.finalNL || f.atLineEnd(h.end) && !f.endsNoNL(h.end) {
				finalNL = op.finalNL
			}
		}
		w := f.write(np, finalNL, pairs, h, us, m.opts.TrimTrailingWS)
		if m.removesFinalNL(op, np, h) {
			w = strings.TrimSuffix(strings.TrimSuffix(w, "\n"), "\r")
		}
		loc.Splices = append(loc.Splices, f.lastLineCut(splice{h.start, h.end, w}))
	}
	h := hits[0]
	loc.LineStart, loc.LineEnd = h.first+1, h.last+1
	loc.Matched, loc.Written = f.content[h.start:h.end], loc.Splices[0].New
	if !slices.ContainsFunc(loc.Splices, func(x splice) bool { return x.New != f.content[x.Start:x.End] }) {
		// What the edit writes is what stands: "applied" would claim a
		// change the file never sees.
		loc.Status, loc.Splices = StatusAlreadyApplied, nil
	}
	return loc
}

// changesNothing is the error of an edit that may not be found already
// applied (Options.noAlready) and whose text, as it stands, is what it
// would write: a later edit of the reply changes the lines it quotes, so
// in the content the reply leaves, its text does not stand.
func (m *matcher) changesNothing() *edit.Error {
	w := wordsOf(m.e)
	return &edit.Error{Code: edit.CodeNoMatch,
		Msg:  fmt.Sprintf("%s changes nothing, and a later edit of this reply changes the lines it quotes", w.old),
		Hint: "Leave this edit out: it changes nothing, and the later edit says what those lines become."}
}

// removesFinalNL reports whether the edit removes the file's final
// newline at h: a diff hunk that ends the file, whose old text ends with
// a newline and whose new text does not. A diff marks a last line without
// one ("\ No newline at end of file"), so its new text says so on purpose;
// a block's or a tool call's text that stops short of its last newline
// meant whole lines (see write).
func (m *matcher) removesFinalNL(op, np *pattern, h hit) bool {
	return m.e.Format == edit.FormatUDiff && op.finalNL && !np.finalNL && len(np.lines) > 0 &&
		h.end == len(m.f.content) && strings.HasSuffix(m.f.content, "\n")
}

// lastLineCut widens sp, a deletion of whole lines that ends a file without
// a final newline, over the line ending before it: the line that becomes
// last keeps having none ("a\nb" without "b" is "a").
func (f *finder) lastLineCut(sp splice) splice {
	if sp.New != "" || !f.endsNoNL(sp.End) || sp.Start == 0 || f.content[sp.Start-1] != '\n' {
		return sp
	}
	sp.Start--
	if sp.Start > 0 && f.content[sp.Start-1] == '\r' {
		sp.Start--
	}
	return sp
}

// endsNoNL reports whether off is the end of a file without a final newline.
func (f *finder) endsNoNL(off int) bool {
	return off == len(f.content) && !strings.HasSuffix(f.content, "\n")
}

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

func (f *finder) atLineEnd(off int) bool {
	return off == len(f.content) || f.content[off] == '\n' || strings.HasPrefix(f.content[off:], "\r\n")
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
	return location{Strategy: lv.strategy(), Status: StatusAlreadyApplied,
		LineStart: h.first + 1, LineEnd: h.last + 1, Matched: s, Written: s}
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

func (m *matcher) multiple(hits []hit, msg string) *edit.Error {
	w := wordsOf(m.e)
	counted := len(hits) < m.hitLimit() || m.want != 1
	if m.e.Hint > 0 {
		// The model's own retry most likely goes to the line it named.
		hits = nearestFirst(hits, m.e.Hint)
	}
	if msg == "" {
		n := fmt.Sprintf("%d", len(hits))
		if !counted {
			n = fmt.Sprintf("at least %d", len(hits))
		}
		msg = fmt.Sprintf("%s found %s times", w.old, n)
		if m.want > 1 {
			msg += fmt.Sprintf(", expected %d", m.want)
		}
	}
	var at []string
	for i, h := range hits {
		if i == 5 {
			at = append(at, "…")
			break
		}
		at = append(at, lineRange(h.first+1, h.last+1))
	}
	hint := fmt.Sprintf("%s until it matches only one place (it matches lines %s).", w.widen, strings.Join(at, ", "))
	if m.want == 1 {
		n := len(hits)
		if !counted {
			n = 0
		}
		hint += everyHint(m.e, n)
	}
	return &edit.Error{Code: edit.CodeMultipleMatches, Msg: msg, Hint: hint, Candidates: m.f.listed(hits)}
}

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

func lineRange(a, b int) string {
	if a == b {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d-%d", a, b)
}

// listed turns hits into candidates of similarity 1.
func (f *finder) listed(hits []hit) []edit.Candidate {
	var cs []edit.Candidate
	for i, h := range hits {
		if i == maxListed {
			break
		}
		cs = append(cs, edit.Candidate{LineStart: h.first + 1, LineEnd: h.last + 1, Similarity: 1, Excerpt: f.excerpt(h.first, h.last)})
	}
	return cs
}

// excerpt returns the file's lines first..last (0-based, inclusive), each
// ending in "\n".
func (f *finder) excerpt(first, last int) string {
	lines := f.lineIndex()
	var b strings.Builder
	for k := first; k <= last && k < len(lines); k++ {
		b.WriteString(f.content[lines[k].start:lines[k].end])
		b.WriteByte('\n')
	}
	return b.String()
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
			return 0, &edit.Error{Code: edit.CodeNoMatch,
				Msg:  fmt.Sprintf("anchor line not found: `%s`", t),
				Hint: "Use an @@ anchor line copied exactly from the file, above the lines to change, or leave it out."}
		}
		from = found + 1
	}
	return from, nil
}

// insert places new text where an empty old text says: after the anchors,
// or before the hinted line, or else at the end of the file (an append),
// and is already applied when the text stands there (ends the file),
// unless noAlready says it may not be.
func (f *finder) insert(e *edit.Edit, np *pattern, from int, noAlready bool) (location, *edit.Error) {
	if np.text == "" {
		return location{Strategy: StrategyExact, Status: StatusAlreadyApplied}, nil
	}
	lines := f.lineIndex()
	eol := f.dominantEOL()
	body := strings.Join(np.lines, eol)
	var at, line int
	var text string
	strategy := StrategyExact
	switch {
	case len(e.Anchors) > 0:
		line = from
	case e.Hint > 0 && !e.AtEOF:
		if e.Hint-1 > len(lines) {
			// The text goes after a line the file does not have: the
			// model read another version of the file. Line 0 means the
			// top only to a text-editor insert: to Roo Code's
			// insert_content it means the end.
			hint := "Re-read the file and give a line number it has."
			if e.Format == edit.FormatJSON {
				hint = "Re-read the file and give a line number it has (0 inserts at the top)."
			}
			return location{}, &edit.Error{Code: edit.CodeNoMatch,
				Msg:  fmt.Sprintf("cannot insert after line %d: the file has %d lines", e.Hint-1, len(lines)),
				Hint: hint}
		}
		line, strategy = e.Hint-1, StrategyLineHint
	default:
		// Nothing says where: the text goes at the end, as Aider reads an
		// empty SEARCH and Codex a chunk of only added lines.
		line, strategy = len(lines), StrategyAppend
	}
	// Already there: the new lines stand at the insertion point (or, at the
	// end of the file, end it).
	if !noAlready {
		k := line
		if strategy == StrategyAppend {
			k = len(lines) - len(np.lines)
		}
		if k >= 0 && k+len(np.lines) <= len(lines) {
			same := true
			for i, l := range np.lines {
				if trimRight(f.content[lines[k+i].start:lines[k+i].end]) != trimRight(l) {
					same = false
					break
				}
			}
			if same {
				s, t := lines[k].start, lines[k+len(np.lines)-1].next
				return location{Strategy: strategy, Status: StatusAlreadyApplied,
					LineStart: k + 1, LineEnd: k + len(np.lines), Matched: f.content[s:t], Written: f.content[s:t]}, nil
			}
		}
	}
	if strategy == StrategyAppend && restates(f.content, np.lines) {
		return location{}, &edit.Error{Code: edit.CodeFileExists,
			Msg:  "the file exists, and the text to append to it restates it (it begins with the file's whole text, ends as the file does, or repeats most of its own lines from the file): a new version of the file, not an addition",
			Hint: wordsOf(e).changes + "; to replace the whole file, send it whole in a fence under its path."}
	}
	switch {
	case line < len(lines):
		at = lines[line].start
		text = body + eol
	case len(f.content) == 0 || strings.HasSuffix(f.content, "\n"):
		at = len(f.content)
		text = body
		if np.finalNL {
			text += eol
		}
	default:
		// After a last line with no newline: the file keeps having none.
		at = len(f.content)
		text = eol + body
	}
	return location{Splices: []splice{{at, at, text}}, Strategy: strategy, Status: StatusApplied,
		LineStart: line + 1, LineEnd: line + len(np.lines), Written: text}, nil
}

// restates reports whether text, lines to append to content, reads as a
// version of the file rather than an addition to it: it begins with the
// file's whole text (at any size: a one-line stub as much as a module),
// or its last telling line is the file's last, or most of its telling
// lines stand in the file. Appended, it would repeat the file's code. A
// telling line holds a letter or digit and eight bytes or more once
// trimmed, which rules out the "}" and "end" that close every addition.
func restates(content string, text []string) bool {
	if beginsWithFile(content, text) {
		return true
	}
	telling := func(l string) (string, bool) {
		t := strings.Join(strings.Fields(l), " ")
		return t, len(t) >= 8 && strings.IndexFunc(t, func(r rune) bool {
			return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80
		}) >= 0
	}
	have, last := map[string]bool{}, ""
	for _, l := range strings.Split(content, "\n") {
		if t, ok := telling(l); ok {
			have[t], last = true, t
		}
	}
	n, standing, lastText := 0, 0, ""
	for _, l := range text {
		if t, ok := telling(l); ok {
			n++
			lastText = t
			if have[t] {
				standing++
			}
		}
	}
	return n > 0 && (lastText == last || 2*standing > n)
}

// beginsWithFile reports whether text's first lines are content's lines,
// every one, up to trailing blanks and the blank lines that end content;
// false for a content of blank lines only.
func beginsWithFile(content string, text []string) bool {
	file := splitLF(content)
	for len(file) > 0 && isBlank(file[len(file)-1]) {
		file = file[:len(file)-1]
	}
	if len(file) == 0 || len(file) > len(text) {
		return false
	}
	for i, l := range file {
		if trimRight(l) != trimRight(text[i]) {
			return false
		}
	}
	return true
}

// sameContent reports whether content equals want as a whole file, up to
// line endings, trailing whitespace and trailing blank lines (a diff's
// deletion must match the whole file).
func sameContent(content, want string) bool {
	split := func(s string) []string {
		ls := splitLF(s)
		for len(ls) > 0 && isBlank(ls[len(ls)-1]) {
			ls = ls[:len(ls)-1]
		}
		return ls
	}
	a, b := split(content), split(want)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if trimRight(a[i]) != trimRight(b[i]) {
			return false
		}
	}
	return true
}
