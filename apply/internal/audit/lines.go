package audit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
)

// A line is one line of a text: its bytes and its terminator ("\n",
// "\r\n", or "" for a last line without one).
type line struct{ text, eol string }

// splitLines cuts s into lines; "" has none, and a final "\n" ends the
// last line rather than starting one.
func splitLines(s string) []line {
	return appendLines(make([]line, 0, strings.Count(s, "\n")+1), s)
}

// appendLines appends splitLines(s) to ls.
func appendLines(ls []line, s string) []line {
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			ls = append(ls, line{s, ""})
			break
		}
		t, eol := s[:i], "\n"
		if strings.HasSuffix(t, "\r") {
			t, eol = t[:len(t)-1], "\r\n"
		}
		ls = append(ls, line{t, eol})
		s = s[i+1:]
	}
	return ls
}

// A lineRoom is the room the check cuts a splice's texts into lines in,
// kept from splice to splice: a reply of thousands of tolerant edits
// allocates the lines of its longest edit, not of each. What a splice cut
// is cleared once it is checked, so the room keeps no text alive.
type lineRoom struct {
	o, n   []string // the old and new text's lines
	rl, wl []line   // the lines the splice replaced and wrote
	keys   []string // keptBroken's keys of o's and n's lines
}

// cleared is s emptied, its room kept.
func cleared[T any](s []T) []T {
	clear(s)
	return s[:0]
}

// texts is the bytes of each line, terminators aside.
func texts(ls []line) []string {
	ts := make([]string, len(ls))
	for i, l := range ls {
		ts[i] = l.text
	}
	return ts
}

// sameLine reports whether a and b are the same bytes, their terminators
// included where both have one: whether a line ends the file without one
// is the final-newline rule's to judge.
func sameLine(a, b line) bool {
	return a.text == b.text && (a.eol == b.eol || a.eol == "" || b.eol == "")
}

// lf is s with "\r\n" as "\n".
func lf(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// trimRight drops trailing blanks as the ladder's tolerant rungs ignore
// them.
func trimRight(s string) string { return strings.TrimRight(s, " \t\r\v\f") }

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// looseEq reports whether loose(a) == loose(b): at once for equal lines,
// so that text that stands as written costs no reduction of its lines.

// loose is the line s reduced to what every rung of the ladder keeps of
// it: no blank of any kind, quotes of every shape as one, a run of dashes
// as one, an ellipsis as three dots. Two lines the ladder may take for one
// another are loosely equal; the check compares by it where a rung may
// have changed what is compared (indentation, spacing, typography). It is
// coarser than every rung, so a line it tells apart from another is one
// no rung would take for it.
func loose(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	dash := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case ' ', '\t', '\r', '\n', '\v', '\f':
				continue
			case '-':
				if !dash {
					b.WriteByte('-')
				}
				dash = true
				continue
			case '"', '\'', '`':
				c = '\''
			}
			dash = false
			b.WriteByte(c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteByte(c)
		case unicode.IsSpace(r):
			continue
		case isDash(r):
			if !dash {
				b.WriteByte('-')
			}
			dash = true
			continue
		case isQuote(r):
			b.WriteByte('\'')
		case r == '…':
			b.WriteString("...")
		default:
			b.WriteString(s[i-n : i])
		}
		dash = false
	}
	return b.String()
}

// looseEqual is loose(a) == loose(b), read as it goes: the check compares
// every line of a tolerant splice loosely, and two reductions a line
// would cost a string each.
func looseEqual(a, b string) bool {
	if a == b || trimBlanks(a) == trimBlanks(b) {
		return true // blanks at either end are nothing of a loose form
	}
	ra, rb := looseReader{s: a}, looseReader{s: b}
	for {
		ca, oka := ra.next()
		cb, okb := rb.next()
		if oka != okb || ca != cb {
			return false
		}
		if !oka {
			return true
		}
	}
}

