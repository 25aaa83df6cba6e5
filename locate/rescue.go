package locate

// Rescues for str_replace tool calls.
//
// A JSON tool call's old_string is a substring the model copied from what
// it saw, and agents copy in three ways that one mechanical rule explains.
// Each rescue is tried only for a tool call, only when the whole ladder
// found nothing (so exact text always wins), and each is unique or
// refused, as every rung is:
//
//  1. cut first line: old_string starts after a line's indentation, as
//     str_replace allows, and its other lines are shifted by one constant
//     amount from the file's (the model re-indented what it quoted). The
//     first line must be the file line without its indentation, the others
//     the next lines at one additive shift. The new text's first line
//     joins the file line's indentation; its other lines take the shift.
//     Strategy "indent".
//  2. line numbers: every line of old_string carries a read's prefix
//     ("     7\t", "     7→", "7: ", "7:" or OpenCode's "00007| "), one
//     kind, the numbers consecutive (two lines at least for the colon and
//     the bar, which prose and data use too, unless the number is padded
//     with zeros, as no prose writes it). The text without them goes through the ladder; the first
//     number is a line hint that may break a tie, never move the edit.
//     new_string loses its prefixes when every line of it has them; with
//     them on some lines only, the edit is refused. Not tried on a file
//     with a line that looks like such a prefix (a TSV "2\tbanana"): there
//     the prefix may be text. Strategy "line-hint".
//  3. double escapes: old_string written with "\n", "\t", "\"", "\'",
//     "\`", "\$" and "\\" as two characters; its unescaped form goes
//     through the ladder, and new_string is unescaped the same way. A
//     new_string with a character old_string only wrote escaped (a real
//     line break where old_string has "\n" and none) is not escaped the
//     same way and is not rescued, unless it holds no backslash at all:
//     then it reads the same escaped or not, and is written as sent. Strategy "unicode": the closest rung, another spelling
//     of the same characters.
//
// Each names itself in the result's Note, so that the model's next call
// sends the file's text as it is.

import (
	"strings"

	"github.com/edapply/edapply/edit"
)

// The strategies rescues 2 and 3 report; rescue 1's hits are the indent
// rung's.
const (
	strategyLineNumbers = edit.StrategyLineHint
	strategyUnescaped   = edit.StrategyUnicode
)

// rescuable reports whether the rescues may be tried for m's edit: a JSON
// tool call's, with the ladder on, not itself a rescue's.
func (m *matcher) rescuable() bool {
	return m.e.Format == edit.FormatJSON && !m.opts.Strict && !m.rescued
}

// cutHits finds p as rescue 1 reads it: its first line the whole text of
// an indented file line after the indentation, its other lines the next
// file lines at one additive shift (rungs indent: blanks at either end
// ignored). The hits carry the shift and cut.
func (m *matcher) cutHits(p *pattern) []hit {
	if len(p.lines) < 2 || p.gaps > 0 {
		return nil
	}
	head := trimRight(p.lines[0])
	if head == "" || isSpace(head[0]) {
		return nil
	}
	body := p.lines[1:]
	pl := make([]string, len(body))
	anchored := false
	for i, l := range body {
		pl[i] = prepLine(levelIndent, l)
		anchored = anchored || pl[i] != ""
	}
	if !anchored {
		return nil // a head and blank lines: exact matching's to judge
	}
	limit := m.hitLimit()
	f := m.f
	lines := f.lineIndex()
	var hits []hit
	fs := make([]string, len(body))
	for k := m.from; k+len(p.lines) <= len(lines) && len(hits) < limit; k++ {
		text := f.content[lines[k].start:lines[k].end]
		ind := leadingWS(text)
		if ind == "" || trimRight(text[len(ind):]) != head || !f.segAt(pl, levelIndent, k+1) {
			continue
		}
		for i := range body {
			ls := lines[k+1+i]
			fs[i] = f.content[ls.start:ls.end]
		}
		sh, ok := additiveShift(body, fs)
		if !ok {
			continue
		}
		sh.remap = true
		last := k + len(p.lines) - 1
		hits = append(hits, hit{start: int(lines[k].start), end: int(lines[last].next), first: k, last: last,
			lineMode: true, sh: sh, cmp: levelIndent, cut: true})
	}
	return hits
}

// rescue tries rescues 2 and 3 on an edit the ladder and rescue 1 could
// not locate. ok is false when neither applies, or when an unescaped text
// is not found either: the edit's own NO_MATCH then stands, since a "\n"
// in code is no proof of a double escape. A text without line numbers that
// is not found is reported as such: every line numbered is proof enough.
func (m *matcher) rescue(op, np *pattern) (loc location, err *edit.Error, ok bool) {
	if old, first, kind, ok := numberedLines(op.lines, true); ok && !m.f.hasNumberedLine(kind) {
		if joinLines(old, op.finalNL) == "" {
			// A blank line's number alone: no old text is left, and none
			// would insert rather than replace. The NO_MATCH stands.
			return location{}, nil, false
		}
		nw := np.text
		if lines, _, nkind, ok := numberedLines(np.lines, false); ok && nkind == kind {
			nw = joinLines(lines, np.finalNL)
		} else if someNumbered(np.lines, kind) {
			// Written as sent, the prefixes would become the file's text.
			w := wordsOf(m.e)
			cands, _ := m.f.candidates(newPattern(joinLines(old, op.finalNL)), m.from, w)
			return location{}, errSomeNumbered(w, cands), true
		}
		loc, err = m.rerun(joinLines(old, op.finalNL), nw, first, strategyLineNumbers, noteLineNumbers)
		return loc, err, true
	}
	if old, changed := unescapeOnce(op.text); changed {
		// A new text with no backslash reads the same either way.
		if !sameEscapes(op.text, old, np.text) && strings.Contains(np.text, `\`) {
			return location{}, nil, false
		}
		nw, _ := unescapeOnce(np.text)
		loc, err = m.rerun(old, nw, 0, strategyUnescaped, noteUnescaped)
		if err != nil && err.Code == edit.CodeNoMatch {
			return location{}, nil, false
		}
		return loc, err, true
	}
	return location{}, nil, false
}

// someNumbered reports whether a line carries a line-number prefix of the
// kind.
func someNumbered(lines []string, kind string) bool {
	for _, l := range lines {
		if _, k, _, ok := cutLineNumber(l); ok && k == kind {
			return true
		}
	}
	return false
}

// sameEscapes reports whether nw is escaped as old was, old being
// unescaped once: a character old only ever wrote escaped (a line break,
// a tab, a quote) does not stand unescaped in nw, where unescaping it
// again would break what nw meant ("a\n" in a string literal).
func sameEscapes(old, unescaped, nw string) bool {
	for _, c := range []byte("\n\t\"'`$") {
		if strings.IndexByte(unescaped, c) >= 0 && !bare(old, c) && bare(nw, c) {
			return false
		}
	}
	return true
}

// bare reports whether c stands in s other than right after a backslash
// that escapes it.
func bare(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case c:
			return true
		}
	}
	return false
}

