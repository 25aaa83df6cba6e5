package locate

import (
	"slices"
	"strings"
	"unicode"

	"github.com/edapply/edapply/edit"
)

// Rung 6, elision: placeholder lines (placeholder.go) match the shortest
// runs of lines that let the rest match, and the new text must keep them.
//
// A whole-file rewrite is judged against the original besides: a
// placeholder the original has is code; a bare "..." it took for an
// Ellipsis elides when the original's code goes missing around it
// (elidedEllipsis); and a rewrite that keeps the original's opening and
// ends early on a note such as "Rest of the document as it was." elides
// even though no list names that note (elidedTail).

// lineSet is the set of a text's lines, trimmed, for judging placeholders
// against the original.
func lineSet(s string) map[string]bool {
	set := make(map[string]bool)
	for l := range strings.SplitSeq(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		set[strings.TrimSpace(l)] = true
	}
	return set
}

// elidedRewrite reports whether rewritten, a whole-file rewrite of original,
// stands in for code of original with a placeholder such as
// "// ... existing code ..."; line is the placeholder's 1-based line in
// rewritten. A placeholder line that original already has is code.
func elidedRewrite(original, rewritten string) (line int, elided bool) {
	p := newPattern(rewritten)
	var orig map[string]bool
	origSet := func() map[string]bool {
		if orig == nil {
			orig = lineSet(original)
		}
		return orig
	}
	if p.phs > 0 {
		for i, l := range p.lines {
			if p.ph[i] && !origSet()[strings.TrimSpace(l)] {
				return i + 1, true
			}
		}
	}
	// A bare "..." taken for code (gap lines that are not placeholders).
	if p.gaps > p.phs && !origSet()["..."] && !origSet()["…"] {
		if line, ok := elidedEllipsis(original, p, origSet()); ok {
			return line, true
		}
	}
	return elidedTail(original, p, origSet)
}

// tailCues are words that, in a short last line, say the rest was left
// out ("Rest of the README as it was", "(the remaining tests stay)");
// tailPhrases are phrases that do. Words common in ordinary comments
// ("existing", "continue", "etc", a trailing "...") are left out: measured
// on real files they name code far more often than they stand for it.
var (
	tailCues = []string{
		"rest", "remaining", "remainder", "unchanged", "untouched", "omitted", "elided",
		"elision", "snip", "snipped", "truncated", "brevity",
	}
	tailPhrases = []string{"as is", "as-is", "same as", "as before", "not shown", "as it was", "as they are", "and so on"}
)

// elidedTail is the structural backstop for a rewrite cut short: it keeps
// the original's opening lines, then ends with a short line that original
// does not have and that reads like a placeholder, a note rather than
// code, while original goes on for many more lines that the rewrite lacks.
func elidedTail(original string, p *pattern, orig func() map[string]bool) (int, bool) {
	last := len(p.lines) - 1
	for last >= 0 && isBlank(p.lines[last]) {
		last--
	}
	if last < 2 {
		return 0, false
	}
	t := strings.TrimSpace(p.lines[last])
	// A bare "..." at the margin ending a rewrite whose original has none
	// is a cut too, whatever the line before it: after a ':' line the body
	// rule calls it Python's Ellipsis, yet as the last line of a file that
	// lost most of its tail (a Markdown "```{toctree}" block, say) it
	// stands for lines. An indented one is a stub's body and stays code.
	cut := onlyDots(t) && p.lines[last] == t
	// With the cut this function demands below, a list's end ("# etc.",
	// "and so on") is a note too, though alone it continues a comment.
	if len(t) > 100 || !tailNote(t) && !cut && !listTail(t) {
		return 0, false
	}
	ol := splitLF(original)
	// A line original has is code; for a "..." at the margin, only one at
	// the margin: an indented "..." in a sample is not the same line.
	if cut && slices.Contains(ol, p.lines[last]) || !cut && orig()[t] {
		return 0, false
	}
	var on, rn []string // non-blank lines, trimmed
	for _, o := range ol {
		if o = strings.TrimSpace(o); o != "" {
			on = append(on, o)
		}
	}
	for _, l := range p.lines[:last] {
		if l = strings.TrimSpace(l); l != "" {
			rn = append(rn, l)
		}
	}
	if len(rn) < 2 || len(on) < len(rn)+10 {
		return 0, false
	}
	// The opening kept: two of the first three lines as in original.
	same := 0
	for k := 0; k < 3 && k < len(rn); k++ {
		if rn[k] == on[k] {
			same++
		}
	}
	if same < 2 {
		return 0, false
	}
	// Many lines of original lost, most of them after what was kept.
	rw := lineSet(p.text)
	lost := 0
	for _, o := range on[len(rn):] {
		if !rw[o] {
			lost++
		}
	}
	if lost < 10 || lost*2 < len(on)-len(rn) {
		return 0, false
	}
	return last + 1, true
}

