package locate

import "hash/maphash"

// noteSpacing is the receipt's note for an edit found at the spacing rung.
const noteSpacing = `the old text's blanks beside punctuation differ from the file's ("f( a, b )" for "f(a, b)"); it was matched without them: quote lines as the file spaces them`

// spacingPunct holds the ASCII punctuation beside which the spacing rung
// drops blanks: brackets, separators and operators, whose spacing is a
// matter of style in every language a model edits. Quotes, "_", "\", "#",
// "$" and "@" are not in it: a blank beside them may be a string's content
// (`" "` is not `""`) or part of a word (`echo $x` is not `echo$x`).
var spacingPunct = func() (t [128]bool) {
	for _, c := range []byte("()[]{},;:.=+-*/%<>!&|^~?") {
		t[c] = true
	}
	return t
}()

func isSpacingPunct(c byte) bool { return c < 0x80 && spacingPunct[c] }

// spacedForm is s as the spacing rung compares it: trimmed, each run of
// inner blanks dropped where a punctuation byte (spacingPunct) stands on
// either side of it, and made one space elsewhere. Blanks between two
// other bytes are never dropped: "int x" is not "intx". A trimmed line
// without inner blanks is returned as it is.
func spacedForm(s string) string {
	s = trimBoth(s)
	i := 0
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		if !isSpace(s[i]) {
			b = append(b, s[i])
			i++
			continue
		}
		// s is trimmed: a run of blanks has a byte on either side.
		j := skipSpace(s, i)
		if !isSpacingPunct(s[i-1]) && !isSpacingPunct(s[j]) {
			b = append(b, ' ')
		}
		i = j
	}
	return string(b)
}

// spacedKey is the key of a line at the spacing rung: lines that match
// there have the same key.
func spacedKey(s string) uint64 {
	return maphash.String(candSeed, spacedForm(foldPunct(s)))
}

// spacedKeys returns the spacedKey of every line, computed once, when
// the spacing rung first runs: every other rung found nothing by then,
// so an edit found earlier never pays for them.
func (f *finder) spacedKeys() []uint64 {
	if f.spaced == nil {
		lines := f.lineIndex()
		f.spaced = make([]uint64, len(lines))
		for k, l := range lines {
			f.spaced[k] = spacedKey(f.content[l.start:l.end])
		}
	}
	return f.spaced
}

// spacing runs the spacing rung, the last of the ladder, tried when every
// rung before it and every rescue found nothing: the old text's lines,
// typography folded as at the unicode rung, match the file's once blanks
// beside punctuation are dropped ("function  f( a, b )" for
// "function f(a, b)"), indentation mapped as from the indent rung on.
// Only whole lines are compared, so a letter the model got wrong still
// fails, and hits are unique or refused as at every rung. It is safe
// last because no earlier rung had a place to prefer. done, when not nil,
// says the new text stands already at this rung: an insertion sent
// again, or an edit made before whose old text is gone.
func (m *matcher) spacing(op, np *pattern) (hits []hit, done *location) {
	if m.opts.Strict || m.rescued || op.blank {
		return nil, nil
	}
	f := m.f
	already := func(nh []hit) *location {
		loc := m.already(nh, levelSpacing)
		loc.Note = noteSpacing
		return &loc
	}
	if hits = m.search(op, levelSpacing); len(hits) > 0 {
		// As in places: the new text holding the old, standing around
		// each place the old text matched, is an insertion already made.
		if insertion(op, np) {
			if nh := m.search(np, levelSpacing); m.standing(nh) && !f.addsFinalNL(op, np, nh) && within(hits, nh) && holdsEach(nh, hits) {
				return nil, already(nh)
			}
		}
		return hits, nil
	}
	if np.text != op.text && !np.blank {
		if nh := m.search(np, levelSpacing); m.standing(nh) && f.onlyExplanation(op, np, nh[0]) {
			return nil, already(nh)
		}
	}
	return nil, nil
}
