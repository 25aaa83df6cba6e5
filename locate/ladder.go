package locate

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/internal/linediff"
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

func (lv level) strategy() Strategy {
	switch lv {
	case levelExact:
		return StrategyExact
	case levelTrailingWS:
		return StrategyTrailingWS
	case levelIndent:
		return StrategyIndent
	case levelWhitespace:
		return StrategyWhitespace
	case levelUnicode:
		return StrategyUnicode
	case levelSpacing:
		return StrategyWhitespace // the contract's list is fixed; a note tells the rest
	}
	return StrategyElision
}

// A lineSpan is one line of a file: content[start:end] is its text and
// content[end:next] its terminator ("\n", "\r\n", or "" for a last line
// without one).
type lineSpan struct{ start, end, next int }

func indexLines(s string) []lineSpan {
	lines := make([]lineSpan, 0, strings.Count(s, "\n")+1)
	for off := 0; off < len(s); {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			lines = append(lines, lineSpan{off, len(s), len(s)})
			break
		}
		end := off + i
		if end > off && s[end-1] == '\r' {
			end--
		}
		lines = append(lines, lineSpan{off, end, off + i + 1})
		off += i + 1
	}
	return lines
}

// A pattern is an edit's old or new text, split for matching: line endings
// normalized to "\n", then cut into lines without terminators.
type pattern struct {
	text    string   // the text with "\r\n" turned into "\n"
	lines   []string // text's lines; none for ""
	finalNL bool     // text ends with "\n"
	gap     []bool   // lines[i] may stand for skipped lines: a placeholder, or a bare "..."
	gaps    int      // how many gap lines
	ph      []bool   // lines[i] is a placeholder for sure (a bare "..." that is a block's body is not)
	phs     int      // how many placeholders
	blank   bool     // every line is blank (or a placeholder): nothing to anchor a tolerant match

	// insertion(p, insNew) is ins, remembered: the batch planner asks
	// before the matcher does.
	insNew *pattern
	ins    bool
}

func newPattern(s string) *pattern {
	p := splitPattern(s)
	p.classify(true)
	return p
}

// classify judges p's lines: its placeholders, gap lines and whether it is
// blank, with a flag per line when flags is set, else only the counts (for
// a pattern that is judged and dropped).
func (p *pattern) classify(flags bool) {
	p.blank = true
	if p.text == "" {
		return
	}
	n := len(p.lines)
	if flags {
		f := make([]bool, 2*n)
		p.gap, p.ph = f[:n:n], f[n:]
	}
	for i, l := range p.lines {
		ph := IsPlaceholder(p.lines, i)
		if ph {
			p.phs++
		} else if !isBlank(l) {
			p.blank = false
		}
		// A bare "..." after "key:" is YAML's elision as often as it is
		// Python's Ellipsis; in an old text the elision rung, tried only
		// after every literal rung failed, may take it as a gap.
		gap := ph || mayBePlaceholder(l) && onlyDots(strings.TrimSpace(l))
		if gap {
			p.gaps++
		}
		if flags {
			p.ph[i], p.gap[i] = ph, gap
		}
	}
}

// splitPattern is s's pattern with its text, lines and finalNL only: no
// line is judged a placeholder, a gap or blank. For a text whose lines the
// caller only counts and compares (the batch's old text).
func splitPattern(s string) *pattern {
	p := &pattern{}
	if body, ok := p.setText(s); ok {
		p.lines = strings.Split(body, "\n")
	}
	return p
}

