package audit

import (
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
)

// located checks and replays a step the ladder located in the content:
// its splices, each against the edit's texts (or the rung's reading of
// them), and the lines the receipt names.
func (c *checker) located(l *lineage, s *Step) bool {
	e := s.Edit
	fail := func(rule, format string, args ...any) { c.fail(rule, l.f.Path, s.Index, format, args...) }
	old, nw := e.Old, e.New
	if s.Read != nil {
		if !explained(e, s.Read) {
			fail(RuleReading, "edit %d was located as %q → %q, which no rung reads it as", s.Index, clip(s.Read.Old), clip(s.Read.New))
			return false
		}
		old, nw = s.Read.Old, s.Read.New
	}
	if s.Status != "applied" {
		if len(s.Splices) > 0 {
			fail(RuleAlreadyApplied, "edit %d is reported already applied, but it makes %d splices", s.Index, len(s.Splices))
			return false
		}
		c.already(l, s, false, nw)
		return true
	}
	if len(s.Splices) == 0 {
		fail(RuleApplied, "edit %d is reported applied, but it made no splice", s.Index)
		return false
	}
	size, last, changed := l.r.size(), 0, false
	for k, x := range s.Splices {
		if x.At < last || x.At+len(x.Old) > size {
			fail(RuleReplay, "splice %d of edit %d, at byte %d, lies outside the content or over the one before it", k, s.Index, x.At)
			return false
		}
		if !l.r.holds(x.At, x.Old) {
			fail(RuleReplay, "edit %d replaced bytes at line %d that are not the file's there: %q where the file has %q",
				s.Index, l.r.nlBefore(x.At)+1, clip(x.Old), clip(l.r.read(x.At, len(x.Old))))
			return false
		}
		last = x.At + len(x.Old)
		changed = changed || x.Old != x.New
	}
	if !changed {
		fail(RuleApplied, "edit %d is reported applied, but its splices change nothing", s.Index)
	}
	if len(s.Occurrences) > 0 && len(s.Occurrences) != len(s.Splices) {
		fail(RuleApplied, "edit %d names %d places replaced, but it made %d splices", s.Index, len(s.Occurrences), len(s.Splices))
	}
	for k, x := range s.Splices {
		c.splice(l, s, k, x, old, nw)
	}
	grow := 0
	for k := len(s.Splices) - 1; k >= 0; k-- {
		x := s.Splices[k]
		l.r.replace(x.At, len(x.Old), x.New)
		grow += len(x.New) - len(x.Old)
	}
	// A diff that changes the final newline (a "\ No newline at end of
	// file" on one side) changes it, where its text ends the file.
	if x := s.Splices[len(s.Splices)-1]; newlineChange(e) && x.At+len(x.Old)+grow == l.r.size() && endsLine(l.r.tail()) != endsLine(nw) {
		fail(RuleFinalNewline, "edit %d changes the file's final newline, but the file is written %s one", s.Index, withOrWithout(endsLine(l.r.tail())))
	}
	return true
}

func endsLine(s string) bool { return strings.HasSuffix(s, "\n") }

// newlineChange reports whether e is a diff hunk that changes the final
// newline: one side of it ends without one ("\ No newline at end of
// file") and the other with, and it writes some text.
func newlineChange(e *edit.Edit) bool {
	return e.Format == edit.FormatUDiff && strings.TrimSpace(e.New) != "" && e.Old != "" && endsLine(e.Old) != endsLine(e.New)
}

func withOrWithout(b bool) string {
	if b {
		return "with"
	}
	return "without"
}

// tail is the content's last byte, as a string ("" when empty).
func (r *rope) tail() string {
	if r.size() == 0 {
		return ""
	}
	return string(r.byteAt(r.size() - 1))
}

