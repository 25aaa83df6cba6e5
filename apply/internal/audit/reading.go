package audit

import (
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// A rung that located an edit by another reading of it (package locate's
// rescues, blank edges and hunk edges) reports the old and new text it
// used. The check judges the splices against that reading, and the reading
// against the edit: it must be one of the edit's texts those rungs define,
// each told here from the edit alone:
//   - blank edges: the old text without its leading and trailing blank
//     lines, the new text without as many or fewer at the same ends;
//   - hunk edges: a diff hunk without context lines at one edge, as many
//     from both texts and no more than the hunk's context there;
//   - line numbers: every line of the old text without a read's number
//     prefix ("  7\t", "7: ", "7→", "0007| "), the new text as sent or
//     stripped so;
//   - double escapes: both texts with "\n", "\t", "\"", "\'", "\`", "\$"
//     and "\\" undone once (the new text may be as sent).

// textLines is s's lines, terminators aside.
func textLines(s string) []string {
	return appendTextLines(make([]string, 0, strings.Count(s, "\n")+1), s)
}

// appendTextLines appends textLines(s) to ts.
func appendTextLines(ts []string, s string) []string {
	// texts(splitLines(s)), without the lines between.
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			ts = append(ts, s)
			break
		}
		ts = append(ts, strings.TrimSuffix(s[:i], "\r"))
		s = s[i+1:]
	}
	return ts
}

// explained reports whether rd is a reading of e that a rung allows.
func explained(e *edit.Edit, rd *Reading) bool {
	if rd.Old == "" && e.Old != "" {
		// An old text is never read as none, which would insert rather
		// than replace.
		return false
	}
	o, n := textLines(e.Old), textLines(e.New)
	ro, rn := textLines(rd.Old), textLines(rd.New)
	return blankEdgesOf(o, n, ro, rn) || hunkEdgesOf(e, o, n, ro, rn) || numberedOf(e, rd) ||
		lf(rd.Old) == unescape(lf(e.Old)) && (lf(rd.New) == unescape(lf(e.New)) || lf(rd.New) == lf(e.New))
}

func blankRun(ls []string, fromEnd bool) int {
	k := 0
	for k < len(ls) {
		l := ls[k]
		if fromEnd {
			l = ls[len(ls)-1-k]
		}
		if !isBlank(l) {
			break
		}
		k++
	}
	return k
}

func blankEdgesOf(o, n, ro, rn []string) bool {
	lead, trail := blankRun(o, false), blankRun(o, true)
	if lead+trail == 0 || lead >= len(o) || !slices.Equal(o[lead:len(o)-trail], ro) {
		return false
	}
	for a := 0; a <= min(lead, blankRun(n, false)); a++ {
		rest := n[a:]
		b := len(rest) - len(rn)
		if b >= 0 && b <= trail && b <= blankRun(rest, true) && slices.Equal(rest[:len(rn)], rn) {
			return true
		}
	}
	return false
}

func hunkEdgesOf(e *edit.Edit, o, n, ro, rn []string) bool {
	if e.Format != edit.FormatUDiff {
		return false
	}
	for a := 1; a <= e.LeadContext && a <= len(o) && a <= len(n); a++ {
		if slices.Equal(o[a:], ro) && slices.Equal(n[a:], rn) && slices.Equal(o[:a], n[:a]) {
			return true
		}
	}
	for b := 1; b <= e.TrailContext && b <= len(o) && b <= len(n); b++ {
		if slices.Equal(o[:len(o)-b], ro) && slices.Equal(n[:len(n)-b], rn) && slices.Equal(o[len(o)-b:], n[len(n)-b:]) {
			return true
		}
	}
	return false
}

// numberedOf reports whether rd is e without a read's line numbers. The
// texts are cut at every "\n": a last line of only a number is a blank
// line's, which the reading's final newline may stand for.
func numberedOf(e *edit.Edit, rd *Reading) bool {
	cut := func(s string) []string { return strings.Split(lf(s), "\n") }
	if e.Old == "" || !strippedNumbers(cut(e.Old), cut(rd.Old)) {
		return false
	}
	return lf(e.New) == lf(rd.New) || strippedNumbers(cut(e.New), cut(rd.New))
}

// strippedNumbers reports whether each line of ls is the line of out
// behind a read's line-number prefix (or both are the nothing after a
// final newline).
func strippedNumbers(ls, out []string) bool {
	if len(ls) != len(out) {
		return false
	}
	for i, l := range ls {
		if l == "" && out[i] == "" && i == len(ls)-1 {
			continue
		}
		if !strings.HasSuffix(l, out[i]) || !numberPrefix(l[:len(l)-len(out[i])]) {
			return false
		}
	}
	return true
}

// numberPrefix reports whether p is a line-number prefix: blanks, a
// number, then a tab, ":", "|" or "→" and one blank at most, or nothing
// (the line of a blank line).
func numberPrefix(p string) bool {
	p = strings.TrimLeft(p, " ")
	d := 0
	for d < len(p) && d < 10 && '0' <= p[d] && p[d] <= '9' {
		d++
	}
	if d == 0 || d == 10 {
		return false
	}
	rest := p[d:]
	for _, sep := range []string{"\t", ":", "|", "→"} {
		if r, ok := strings.CutPrefix(rest, sep); ok {
			return r == "" || r == " "
		}
	}
	return rest == ""
}

// unescape undoes one level of escaping, as a double-escape rescue reads
// a text.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
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
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// subSlice returns where sub stands in ls as a run of its lines, the
// first place; -1 when nowhere.
func subSlice(ls, sub []string) int {
	for a := 0; a+len(sub) <= len(ls); a++ {
		if slices.Equal(ls[a:a+len(sub)], sub) {
			return a
		}
	}
	return -1
}

// readKept maps the marks' pairing of e's texts onto a reading of them
// that leaves lines out at their edges: kept[j] for the reading's new
// line j is the reading's old line it keeps, or -1. nil when the reading
// is not a run of each text's lines.
func readKept(kept []int, o, n, ro, rn []string) []int {
	ao, an := subSlice(o, ro), subSlice(n, rn)
	if ao < 0 || an < 0 {
		return nil
	}
	out := make([]int, len(rn))
	for j := range rn {
		i := kept[an+j]
		if i >= ao && i < ao+len(ro) {
			out[j] = i - ao
		} else {
			out[j] = -1
		}
	}
	return out
}