// listTail reports whether t, a trimmed line, is a list tail
// (isListTail), alone or as a comment or in brackets ("# etc.", "(and so
// on)").
func listTail(t string) bool {
	return isListTail(strings.Trim(strings.ToLower(noteText(t)), phraseTrim))
}

// noteText is what a line says: a comment's text, or what brackets or
// emphasis wrap; else the line.
func noteText(t string) string {
	if c, ok := commentText(t); ok {
		return c
	}
	if w, ok := unwrap(t); ok {
		return w
	}
	return t
}

// tailNote reports whether t, a trimmed line, reads like a note that code
// was left out: short (eight words at most, not ending in a comma), no code punctuation once comment markers, brackets
// and emphasis are removed, and a cue word.
func tailNote(t string) bool {
	u := strings.Trim(noteText(t), "*_ ")
	n := len(strings.Fields(u))
	if n == 0 || n > 8 || n == 1 && u == t || strings.HasSuffix(u, ",") || strings.ContainsAny(u, "=;{}()[]<>$`\"|&") ||
		strings.IndexFunc(u, unicode.IsLetter) < 0 ||
		u == t && (strings.Contains(u, "#") || strings.Contains(u, "//") || strings.Contains(u, "/*")) {
		return false // code (a trailing comment is still code), or no words
	}
	lu := strings.ToLower(u)
	for _, c := range tailPhrases {
		if strings.Contains(lu, c) {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(lu, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if slices.Contains(tailCues, w) {
			return true
		}
	}
	return false
}

// elidedEllipsis finds a bare "..." in a rewrite that IsPlaceholder took
// for Python's Ellipsis (it follows a line ending in ":" or a docstring),
// when original has no such line, yet it stands for code of original: it is
// followed by more statements of its block while lines of original are
// lost, or it is the whole body of a block whose header original has with
// a body the rewrite drops. A stub written anew ("def f(): ...", "class
// P(Protocol):\n    ...") keeps every line of original and is code.
func elidedEllipsis(original string, p *pattern, orig map[string]bool) (int, bool) {
	var ol []string // original's lines, computed on demand
	var rw map[string]bool
	lost := -1 // how many non-blank lines of original the rewrite lacks
	for i, l := range p.lines {
		if t := strings.TrimSpace(l); t != "..." && t != "…" || p.ph[i] {
			continue
		}
		if ol == nil {
			ol = splitLF(original)
			rw = lineSet(p.text)
			lost = 0
			for _, o := range ol {
				if t := strings.TrimSpace(o); t != "" && !rw[t] {
					lost++
				}
			}
		}
		if lost < 2 {
			return 0, false
		}
		ind := leadingWS(l)
		next := i + 1
		for next < len(p.lines) && isBlank(p.lines[next]) {
			next++
		}
		if next < len(p.lines) && leadingWS(p.lines[next]) == ind {
			// More statements of the same block follow: an Ellipsis there
			// does nothing, a placeholder does.
			if lost >= 3 && len(p.lines) < len(ol) {
				return i + 1, true
			}
			continue
		}
		// The block's whole body: judge it against the header's body in
		// original.
		h := i - 1
		for h >= 0 && isBlank(p.lines[h]) {
			h--
		}
		if h < 0 {
			continue
		}
		head := strings.TrimSpace(p.lines[h])
		if !strings.HasSuffix(head, ":") {
			continue
		}
		for j, o := range ol {
			if strings.TrimSpace(o) != head {
				continue
			}
			hind := leadingWS(o)
			body, gone := 0, 0
			for k := j + 1; k < len(ol); k++ {
				if isBlank(ol[k]) {
					continue
				}
				if len(leadingWS(ol[k])) <= len(hind) {
					break
				}
				body++
				if !rw[strings.TrimSpace(ol[k])] {
					gone++
				}
			}
			if gone >= 2 && gone*2 >= body {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// elidedIn reports whether a Replace's new text np drops code with a
// placeholder that its old text op does not have at the same place (the
// same placeholder at the corresponding place in both is the elision
// level's business), and the placeholder's 1-based line in np. A
// placeholder line for which has reports true (the file has it) is code,
// in np and in op: a placeholder of np in the place of such a line of op
// stands for more than that line.
func elidedIn(op, np *pattern, has func(trimmed string) bool) (int, bool) {
	if np.phs == 0 {
		return 0, false
	}
	pairs := pairLines(op, np, false, true)
	for j, l := range np.lines {
		if !np.ph[j] {
			continue
		}
		if i := pairs[j]; i >= 0 && op.gap[i] && !has(strings.TrimSpace(op.lines[i])) {
			continue
		}
		if has(strings.TrimSpace(l)) {
			continue
		}
		return j + 1, true
	}
	return 0, false
}

// A segMemo remembers the last search for one segment: the first line at
// or after from where it matches (-1: none). Starts only grow, so every
// segment's searches together cost one pass over the file.
type segMemo struct {
	set      bool
	from, at int
}

func (m *segMemo) find(f *finder, seg []string, lv level, from int) int {
	if m.set && from >= m.from && (m.at < 0 || from <= m.at) {
		return m.at
	}
	m.set, m.from, m.at = true, from, -1
	for p := from; p+len(seg) <= len(f.lines); p++ {
		if f.segAt(seg, lv, p) {
			m.at = p
			break
		}
	}
	return m.at
}

// matchGaps matches pl, whose gap lines are placeholders, against the
// file from line k and returns the line after the match. A placeholder
// matches the shortest run that lets the next lines match; taking the
// leftmost place for each segment never loses a match, because the gap
// after it can absorb whatever a later place would have skipped. A leading
// or trailing placeholder matches no line. runs records each placeholder's
// run (a run of consecutive placeholders is given to the first).
func (f *finder) matchGaps(pl []string, gap []bool, lv level, k int, runs []int, memo []segMemo) (int, bool) {
	pos := k
	for i := 0; i < len(pl); {
		if !gap[i] {
			e := i
			for e < len(pl) && !gap[e] {
				e++
			}
			if !f.segAt(pl[i:e], lv, pos) {
				return 0, false
			}
			pos += e - i
			i = e
			continue
		}
		j := i
		for j < len(pl) && gap[j] {
			runs[j] = 0
			j++
		}
		if j == len(pl) || i == 0 {
			i = j
			continue
		}
		e := j
		for e < len(pl) && !gap[e] {
			e++
		}
		q := memo[j].find(f, pl[j:e], lv, pos)
		if q < 0 {
			return 0, false
		}
		runs[i] = q - pos
		pos = q + e - j
		i = e
	}
	return pos, true
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
			return nil, errGapNotKept(w, i+1, op.lines[i])
		}
	}
	return pairs, nil
}