// splice checks splice k of step s, x, against the texts the edit was
// located by, old and nw, in the content before the step.
func (c *checker) splice(l *lineage, s *Step, k int, x Splice, old, nw string) {
	e := s.Edit
	fail := func(rule, format string, args ...any) { c.fail(rule, l.f.Path, s.Index, format, args...) }
	r := l.r
	size := r.size()
	endsNL := size > 0 && r.byteAt(size-1) == '\n'
	claim := func(first, lines int) {
		if len(s.Occurrences) > 0 {
			// The receipt names every place: each must be the splice's.
			if k >= len(s.Occurrences) || s.Occurrences[k] != [2]int{first + 1, first + max(lines, 1)} {
				fail(RuleApplied, "edit %d changed lines %d-%d at its place %d, but the receipt names %v",
					s.Index, first+1, first+max(lines, 1), k+1, s.Occurrences)
				return
			}
		}
		if k > 0 {
			return // the receipt's lines are the first place's
		}
		if s.LineStart != first+1 || s.LineEnd != s.LineStart+max(lines, 1)-1 {
			fail(RuleApplied, "edit %d changed lines %d-%d of the content it saw, but the receipt names lines %d-%d",
				s.Index, first+1, first+max(lines, 1), s.LineStart, s.LineEnd)
		}
	}
	if e.Format == edit.FormatJSON && x.Old == old && old != "" {
		// A tool call's old text found as sent is replaced as str_replace
		// replaces it: the new text's final newline as sent (its line
		// endings may be the file's; its added blanks trimmed, a last
		// line of blanks may be nothing).
		w := endsLine(x.New)
		if w != endsLine(nw) && !(c.tx.TrimTrailingWS && w == endsLine(trimEachLine(nw))) {
			fail(RuleLines, "edit %d, a tool call whose old text stands as sent, is written %s a final newline, where its new text ends %s one", s.Index,
				withOrWithout(w), withOrWithout(endsLine(nw)))
			return
		}
	}
	if x.Old == old && x.New == nw && old != "" {
		// The old text as it stands, replaced by the new text as sent:
		// every line stands for itself and every kept line is the file's.
		claim(r.nlBefore(x.At), lineCount(old))
		if !l.utf8 {
			c.encoding(l, s, x.Old, []string{x.New})
		}
		return
	}
	room := &c.room
	o, n := appendTextLines(room.o[:0], old), appendTextLines(room.n[:0], nw)
	defer func() { room.o, room.n = cleared(o), cleared(n) }()
	if x.Old == "" {
		// An insertion: at a line's start, or after a last line without
		// its newline, which it then begins with.
		if old != "" {
			fail(RuleLines, "edit %d located an empty place for an old text of %d lines", s.Index, len(o))
			return
		}
		w, skip := x.New, 0
		onlyBOM := size == len(bom) && r.read(0, size) == bom
		switch {
		case x.At == size && size > 0 && !endsNL && !onlyBOM:
			if t, ok := cutEOL(w); ok {
				w, skip = t, 1
			} else {
				fail(RuleLines, "edit %d appends to the last line of the file rather than after it", s.Index)
				return
			}
		case x.At > 0 && r.byteAt(x.At-1) != '\n' && !(x.At == len(bom) && r.read(0, len(bom)) == bom || onlyBOM):
			fail(RuleLines, "edit %d inserts inside line %d", s.Index, r.nlBefore(x.At)+1)
			return
		}
		wl := splitLines(w)
		if len(wl) == len(n)-1 && isBlank(n[len(n)-1]) && (w == "" || endsLine(w)) && (skip == 1 || !endsLine(lf(nw))) {
			wl = append(wl, line{}) // a blank last line the file keeps without a line ending: nothing
		}
		if !standsLoose(n, texts(wl), false) {
			fail(RuleLines, "edit %d inserts lines that are not its new text's: %q for %q", s.Index, clip(w), clip(nw))
		}
		claim(r.nlBefore(x.At)+skip, len(n))
		if k == 0 && x.At == size && size > 0 && !onlyBOM {
			c.appended(l, s, nw)
		}
		if !l.utf8 {
			c.encoding(l, s, "", []string{w})
		}
		return
	}
	if old == "" {
		fail(RuleLines, "edit %d replaced %d bytes for an empty old text", s.Index, len(x.Old))
		return
	}
	read := appendLines(room.rl[:0], x.Old)
	defer func() { room.rl = cleared(read) }()
	rl, skip := read, 0
	if x.New == "" && x.At+len(x.Old) == size && !endsNL && len(rl) == len(o)+1 && rl[0].text == "" {
		// A deletion of the last lines of a file without a final newline
		// takes the line ending before them: the line that becomes last
		// keeps having none.
		rl, skip = rl[1:], 1
	}
	wl := appendLines(room.wl[:0], x.New)
	defer func() { room.wl = cleared(wl) }()
	if len(wl) == len(n)-1 && isBlank(n[len(n)-1]) {
		// A blank last line written as nothing is the line ending before
		// it: where the new text's last line has none (its blanks
		// trimmed), at the end of a file without a final newline, or where
		// the old text, ending without one, says whole lines were meant (a
		// block's, not a tool call's: see above). At the end of a file
		// without a final newline, a last line its blanks trimmed to
		// nothing takes the line ending before it, as the file has none.
		wEnds, nEnds := endsLine(x.New), endsLine(lf(nw))
		atEnd := x.At+len(x.Old) == size && !endsNL
		// Whole lines meant, before a line ending of the file: the new
		// text's own last line ending is the file's, which ends the blank
		// line the written text's last line ending opened.
		beforeEOL := x.At+len(x.Old) < size && (r.byteAt(x.At+len(x.Old)) == '\n' || r.byteAt(x.At+len(x.Old)) == '\r')
		wholeLines := nEnds && !endsLine(lf(old)) && e.Format != edit.FormatJSON
		if (wEnds || x.New == "") && (!nEnds || atEnd) || !wEnds && wholeLines || wEnds && wholeLines && beforeEOL ||
			!wEnds && !nEnds && atEnd && c.tx.TrimTrailingWS {
			wl = append(wl, line{})
		}
	}
	claim(r.nlBefore(x.At)+skip, len(rl))
	if !l.utf8 {
		c.encoding(l, s, x.Old, []string{x.New})
	}
	if s.Strategy == "elision" || anyGapish(o) && !lineForLine(rl, o) {
		// The elision rung, named in the receipt or behind the line
		// hint that chose among its places.
		c.elided(l, s, rl, wl, o, n)
		return
	}
	if len(rl) != len(o) {
		fail(RuleLines, "edit %d matched %d lines of the file for an old text of %d", s.Index, len(rl), len(o))
		return
	}
	if len(wl) != len(n) {
		fail(RuleLines, "edit %d writes %d lines for a new text of %d", s.Index, len(wl), len(n))
		return
	}
	exact := true
	for i := range o {
		if rl[i].text != o[i] {
			exact = false
			if !looseEqual(rl[i].text, o[i]) {
				fail(RuleLines, "edit %d matched line %d of the file, %q, for the old text's line %q, which no rung takes it for",
					s.Index, r.nlBefore(x.At)+skip+i+1, clip(rl[i].text), clip(o[i]))
				return
			}
		}
	}
	for j := range n {
		if !looseEqual(wl[j].text, n[j]) {
			fail(RuleLines, "edit %d writes %q for its new text's line %q", s.Index, clip(wl[j].text), clip(n[j]))
			return
		}
	}
	var kept []int
	if e.Marks != "" {
		// The marks count the edit's own lines: o and n, unless a rung read
		// the texts otherwise.
		eo, en := o, n
		if s.Read != nil {
			eo, en = textLines(e.Old), textLines(e.New)
		}
		if kept = e.Kept(len(eo), len(en)); kept != nil && s.Read != nil {
			kept = readKept(kept, eo, en, o, n)
		}
	}
	if j := keptBroken(rl, wl, o, n, exact, kept, &room.keys); j >= 0 {
		fail(RuleKeptLines, "edit %d keeps the file's line %q at its new text's line %d, but writes it as %q", s.Index,
			clip(keptOf(rl, wl, j, o, n, exact, kept)), j+1, clip(wl[j].text+wl[j].eol))
	}
}