// rerun locates the edit with old and new text in place of m's, and a
// line hint when it has none, and names the rescue in the result, or in
// the error's hint.
func (m *matcher) rerun(old, nw string, hint int, s edit.Strategy, note string) (location, *edit.Error) {
	e := *m.e
	e.Old, e.New = old, nw
	if e.Hint == 0 {
		e.Hint = hint
	}
	loc, err := locateWith(m.f, &e, newPattern(old), newPattern(nw), m.opts, nil, true)
	if err != nil {
		err.Hint = strings.TrimSpace(noteFirst(note, err.Hint))
		return loc, err
	}
	loc.Strategy, loc.Note = s, note
	return loc, nil
}

func joinLines(lines []string, finalNL bool) string {
	s := strings.Join(lines, "\n")
	if finalNL && len(lines) > 0 {
		s += "\n"
	}
	return s
}

// numberedLines strips a read's line-number prefix from every line: a
// number after optional spaces, then a tab, "→", ":" or "|" (the kind); a
// line that is only a number is a blank line's. Every line must have one,
// all of one kind; with consecutive set the numbers must count up by one
// from first, and the colon and the bar need two lines or a number padded
// with zeros. For the colon and the bar, one space after it belongs to the
// prefix when every line with text has one.
func numberedLines(lines []string, consecutive bool) (out []string, first int, kind string, ok bool) {
	if len(lines) == 0 {
		return nil, 0, "", false
	}
	out = make([]string, len(lines))
	for i, l := range lines {
		n, k, rest, ok := cutLineNumber(l)
		if !ok || consecutive && i > 0 && n != first+i {
			return nil, 0, "", false
		}
		if i == 0 {
			first = n
		}
		if k != "" {
			if kind != "" && k != kind {
				return nil, 0, "", false
			}
			kind = k
		}
		out[i] = rest
	}
	if kind == "" || consecutive && (kind == ":" || kind == "|") && len(lines) < 2 && !zeroPadded(lines[0]) {
		return nil, 0, "", false
	}
	if kind == ":" || kind == "|" {
		spaced := true
		for _, r := range out {
			spaced = spaced && (r == "" || r[0] == ' ')
		}
		if spaced {
			for i := range out {
				out[i] = strings.TrimPrefix(out[i], " ")
			}
		}
	}
	return out, first, kind, true
}

// cutLineNumber splits l into a line-number prefix's number and kind and
// the rest; kind is "" for a line that is only a number.
func cutLineNumber(l string) (n int, kind, rest string, ok bool) {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	j := i
	for j < len(l) && '0' <= l[j] && l[j] <= '9' {
		if j-i == 9 {
			return 0, "", "", false
		}
		n = n*10 + int(l[j]-'0')
		j++
	}
	if j == i {
		return 0, "", "", false
	}
	switch {
	case j == len(l):
		return n, "", "", true
	case l[j] == '\t' || l[j] == ':' || l[j] == '|':
		return n, l[j : j+1], l[j+1:], true
	case strings.HasPrefix(l[j:], "→"):
		return n, "→", l[j+len("→"):], true
	}
	return 0, "", "", false
}

// zeroPadded reports whether l opens with a line number padded with
// zeros to a width ("0007|"), as a read prints it and prose never does.
func zeroPadded(l string) bool {
	l = strings.TrimLeft(l, " ")
	return len(l) > 2 && l[0] == '0' && '0' <= l[1] && l[1] <= '9'
}

// hasNumberedLine reports whether a line of the file starts like a
// line-number prefix of the kind, with text after it: then such a prefix
// in an old text may be the file's own text.
func (f *finder) hasNumberedLine(kind string) bool {
	for _, ls := range f.lineIndex() {
		if _, k, rest, ok := cutLineNumber(f.content[ls.start:ls.end]); ok && k == kind && rest != "" {
			return true
		}
	}
	return false
}

// unescapeOnce undoes one level of escaping: "\n" and "\t" become the
// control characters, "\"", "\'", "\`", "\$" and "\\" the character after the
// backslash. Other backslashes stay. changed reports whether any did.
func unescapeOnce(s string) (string, bool) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	changed := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch d := s[i+1]; d {
			case 'n', 't', '"', '\'', '`', '$', '\\':
				switch d {
				case 'n':
					d = '\n'
				case 't':
					d = '\t'
				}
				b.WriteByte(d)
				i++
				changed = true
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String(), changed
}
