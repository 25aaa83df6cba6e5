package locate

// Rung 3, indent: lines equal once trimmed, their indentation mapped onto
// the file's by one shift or one change of units; and the shift that
// re-indents the lines an edit adds.

import "strings"

// trimBoth is s without the blanks at either end.
func trimBoth(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return trimRight(s[i:])
}

// A shift maps the indentation of an edit's lines onto the file's: a
// model's indent of width w (tabs counting tabw columns) stands for the
// file's indent of width w+delta. With units (um > 0) the model indents a
// level by um columns where the file indents by uf: w stands for
// delta + (w-base)·uf/um, what is left of a level kept as it is.
type shift struct {
	tabw, delta  int
	um, uf, base int
	remap        bool // some matched line's indentation differs from the file's
	// add, when set, is the literal indentation every matched line of the
	// file has before the model's own (a "\t" before "    "): the lines
	// the edit writes take it as it is, whatever the widths say, so that
	// a file indented with tabs and spaces together keeps its mix.
	add string
}

// width maps a model's indent width to the file's.
func (sh shift) width(w int) int {
	if sh.um == 0 {
		return max(w+sh.delta, 0)
	}
	d := w - sh.base
	q, r := d/sh.um, d%sh.um
	if r < 0 {
		q, r = q-1, r+sh.um
	}
	return max(sh.delta+q*sh.uf+r, 0)
}

// leadingWS is s's indentation: its leading spaces and tabs.
func leadingWS(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[:i]
}

func indentWidth(ind string, tabw int) int {
	w := 0
	for i := 0; i < len(ind); i++ {
		if ind[i] == '\t' {
			w += tabw - w%tabw
		} else {
			w++
		}
	}
	return w
}

// tabWidths are the tab widths tried, in order, when the model's
// indentation uses another unit than the file's.
var tabWidths = [...]int{4, 8, 2}

// consistentShift finds one shift that maps every model indent in pat onto
// the file indent beside it; blank lines do not count. An additive shift
// is preferred; else a change of units (see rescaled).
func consistentShift(pat, file []string) (shift, bool) {
	sh, ok := additiveShift(pat, file)
	if !ok {
		sh, ok = rescaled(pat, file)
	}
	if ok {
		sh.add = literalPrefix(pat, file)
		sh.remap = sh.delta != 0 || sh.um != 0
		for i := range pat {
			if !sh.remap && !isBlank(pat[i]) && !isBlank(file[i]) && leadingWS(pat[i]) != leadingWS(file[i]) {
				sh.remap = true
			}
		}
	}
	return sh, ok
}

// literalPrefix is the indentation every non-blank line of file has
// before that of the line of pat beside it, one string for all of them;
// "" when there is none.
func literalPrefix(pat, file []string) string {
	prefix, set := "", false
	for i := range pat {
		if isBlank(pat[i]) || isBlank(file[i]) {
			continue
		}
		fi, mi := leadingWS(file[i]), leadingWS(pat[i])
		if !strings.HasSuffix(fi, mi) {
			return ""
		}
		p := fi[:len(fi)-len(mi)]
		if set && p != prefix {
			return ""
		}
		prefix, set = p, true
	}
	return prefix
}

func additiveShift(pat, file []string) (shift, bool) {
	for _, tw := range tabWidths {
		delta, set, ok := 0, false, true
		for i := range pat {
			if isBlank(pat[i]) || isBlank(file[i]) {
				continue
			}
			d := indentWidth(leadingWS(file[i]), tw) - indentWidth(leadingWS(pat[i]), tw)
			if !set {
				delta, set = d, true
			} else if d != delta {
				ok = false
				break
			}
		}
		if ok {
			return shift{tabw: tw, delta: delta}, true
		}
	}
	return shift{}, false
}