// anyGapish reports whether a line of ls may be a placeholder.
func anyGapish(ls []string) bool {
	for _, l := range ls {
		if gapish(l) {
			return true
		}
	}
	return false
}

// lineForLine reports whether rl holds ls's lines one for one, loosely.
func lineForLine(rl []line, ls []string) bool {
	if len(rl) != len(ls) {
		return false
	}
	for i := range ls {
		if !looseEqual(rl[i].text, ls[i]) {
			return false
		}
	}
	return true
}

// keptOf names, for an error, the file's line that written line j should
// have kept.
func keptOf(rl, wl []line, j int, o, n []string, exact bool, kept []int) string {
	if kept != nil && kept[j] >= 0 {
		return rl[kept[j]].text + rl[kept[j]].eol
	}
	for i := range o {
		if o[i] == n[j] || !exact && trimRight(o[i]) == trimRight(n[j]) {
			if !sameLine(wl[j], rl[i]) {
				return rl[i].text + rl[i].eol
			}
		}
	}
	return ""
}

// lineCount is len(splitLines(s)), counted.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

func cutEOL(s string) (string, bool) {
	if t, ok := strings.CutPrefix(s, "\r\n"); ok {
		return t, true
	}
	return strings.CutPrefix(s, "\n")
}

// elided checks a splice of the elision rung: a placeholder stands for a
// run of the file's lines, which the replacement keeps. Not line for line:
// the lines of the old text other than placeholders stand in the matched
// lines in order; the matched lines that are none of the old text's (a
// placeholder's run) are written again, byte for byte, in order; and every
// written line is a matched line or one of the new text's.
func (c *checker) elided(l *lineage, s *Step, rl, wl []line, o, n []string) {
	fail := func(rule, format string, args ...any) { c.fail(rule, l.f.Path, s.Index, format, args...) }
	j := 0
	for _, t := range o {
		if gapish(t) {
			continue
		}
		for j < len(rl) && !looseEqual(rl[j].text, t) {
			j++
		}
		if j == len(rl) {
			fail(RuleLines, "edit %d's old text line %q stands nowhere in the lines it matched", s.Index, clip(t))
			return
		}
		j++
	}
	quoted := map[string]bool{}
	for _, t := range o {
		quoted[loose(t)] = true
	}
	q := 0
	for _, ln := range rl {
		if quoted[loose(ln.text)] {
			continue
		}
		for q < len(wl) && !sameLine(wl[q], ln) {
			q++
		}
		if q == len(wl) {
			fail(RuleKeptLines, "edit %d's placeholder stood for the file's line %q, which it does not write back", s.Index, clip(ln.text))
			return
		}
		q++
	}
	file := map[line]bool{}
	for _, ln := range rl {
		file[line{ln.text, ""}] = true
	}
	model := map[string]bool{}
	for _, t := range n {
		model[loose(t)] = true
	}
	for _, ln := range wl {
		if !file[line{ln.text, ""}] && !model[loose(ln.text)] {
			fail(RuleLines, "edit %d writes %q, which is neither a line it matched nor one of its new text", s.Index, clip(ln.text))
			return
		}
	}
}