// setText sets p's text (s with "\r\n" turned into "\n") and finalNL, and
// returns the text without its final "\n", to be cut into p's lines; false
// when the text is empty and has none.
func (p *pattern) setText(s string) (body string, ok bool) {
	p.text = s
	if strings.IndexByte(s, '\r') >= 0 {
		p.text = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if p.text == "" {
		return "", false
	}
	body = p.text
	if strings.HasSuffix(body, "\n") {
		p.finalNL = true
		body = body[:len(body)-1]
	}
	return body, true
}

// splitInto returns body's lines, as strings.Split(body, "\n") cuts them,
// in dst's room.
func splitInto(dst []string, body string) []string {
	dst = dst[:0]
	for {
		i := strings.IndexByte(body, '\n')
		if i < 0 {
			return append(dst, body)
		}
		dst = append(dst, body[:i])
		body = body[i+1:]
	}
}

// A finder answers searches over one file's content. Everything it derives
// from the content (line index, LF view) is built at most once, on demand.
type finder struct {
	content string
	lines   []lineSpan
	indexed bool

	// The LF view: content with every "\r\n" turned into "\n"; crV holds
	// the view offsets of the dropped "\r"s (the offset of their "\n").
	view  string
	crV   []int
	crC   []int // content offsets of the dropped "\r"s
	hasCR bool
	viewd bool
	mode  int // eolLF, eolCRLF or eolMixed; 0 until known

	keys  []uint64 // looseKey of each line; nil until needed
	loose []string // looseLine of each line; nil until needed
	// words holds lineWords of every line, line k's at
	// words[wordsAt[k]:wordsAt[k+1]]; wordsAt is nil until needed.
	words   []uint64
	wordsAt []int
	keyBits []uint64 // a bit set of keys' values (modulo its size)
}

func newFinder(content string) *finder { return &finder{content: content} }

func (f *finder) lineIndex() []lineSpan {
	if !f.indexed {
		f.lines, f.indexed = indexLines(f.content), true
	}
	return f.lines
}

func (f *finder) lfView() string {
	if f.viewd {
		return f.view
	}
	f.viewd = true
	if !strings.Contains(f.content, "\r\n") {
		f.view = f.content
		return f.view
	}
	f.hasCR = true
	var b strings.Builder
	b.Grow(len(f.content))
	s := f.content
	for off := 0; ; {
		i := strings.Index(s[off:], "\r\n")
		if i < 0 {
			b.WriteString(s[off:])
			break
		}
		b.WriteString(s[off : off+i])
		f.crC = append(f.crC, off+i)
		f.crV = append(f.crV, b.Len())
		off += i + 1
	}
	f.view = b.String()
	return f.view
}

// toContent maps an offset of the LF view to one of the content.
func (f *finder) toContent(v int) int {
	if !f.hasCR {
		return v
	}
	return v + sort.SearchInts(f.crV, v)
}

// toView maps an offset of the content to one of the LF view.
func (f *finder) toView(c int) int {
	if !f.hasCR {
		return c
	}
	return c - sort.SearchInts(f.crC, c)
}

// dominantEOL is the line ending new lines get when nothing nearer decides.
func (f *finder) dominantEOL() string {
	if m := f.eolMode(); m != eolMixed {
		return eolOf(m)
	}
	if isCRLF(f.content) {
		return "\r\n"
	}
	return "\n"
}

// eolOf is the line ending of mode eolLF or eolCRLF (and of the LF view
// a mixed file is searched in).
func eolOf(mode int) string {
	if mode == eolCRLF {
		return "\r\n"
	}
	return "\n"
}

// A hit is one place a pattern matched.
type hit struct {
	start, end  int   // content byte offsets of the matched region
	first, last int   // 0-based lines of the region (last inclusive)
	lineMode    bool  // matched whole lines (every rung but exact)
	openEnd     bool  // exact: the old text's final line ending matched the end of a file without one
	gapMode     bool  // placeholders matched runs of lines (levelElision)
	runs        []int // gapMode: the length of each placeholder's run
	sh          shift // the indentation shift (rungs from indent on)
	cut         bool  // the first line was quoted without its indentation (rescue 1): the shift leaves it out
	cmp         level // the comparison that matched (at the elision rung, the one its lines needed)
}

// The line endings of a file, for the exact rung.
const (
	eolLF    = 1 // no "\r\n"
	eolCRLF  = 2 // every "\n" is part of a "\r\n"
	eolMixed = 3
)

func (f *finder) eolMode() int {
	if f.mode != 0 {
		return f.mode
	}
	f.mode = eolLF
	if strings.Contains(f.content, "\r\n") {
		f.mode = eolCRLF
		for off := 0; ; {
			i := strings.IndexByte(f.content[off:], '\n')
			if i < 0 {
				break
			}
			if off+i == 0 || f.content[off+i-1] != '\r' {
				f.mode = eolMixed
				break
			}
			off += i + 1
		}
	}
	return f.mode
}

// needle is p's text as the exact rung searches for it in content of the
// given line-ending mode: with "\r\n" for "\n" in a CRLF file (a mixed one
// is searched through its LF view).
// lastLine is the last line a match of p's lines that starts on line
// first covers.
func (p *pattern) lastLine(first int) int { return first + max(len(p.lines), 1) - 1 }

func (p *pattern) needle(mode int) string { return needle(p.text, mode) }

// needle is text, with "\n" endings, as pattern.needle gives it.
func needle(text string, mode int) string {
	if mode == eolCRLF {
		return strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// maxPiece is the longest piece of a needle exactHits looks for: at most
// what strings.Index compares with vector instructions on every platform.
const maxPiece = 32

// pieceStart returns where, among the first 64 bytes of needle, the piece
// exactHits looks for starts: at the first byte that is neither a blank
// nor a lowercase letter, else at the first that is no blank, else at 0.
func pieceStart(needle string) int {
	first := -1
	for i := 0; i < len(needle) && i < 64; i++ {
		switch c := needle[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case 'a' <= c && c <= 'z':
			if first < 0 {
				first = i
			}
		default:
			return i
		}
	}
	return max(first, 0)
}

// exactHits finds p.text, with its "\n" as the file's line endings, at or
// after content offset from, overlapping occurrences included; at most
// limit hits. A file of one ending is searched as it is; a mixed one
// through its LF view.
func (f *finder) exactHits(p *pattern, from, limit int) []hit {
	mode := f.eolMode()
	hay, needle := f.content, p.needle(mode)
	if mode == eolMixed {
		hay, from = f.lfView(), f.toView(from)
	}
	// strings.Index stops at every occurrence of the needle's first byte
	// and, for a long needle, turns to Rabin-Karp when that byte is common,
	// as the tab that starts every line of indented code is. So it is given
	// a short piece of the needle that starts at an uncommon byte (skip
	// bytes in), and the whole needle is compared where the piece is.
	skip := pieceStart(needle)
	piece := needle[skip:min(len(needle), skip+maxPiece)]
	var hits []hit
	line, counted := 0, 0
	for off := from; off+len(needle) <= len(hay); {
		i := strings.Index(hay[off+skip:], piece)
		if i < 0 {
			break
		}
		s, e := off+i, off+i+len(needle)
		if e > len(hay) {
			break
		}
		if hay[s:e] != needle {
			off = s + 1
			continue
		}
		line += strings.Count(hay[counted:s], "\n")
		counted = s
		h := hit{start: s, end: e, first: line, last: p.lastLine(line), cmp: levelExact}
		if mode == eolMixed {
			h.start, h.end = f.toContent(s), f.toContent(e)
		}
		hits = append(hits, h)
		if len(hits) >= limit {
			break
		}
		off = s + 1
	}
	// The end of a file without a final newline ends its last line: an
	// old text of whole lines may end there.
	if p.finalNL && len(hits) < limit && !strings.HasSuffix(hay, "\n") {
		body := strings.TrimSuffix(needle, eolOf(mode))
		if s := len(hay) - len(body); body != "" && s >= from && strings.HasSuffix(hay, body) {
			line += strings.Count(hay[counted:s], "\n")
			h := hit{start: s, end: len(hay), first: line, last: p.lastLine(line), cmp: levelExact, openEnd: true}
			if mode == eolMixed {
				h.start, h.end = f.toContent(s), f.toContent(len(hay))
			}
			hits = append(hits, h)
		}
	}
	return hits
}

// inIndent reports whether content offset off lies inside its line's
// leading indentation: only blanks, at least one, before it on its line.
func (f *finder) inIndent(off int) bool {
	ls := lineStartAt(f.content, off)
	return ls < off && strings.Trim(f.content[ls:off], " \t") == ""
}

// lineStartAt returns the start of the line of s that holds offset o.
func lineStartAt(s string, o int) int {
	return strings.LastIndexByte(s[:o], '\n') + 1
}

// lineEndAt returns the end, before its "\n", of the line of s that holds
// offset o.
func lineEndAt(s string, o int) int {
	if k := strings.IndexByte(s[o:], '\n'); k >= 0 {
		return o + k
	}
	return len(s)
}

// startsBlank reports whether p's text starts with a blank.
func startsBlank(p *pattern) bool { return startsBlankText(p.text) }

// startsBlankText is startsBlank of a pattern's text.
func startsBlankText(text string) bool { return text != "" && (text[0] == ' ' || text[0] == '\t') }

// prepLine prepares a pattern line for lineEq at level lv.
func prepLine(lv level, l string) string {
	switch lv {
	case levelTrailingWS:
		return trimRight(l)
	case levelIndent:
		return trimBoth(l)
	case levelWhitespace:
		return l
	case levelSpacing:
		return spacedForm(foldPunct(l))
	}
	return foldPunct(l)
}

// lineEq compares a file line with a pattern line, prepared by prepLine,
// at a line level.
func lineEq(lv level, file, pat string) bool {
	switch lv {
	case levelTrailingWS:
		return trimRight(file) == pat
	case levelIndent:
		return trimBoth(file) == pat
	case levelWhitespace:
		return eqFields(file, pat)
	case levelSpacing:
		return spacedForm(foldPunct(file)) == pat
	default: // levelUnicode, levelElision
		return eqFields(foldPunct(file), pat)
	}
}

func trimRight(s string) string {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return s[:i]
}

func trimBoth(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return trimRight(s[i:])
}

func isBlank(s string) bool { return trimRight(s) == "" }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// eqFields reports whether a and b are equal once leading and trailing
// whitespace is dropped and inner runs of it are collapsed to one space.
func eqFields(a, b string) bool {
	i, j := skipSpace(a, 0), skipSpace(b, 0)
	for i < len(a) && j < len(b) {
		if isSpace(a[i]) && isSpace(b[j]) {
			i, j = skipSpace(a, i), skipSpace(b, j)
			continue
		}
		// A blank against a non-blank differs: inner, it separates words
		// the other side joins; trailing, the other side goes on.
		if a[i] != b[j] {
			return false
		}
		i++
		j++
	}
	return skipSpace(a, i) == len(a) && skipSpace(b, j) == len(b)
}

// skipSpace returns the offset of the first byte of s from i on that is
// not a blank (isSpace), or len(s).
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// foldPunct folds typographic punctuation to ASCII: curly quotes, primes,
// no-break and thin spaces, dashes (a run of them, ASCII ones included, to
// one "-") and the ellipsis. Only valid UTF-8 sequences fold; other bytes
// are kept as they are. ASCII input without "--" is returned as it is.
func foldPunct(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && !(s[i] == '-' && i+1 < len(s) && s[i+1] == '-') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	dash := func() { // a run of dashes folds to one: "--" is how "—" is typed
		if b.Len() == 0 || b.String()[b.Len()-1] != '-' {
			b.WriteByte('-')
		}
	}
	for i < len(s) {
		c := s[i]
		if c == '-' {
			dash()
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			b.WriteByte(c)
			i++
			continue
		}
		switch r {
		case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u00B4', '\u02BC':
			b.WriteByte('\'')
		case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u00AB', '\u00BB':
			b.WriteByte('"')
		case '\u00A0', '\u2002', '\u2003', '\u2007', '\u2009', '\u200A', '\u202F', '\u3000':
			b.WriteByte(' ')
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			dash()
		case '\u2026':
			b.WriteString("...")
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
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

func leadingWS(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
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
		sh.remap = sh.delta != 0 || sh.um != 0
		for i := range pat {
			if !sh.remap && !isBlank(pat[i]) && !isBlank(file[i]) && leadingWS(pat[i]) != leadingWS(file[i]) {
				sh.remap = true
			}
		}
	}
	return sh, ok
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

// lineHits finds p, line by line at level lv, in the lines from fromLine
// on: every start line where it matches, overlapping matches included; at
// most limit hits. With gaps, placeholder lines match the shortest run of
// lines (zero or more) that lets the rest match; lv is then the comparison
// for the other lines.
func (f *finder) lineHits(p *pattern, lv level, gaps bool, fromLine, limit int) []hit {
	if p.blank || len(p.lines) == 0 {
		return nil
	}
	lines := f.lineIndex()
	pl := make([]string, len(p.lines))
	for i, l := range p.lines {
		pl[i] = prepLine(lv, l)
	}
	gaps = gaps && p.gaps > 0
	// The file's line k holds pattern line base: leading placeholders
	// match no line.
	base := 0
	if gaps {
		for base < len(pl) && p.gap[base] {
			base++
		}
	}
	var hits []hit
	var rescaledHits []hit // hits that needed a change of units: only when no other
	fileText := func(k int) string { return f.content[lines[k].start:lines[k].end] }
	memo := make([]segMemo, len(pl))
	need := len(pl)
	if gaps {
		need -= p.gaps
	}
	for _, k := range f.starts(p, lv, gaps, base, fromLine) {
		if k+need > len(lines) {
			break
		}
		var runs []int
		end, ok := k+len(pl), false
		if gaps {
			runs = make([]int, len(pl))
			end, ok = f.matchGaps(pl, p.gap, lv, k, runs, memo)
		} else {
			ok = f.segAt(pl, lv, k)
		}
		if !ok {
			continue
		}
		// Indentation: the same shift for every line that is not blank.
		var ps, fs []string
		at := k
		for i := range pl {
			if gaps && p.gap[i] {
				at += runs[i]
				continue
			}
			ps = append(ps, p.lines[i])
			fs = append(fs, fileText(at))
			at++
		}
		sh := shift{tabw: 4}
		if lv >= levelIndent {
			var ok bool
			if sh, ok = consistentShift(ps, fs); !ok {
				continue
			}
		}
		h := hit{first: k, last: end - 1, lineMode: true, gapMode: gaps, runs: runs, sh: sh, cmp: lv}
		h.start, h.end = lines[k].start, lines[end-1].next
		if sh.um != 0 {
			// A looser mapping than an additive shift: it counts only
			// when no place matches with one.
			if len(rescaledHits) < limit {
				rescaledHits = append(rescaledHits, h)
			}
			continue
		}
		hits = append(hits, h)
		if len(hits) >= limit {
			break
		}
	}
	if len(hits) == 0 {
		return rescaledHits
	}
	return hits
}

// starts returns, ascending, the lines from fromLine on where a match of
// p may start at line level lv. Rather than compare every line, it
// compares keys: a file line that matches a pattern line at any line level
// up to elision has the pattern line's looseKey (each level only forgives
// what the key leaves out: blanks and typography), and one that matches
// at levelSpacing its spacedKey (spacedLines). So only the lines whose key is that of
// the first segment's most telling line, shifted back to where the match
// would start, are starts.
func (f *finder) starts(p *pattern, lv level, gaps bool, base, fromLine int) []int {
	ni, best := base, -1
	for i := base; i < len(p.lines) && !(gaps && p.gap[i]); i++ {
		if n := len(trimBoth(p.lines[i])); n > best {
			ni, best = i, n
		}
	}
	if ni >= len(p.lines) {
		return nil // only placeholders: they match no line
	}
	off := ni - base
	if lv == levelSpacing {
		ks := f.spacedLines(p.lines[ni], fromLine+off)
		for i := range ks {
			ks[i] -= off
		}
		return ks
	}
	keys, key := f.looseKeys(), looseKey(p.lines[ni])
	var ks []int
	for L := fromLine + off; L < len(keys); L++ {
		if keys[L] == key {
			ks = append(ks, L-off)
		}
	}
	return ks
}

// looseKeys returns the looseKey of every line, computed once.
func (f *finder) looseKeys() []uint64 {
	if f.keys == nil {
		lines := f.lineIndex()
		f.keys = make([]uint64, len(lines))
		bits := 1 << 12
		for bits < 16*len(lines) {
			bits <<= 1
		}
		f.keyBits = make([]uint64, bits/64)
		for k, l := range lines {
			h := looseKey(f.content[l.start:l.end])
			f.keys[k] = h
			b := h & uint64(bits-1)
			f.keyBits[b/64] |= 1 << (b % 64)
		}
	}
	return f.keys
}

// mayHaveLines reports whether every line of p that is not a placeholder
// or blank may have a match at a line level: false when the loose key of
// one is that of no line of the file (a set of bits, so true may be
// wrong; false never is).
func (f *finder) mayHaveLines(p *pattern) bool {
	f.looseKeys()
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		b := looseKey(l) & uint64(len(f.keyBits)*64-1)
		if f.keyBits[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// segAt reports whether the lines seg match the file's lines from k on.
func (f *finder) segAt(seg []string, lv level, k int) bool {
	if k+len(seg) > len(f.lines) {
		return false
	}
	for i, l := range seg {
		ls := f.lines[k+i]
		if !lineEq(lv, f.content[ls.start:ls.end], l) {
			return false
		}
	}
	return true
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

// A unit is the file's text that one line of the old text matched: the
// line's bytes and its terminator, or a placeholder's whole run of lines.
type unit struct {
	text, eol string
	gap       bool
}

// units returns what each line of p matched in the file at h.
func (f *finder) units(p *pattern, h hit) []unit {
	us := make([]unit, len(p.lines))
	if !h.lineMode {
		// Exact: the region is p's lines, each "\n" one of the file's endings.
		pos := h.start
		for i, l := range p.lines {
			us[i].text = f.content[pos : pos+len(l)]
			pos += len(l)
			if (i < len(p.lines)-1 || p.finalNL) && pos < len(f.content) {
				n := 1
				if f.content[pos] == '\r' {
					n = 2
				}
				us[i].eol = f.content[pos : pos+n]
				pos += n
			}
		}
		return us
	}
	lines := f.lines
	k := h.first
	for i := range p.lines {
		if h.gapMode && p.gap[i] {
			r := h.runs[i]
			if r > 0 {
				us[i].text = f.content[lines[k].start:lines[k+r-1].next]
			}
			us[i].gap = true
			k += r
			continue
		}
		us[i].text = f.content[lines[k].start:lines[k].end]
		us[i].eol = f.content[lines[k].end:lines[k].next]
		k++
	}
	return us
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
		ni = strings.Repeat("\t", w/sh.tabw) + strings.Repeat(" ", w%sh.tabw)
	} else {
		ni = strings.Repeat(" ", w)
	}
	return ni + line[len(ind):]
}

// write builds the text that replaces hit h with np. A line of np that the
// edit keeps from op (pairs[j] >= 0) is written as the file has it, bytes
// and line ending; a line the edit adds or changes takes the model's text,
// re-indented at the indentation level, with the file's line ending. At a
// line level the text always ends with a line ending unless the matched
// region was the file's last line without one. finalNL overrides np's.
func (f *finder) write(np *pattern, finalNL bool, pairs []int, h hit, us []unit, trimWS bool) string {
	var b strings.Builder
	lastEOL := ""
	for _, u := range us {
		if u.eol != "" {
			lastEOL = u.eol
			break
		}
	}
	if lastEOL == "" {
		lastEOL = f.dominantEOL()
	}
	// The model's indentation is mapped onto the file's only when that
	// was needed to match; otherwise the replacement is written as sent.
	remap := h.cmp >= levelIndent && h.sh.remap
	tabs, known := false, false
	if remap {
		tabs, known = f.indentStyle(us)
	}
	for j, nl := range np.lines {
		i := pairs[j]
		needEOL := j < len(np.lines)-1 || finalNL || h.lineMode
		if i >= 0 && us[i].gap {
			b.WriteString(us[i].text)
			continue
		}
		eol := lastEOL
		if i >= 0 {
			b.WriteString(us[i].text)
			if us[i].eol != "" {
				eol, lastEOL = us[i].eol, us[i].eol
			}
		} else {
			line := nl
			if h.cut && j == 0 {
				// Quoted after the indentation, the first line is written there.
				if !isBlank(line) {
					line = leadingWS(us[0].text) + line
				}
			} else if remap {
				t := tabs
				if !known { // nothing in the file shows a style: the model's
					t = strings.HasPrefix(line, "\t")
				}
				line = rebase(line, h.sh, t)
			}
			if trimWS {
				line = trimRight(line)
			}
			b.WriteString(line)
		}
		if needEOL {
			b.WriteString(eol)
		}
	}
	out := b.String()
	if (h.lineMode || h.openEnd) && h.end == len(f.content) && !strings.HasSuffix(f.content, "\n") {
		// The region ends the file without a final newline; so does the text.
		out = strings.TrimSuffix(strings.TrimSuffix(out, "\n"), "\r")
	}
	return out
}

// sentAsIs reports whether write would give np's text exactly as sent for
// the hit h, so that no lines need pairing: an exact hit that does not
// stop at the end of a file without a final newline, in a file with "\n"
// endings only, old and new text that both end a line or both do not, no
// placeholder or bare "..." in the new text (pairLines pairs any two such
// gap lines, and the old one would be written), nothing to trim. Every
// line write keeps is then the same as the new text's, and every line
// ends with "\n".
func (f *finder) sentAsIs(op, np *pattern, h hit, trimWS bool) bool {
	return f.writesAsSent(h, trimWS, np.gaps == 0 && op.finalNL == np.finalNL)
}

// writesAsSent is sentAsIs, told by plain what it asks of the patterns:
// the new text has no gap line and ends a line as the old one does.
func (f *finder) writesAsSent(h hit, trimWS, plain bool) bool {
	return h.cmp == levelExact && !h.lineMode && !h.openEnd && !trimWS && plain && f.eolMode() == eolLF
}

// pairLines returns, for each line of b, the index of the line of a that
// it keeps unchanged (a longest common subsequence of lines), or -1. With
// gaps set every placeholder equals every other: the elision rung matched
// them as runs of lines. Without, a placeholder the file holds literally
// is a line like any other, and moving it is a change. With exact set lines compare byte
// for byte: when the SEARCH text matched the file exactly, a REPLACE line
// that differs only in trailing blanks is a deliberate change. Otherwise
// they compare without trailing blanks, because on a looser rung the
// model's trailing blanks are noise and the file's bytes should stay.
func pairLines(a, b *pattern, exact, gaps bool) []int {
	keys := func(p *pattern) []string {
		ks := make([]string, len(p.lines))
		for i := range ks {
			ks[i] = lineKey(p, i, exact, gaps)
		}
		return ks
	}
	ka, kb := keys(a), keys(b)
	return linediff.Pair(len(ka), len(kb), func(i, j int) bool { return ka[i] == kb[j] })
}

// isCRLF reports whether text's line endings are mostly CRLF.
func isCRLF(text string) bool {
	crlf := strings.Count(text, "\r\n")
	return crlf > 0 && crlf >= strings.Count(text, "\n")-crlf
}