// trimBlanks is s without the ASCII blanks loose drops at either end.
func trimBlanks(s string) string {
	i, j := 0, len(s)
	for i < j && isASCIIBlank(s[i]) {
		i++
	}
	for j > i && isASCIIBlank(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isASCIIBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// A looseReader yields loose(s) a byte at a time.
type looseReader struct {
	s       string
	i       int
	dash    bool
	pending string // the rest of the bytes the last rune read makes
}

// next is loose's next byte; false at the end.
func (r *looseReader) next() (byte, bool) {
	if r.pending != "" {
		c := r.pending[0]
		r.pending = r.pending[1:]
		return c, true
	}
	s := r.s
	for r.i < len(s) {
		c := s[r.i]
		if c < utf8.RuneSelf {
			r.i++
			switch c {
			case ' ', '\t', '\r', '\n', '\v', '\f':
				continue
			case '-':
				if r.dash {
					continue
				}
				r.dash = true
				return '-', true
			case '"', '\'', '`':
				c = '\''
			}
			r.dash = false
			return c, true
		}
		rn, n := utf8.DecodeRuneInString(s[r.i:])
		at := r.i
		r.i += n
		var out string
		switch {
		case rn == utf8.RuneError && n == 1:
			out = s[at:r.i]
		case unicode.IsSpace(rn):
			continue
		case isDash(rn):
			if r.dash {
				continue
			}
			r.dash = true
			return '-', true
		case isQuote(rn):
			out = "'"
		case rn == '…':
			out = "..."
		default:
			out = s[at:r.i]
		}
		r.dash = false
		r.pending = out[1:]
		return out[0], true
	}
	return 0, false
}

func isDash(r rune) bool {
	return r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0xFE58 || r == 0xFE63 || r == 0xFF0D
}

func isQuote(r rune) bool {
	switch {
	case r >= 0x2018 && r <= 0x201F, r >= 0x2032 && r <= 0x2037, r == 0x2039, r == 0x203A:
		return true
	}
	switch r {
	case 0x00B4, 0x02BC, 0x02B9, 0x02BA, 0x00AB, 0x00BB, 0xFF02, 0xFF07:
		return true
	}
	return false
}

// gapish reports whether a line of an edit's text may be an elision
// placeholder ("...", "// ... existing code ...", "# rest unchanged"):
// more lines than the ladder takes for one, so that a rule that lets a
// placeholder stand for lines is never stricter than the ladder.
func gapish(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	if strings.Contains(t, "...") || strings.Contains(t, "…") || strings.Contains(t, "⋯") {
		return true
	}
	switch t[0] {
	case '/', '#', '-', ';', '%', '*', '<', '{', '(', '[', ':', '"', '_':
		return true
	}
	return false
}

// standsLoose reports whether the lines of text stand, loosely, as the
// lines got, one for one; with gaps, a gapish line of text may stand for
// any run of lines (none included).
func standsLoose(text, got []string, gaps bool) bool {
	if !gaps {
		if len(text) != len(got) {
			return false
		}
		for i := range text {
			if !looseEqual(text[i], got[i]) {
				return false
			}
		}
		return true
	}
	// Placeholders as wildcards: the leftmost place for each run of other
	// lines never loses a match, the gap after it taking up the rest.
	i, j := 0, 0
	for i < len(text) {
		if gapish(text[i]) {
			k := i
			for k < len(text) && gapish(text[k]) {
				k++
			}
			e := k
			for e < len(text) && !gapish(text[e]) {
				e++
			}
			if k == len(text) {
				return true // a trailing placeholder takes the rest
			}
			seg := text[k:e]
			found := -1
			for q := j; q+len(seg) <= len(got); q++ {
				if standsLoose(seg, got[q:q+len(seg)], false) {
					found = q
					break
				}
			}
			if found < 0 {
				return false
			}
			i, j = e, found+len(seg)
			continue
		}
		if j >= len(got) || !looseEqual(text[i], got[j]) {
			return false
		}
		i++
		j++
	}
	return j == len(got)
}

// lineOriented reports whether an edit of format f quotes whole lines, as
// the contract says of blocks, hunks and chunks; a tool call's old text is
// a substring.
func lineOriented(f edit.Format) bool {
	switch f {
	case edit.FormatSearchReplace, edit.FormatUDiff, edit.FormatCodex:
		return true
	}
	return false
}