// appended checks an append to a file's end: never to a file a create of
// this reply made, by a later create of it; never a text that begins with
// the whole file.
func (c *checker) appended(l *lineage, s *Step, nw string) {
	e := s.Edit
	if e.Op == edit.Create && l.draft >= 0 {
		c.fail(RuleCreateTwice, l.f.Path, s.Index, "%s was created by this reply, and edit %d, which creates it again, appends to it", l.path, s.Index)
		return
	}
	if e.Old != "" || len(e.Anchors) > 0 || e.Hint > 0 || e.AtEOF {
		return // an insertion the edit placed
	}
	size := l.r.size()
	if size > 2*len(nw)+1024 {
		return // too long to be restated
	}
	body := strings.TrimPrefix(lf(l.r.String()), bom)
	if strings.TrimSpace(body) != "" && strings.HasPrefix(strings.TrimPrefix(lf(nw), bom), body) {
		c.fail(RuleAppendRestates, l.f.Path, s.Index, "edit %d appends to %s a text that begins with the whole file: a new version of it, not an addition", s.Index, l.path)
	}
}

// encoding checks that text written into a file that was not UTF-8 holds
// no UTF-8 the file's encoding cannot: every run of bytes past ASCII on a
// line the edit writes anew is either not UTF-8 (the file's own encoding,
// as the reply quoted it) or stands in what it replaced or in the file as
// read (a mixed file's own UTF-8, copied).
func (c *checker) encoding(l *lineage, s *Step, replaced string, written []string) {
	have := map[string]bool{}
	for _, ln := range splitLines(replaced) {
		have[ln.text] = true
	}
	for _, w := range written {
		for _, ln := range splitLines(w) {
			if have[ln.text] {
				continue
			}
			t := ln.text
			for i := 0; i < len(t); {
				if t[i] < utf8.RuneSelf {
					i++
					continue
				}
				j := i
				for j < len(t) && t[j] >= utf8.RuneSelf {
					j++
				}
				if run := t[i:j]; utf8.ValidString(run) && !strings.Contains(replaced, run) && !strings.Contains(l.orig, run) {
					c.fail(RuleEncoding, l.f.Path, s.Index, "edit %d writes UTF-8 text (%q) into %s, which is not UTF-8", s.Index, run, l.path)
					return
				}
				i = j
			}
		}
	}
}