// rescaled finds a change of indent units that maps every model indent in
// pat onto the file's: file width = a + (model width - b)·uf/um, where b
// is the least model indent and a the file's beside it. The block's steps
// between indents (their greatest common divisor, gm and gf on either
// side) give the ratio gf/gm, which must be uf/um for units um and uf of
// 2, 4 or 8 (not equal) that divide them as often: the smallest such um.
// Every line must then map onto the file's exactly, a remainder below um
// kept as it is (see shift.width). Only for indentation of spaces, where
// the widths are unambiguous, and only when every line agrees.
func rescaled(pat, file []string) (shift, bool) {
	var mw, fw []int
	for i := range pat {
		if isBlank(pat[i]) || isBlank(file[i]) {
			continue
		}
		mi, fi := leadingWS(pat[i]), leadingWS(file[i])
		if strings.IndexByte(mi, '\t') >= 0 || strings.IndexByte(fi, '\t') >= 0 {
			return shift{}, false
		}
		mw, fw = append(mw, len(mi)), append(fw, len(fi))
	}
	if len(mw) < 2 {
		return shift{}, false
	}
	lo := 0
	for i := range mw {
		if mw[i] < mw[lo] {
			lo = i
		}
	}
	a, b := fw[lo], mw[lo]
	gm, gf := 0, 0
	for i := range mw {
		gm, gf = gcd(gm, mw[i]-b), gcd(gf, fw[i]-a)
	}
	um, uf := 0, 0
	for _, u := range [...]int{2, 4, 8} {
		if gm == 0 || gf == 0 || gm == gf || gm%u != 0 || gf*u%gm != 0 {
			continue
		}
		if v := gf * u / gm; v == 2 || v == 4 || v == 8 {
			um, uf = u, v
			break
		}
	}
	fits := func(sh shift) bool {
		for i := range mw {
			if fw[i] != sh.width(mw[i]) {
				return false
			}
		}
		return true
	}
	if um != 0 {
		if sh := (shift{tabw: 4, delta: a, um: um, uf: uf, base: b}); fits(sh) {
			return sh, true
		}
	}
	// A line aligned under an opening bracket is a whole number of units
	// and a remainder ("raise X(...\n" + 33 spaces), which the model's
	// re-scaling keeps (8 units of 4 and 1 become 8 of 8 and 1): the steps'
	// divisor is then 1. The units are then the first pair, the model's
	// largest first, that maps every line, remainders kept (shift.width).
	for _, m := range [...]int{8, 4, 2} {
		for _, f := range [...]int{2, 4, 8} {
			if sh := (shift{tabw: 4, delta: a, um: m, uf: f, base: b}); m != f && fits(sh) {
				return sh, true
			}
		}
	}
	return shift{}, false
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// indentStyle reports whether the file indents with tabs: as most of the
// matched lines do, or else as the file's first indented line does. An
// indent of a single space (a block comment's " */", an alignment) is no
// level and shows no style. known is false when no line shows one.
func (f *finder) indentStyle(us []unit) (tabs, known bool) {
	style := func(l string) int { // 1 tabs, -1 spaces, 0 none
		switch {
		case isBlank(l):
		case l[0] == '\t':
			return 1
		case strings.HasPrefix(l, "  "):
			return -1
		}
		return 0
	}
	vote := 0
	for _, u := range us {
		if !u.gap {
			vote += style(u.text)
		}
	}
	if vote != 0 {
		return vote > 0, true
	}
	for _, u := range us { // a tie: the first that shows one
		if st := style(u.text); !u.gap && st != 0 {
			return st > 0, true
		}
	}
	f.readAll = true
	for _, l := range f.lineIndex() {
		if st := style(f.content[l.start:l.end]); st != 0 {
			return st > 0, true
		}
	}
	return false, false
}

// rebase re-indents a line the edit adds by the match's shift, in the
// file's style (tabs or spaces).
func rebase(line string, sh shift, tabs bool) string {
	ind := leadingWS(line)
	if ind == line { // blank
		return line
	}
	if sh.add != "" {
		return sh.add + line
	}
	other := " "
	if !tabs {
		other = "\t"
	}
	if sh.delta == 0 && sh.um == 0 && !strings.Contains(ind, other) {
		return line
	}
	w := sh.width(indentWidth(ind, sh.tabw))
	var ni string
	if tabs {
		ni = repeated(tabRun, w/sh.tabw) + repeated(spaceRun, w%sh.tabw)
	} else {
		ni = repeated(spaceRun, w)
	}
	return ni + line[len(ind):]
}

// Runs of indentation that rebase cuts its indents from, not building one
// a line.
const (
	tabRun   = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
	spaceRun = "                                                                "
)

// repeated is n of run's byte, cut from run where it is long enough.
func repeated(run string, n int) string {
	if n <= len(run) {
		return run[:n]
	}
	return strings.Repeat(run[:1], n)
}