// already checks an edit reported already applied: its new text stands at
// the lines the receipt names, and, marked there, it is looked for again
// when the reply is done with the file (see settle). whole says the edit
// writes a whole file (a create), whose text stands as the file.
func (c *checker) already(l *lineage, s *Step, whole bool, nw string) {
	e := s.Edit
	fail := func(rule, format string, args ...any) { c.fail(rule, l.f.Path, s.Index, format, args...) }
	if whole {
		nw = e.New
	}
	if strings.TrimSpace(strings.TrimPrefix(nw, bom)) == "" {
		// An empty text stands anywhere; an empty file stands as one.
		if whole && !sameFile(strings.TrimPrefix(l.r.String(), bom), nw) {
			fail(RuleAlreadyApplied, "edit %d is reported already applied, but the file is not the empty one it writes", s.Index)
		}
		return
	}
	r := l.r
	lines := r.lines()
	if s.LineStart < 1 || s.LineEnd < s.LineStart || s.LineEnd > lines {
		if !(whole && r.size() == 0) {
			fail(RuleAlreadyApplied, "edit %d is reported already applied at lines %d-%d of a content of %d lines", s.Index, s.LineStart, s.LineEnd, lines)
		}
		return
	}
	from, to := r.lineStart(s.LineStart-1), r.lineStart(s.LineEnd)
	region := r.read(from, to-from)
	got, want := textLines(strings.TrimPrefix(region, bom)), textLines(strings.TrimPrefix(nw, bom))
	gaps := anyGapish(want)
	var ok bool
	switch {
	case !whole && gaps && standsLoose(want, got, true):
		ok = true // placeholders standing for lines (the elision rung)
	case whole:
		for len(got) > 0 && isBlank(got[len(got)-1]) {
			got = got[:len(got)-1]
		}
		for len(want) > 0 && isBlank(want[len(want)-1]) {
			want = want[:len(want)-1]
		}
		ok = standsLoose(want, got, false)
	case !lineOriented(e.Format):
		ok = strings.Contains(loose(region), loose(nw))
	default:
		ok = standsLoose(want, got, gaps)
	}
	if !ok {
		fail(RuleAlreadyApplied, "edit %d is reported already applied, but its new text does not stand at lines %d-%d", s.Index, s.LineStart, s.LineEnd)
		return
	}
	if newlineChange(e) && to == r.size() && endsLine(region) != endsLine(nw) {
		fail(RuleFinalNewline, "edit %d changes the file's final newline, but is reported already applied to a file %s one", s.Index, withOrWithout(endsLine(region)))
		return
	}
	if l.replacing {
		return // a draft's: its new version claims the final content
	}
	id := len(l.stands)
	r.mark(from, 2*id)
	r.mark(to, 2*id+1)
	l.stands = append(l.stands, standing{s: s, text: region, gaps: gaps, line: lineOriented(e.Format) || whole, want: nw})
}

// settle checks, when the reply is done with a file, that the text of
// every edit reported already applied stands in the content it leaves:
// unmoved where it stood, or else anywhere, loosely.
func (c *checker) settle(l *lineage) {
	if l.r == nil || len(l.stands) == 0 {
		return
	}
	pos := map[int]int{}
	l.r.marks(func(id, off int) { pos[id] = off })
	var idx *lineIndex
	for k, st := range l.stands {
		a, okA := pos[2*k]
		b, okB := pos[2*k+1]
		if okA && okB && b >= a && l.r.read(a, b-a) == st.text {
			continue
		}
		if idx == nil {
			idx = newLineIndex(l.r.String())
		}
		// A text with placeholders is not looked for past its own lines:
		// a placeholder stands for anything.
		if !idx.holds(st.want, st.line) && !st.gaps {
			c.fail(RuleAlreadyApplied, l.f.Path, st.s.Index,
				"edit %d is reported already applied, but its new text does not stand in %s as the whole reply leaves it", st.s.Index, l.path)
		}
	}
}

// A lineIndex finds texts in a final content, loosely.
type lineIndex struct {
	text   string
	lines  []string
	keys   map[string][]int
	flat   string // loose of the whole text, for a substring
	budget int    // line comparisons left; past them a text is taken to stand
}

func newLineIndex(text string) *lineIndex {
	x := &lineIndex{text: text, lines: textLines(strings.TrimPrefix(text, bom)), keys: map[string][]int{}, budget: 1 << 24}
	for i, t := range x.lines {
		k := loose(t)
		x.keys[k] = append(x.keys[k], i)
	}
	return x
}

// holds reports whether text stands in the content: as a run of its
// lines, or (lines false: a tool call's substring) as a loose substring.
func (x *lineIndex) holds(text string, lines bool) bool {
	if !lines {
		if x.flat == "" {
			x.flat = loose(x.text)
		}
		return strings.Contains(x.flat, loose(text))
	}
	want := textLines(strings.TrimPrefix(text, bom))
	// The line of the text the content holds fewest times leads the search.
	best, at := -1, 0
	for i, t := range want {
		if n := len(x.keys[loose(t)]); best < 0 || n < best {
			best, at = n, i
		}
	}
	if best < 0 {
		return true
	}
	for _, q := range x.keys[loose(want[at])] {
		if x.budget -= len(want); x.budget < 0 {
			return true
		}
		if s := q - at; s >= 0 && s+len(want) <= len(x.lines) && standsLoose(want, x.lines[s:s+len(want)], false) {
			return true
		}
	}
	return false
}

// clip shortens s for a message.
func clip(s string) string {
	const n = 60
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
