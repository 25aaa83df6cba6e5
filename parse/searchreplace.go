package parse

import (
	"strconv"
	"strings"

	"github.com/edapply/edapply/edit"
)

// An srReader reads Aider-style SEARCH/REPLACE blocks:
//
//	path/to/file.go
//	```go
//	<<<<<<< SEARCH
//	old lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//	```
//
// Blocks are found by their marker lines, never by fences, because the text
// being edited (Markdown, Go raw strings) may itself hold fences. The path
// is the nearest non-blank line before the block (inside the fence, the
// "diff-fenced" layout, or before it), a path in the fence's info string, or
// else the previous block's file.
//
// It keeps the openers found never closed (see markUnclosed).
type srReader struct {
	p *parser
	// unclosed holds the SEARCH openers found never closed, once a
	// block has been scanned to the end of the response; nil before.
	unclosed map[int]bool
}

func (r *srReader) format() edit.Format { return edit.FormatSearchReplace }

func (r *srReader) starts(i int) bool { return isSearchOpener(r.p.lines[i].text) }

// srMarker reports whether s is a marker line of 5–9 c's, optionally
// followed by a space and a label, and returns the run length and label.
// Up to three spaces of indentation are allowed, as for a Markdown fence,
// because models indent blocks inside list items.
func srMarker(s string, c byte) (n int, label string, ok bool) {
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	if s == "" || s[0] != c {
		return 0, "", false // most lines, before the trim
	}
	s = strings.TrimRight(s, " \t")
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 5 || n > 9 {
		return 0, "", false
	}
	rest := s[n:]
	if rest == "" {
		return n, "", true
	}
	if rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	label = strings.TrimSpace(rest)
	// A single word labels a marker (SEARCH, REPLACE, HEAD, a branch). More
	// words are prose (a Markdown quote ">>>>> like this"), except after a
	// 7-run, where git writes ">>>>>>> abc123 (commit subject)".
	if c == '=' || (n != 7 && strings.ContainsAny(label, " \t")) {
		return 0, "", false
	}
	return n, label, true
}

// isSearchLabel reports whether s is a word that may follow the opening
// marker. Other labels (HEAD, a branch name) belong to git conflicts,
// which only nest.
func isSearchLabel(s string) bool {
	switch s {
	case "", "search", "original", "find", "old", "before", "current",
		"existing":
		return true
	}
	return false
}

// isSearchOpener reports whether s opens a block: Aider's "<<<<<<< SEARCH"
// (also written "<<<<<<< SEARCH>") or Cline's "------- SEARCH", of any run
// length labelledRun allows.
func isSearchOpener(s string) bool {
	_, label, ok := srMarker(s, '<')
	return ok && isSearchLabel(strings.ToLower(strings.TrimSuffix(label, ">"))) || isClineOpener(s) ||
		labelledRun(s, '<', "search") > 0
}

// isClineOpener reports whether s is Cline's "------- SEARCH". Unlike '<',
// a run of dashes needs its label: alone it is a Markdown rule.
func isClineOpener(s string) bool {
	_, label, ok := srMarker(s, '-')
	return ok && label != "" && isSearchLabel(strings.ToLower(label)) || labelledRun(s, '-', "search") > 0
}

// opensLevel reports whether s opens a level of nesting inside a block:
// any '<' marker (a block, a git conflict) or another spelling of a
// block's opener (Cline's, a labelled run of any length).
func opensLevel(s string) bool {
	_, _, ok := srMarker(s, '<')
	return ok || isClineOpener(s) || labelledRun(s, '<', "search") > 0
}

// closesLevel reports whether s closes a level: any '>' marker, or
// Cline's "+++++++ REPLACE", or a REPLACE marker of any run length
// labelledRun allows.
func closesLevel(s string) bool {
	if _, _, ok := srMarker(s, '>'); ok {
		return true
	}
	_, label, ok := srMarker(s, '+')
	return ok && strings.EqualFold(strings.TrimSuffix(label, ">"), "replace") ||
		labelledRun(s, '>', "replace") > 0 || labelledRun(s, '+', "replace") > 0
}

// labelledRun returns the length of s's run of c when s is a marker of
// Cline's reading: a run of at least three c's, a space, and the word (any
// case, a stray '>' after it allowed), alone on its line but for
// srMarker's indentation; 0 otherwise. Cline reads markers of any length
// so; the word makes the line a marker, so a run outside srMarker's five
// to nine counts only with it: a bare run, or one labelled HEAD, stays
// text.
func labelledRun(s string, c byte, word string) int {
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	if s == "" || s[0] != c {
		return 0
	}
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	rest := strings.TrimRight(s[n:], " \t")
	if n < 3 || rest == "" || rest[0] != ' ' && rest[0] != '\t' {
		return 0
	}
	if !strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(rest), ">"), word) {
		return 0
	}
	return n
}

// openerRun returns the run length of the block opener s, of any spelling.
func openerRun(s string) int {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return 0
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return n
}

// standardRun reports whether a marker's run has srMarker's length.
func standardRun(n int) bool { return n >= 5 && n <= 9 }

// looseDivider reports whether s is a line of only '=', three at least, of
// a length srMarker does not read. It may divide only a block whose own
// opener is of such a length (Cline writes eleven '<' over ten '='): in a
// block of the usual markers, a long run of '=' is a Markdown or RST
// underline.
func looseDivider(s string) bool {
	t := strings.TrimRight(strings.TrimLeft(s, " "), " \t")
	return len(t) >= 3 && len(s)-len(strings.TrimLeft(s, " ")) <= 3 && strings.Trim(t, "=") == "" && !standardRun(len(t))
}

// searchStart returns the line where the SEARCH text of the block opening
// at line open begins, and the line hint Roo Code writes before it:
// ":start_line:N" (and ":end_line:M") lines, N also written "[N]", then a
// "-------" line. They
// are the tool's syntax, never the file's text; without them, or without
// the dash line after them, the SEARCH text begins on the line after the
// opener.
func (p *parser) searchStart(open, stop int) (from, hint int) {
	k := open + 1
	for ; k < stop; k++ {
		t := strings.TrimSpace(p.lines[k].text)
		name, num, ok := strings.Cut(t, ":")
		if !ok || name != "" {
			break
		}
		name, num, ok = strings.Cut(num, ":")
		n, err := strconv.Atoi(lineNumber(num))
		if !ok || err != nil || n < 1 || (name != "start_line" && name != "end_line") {
			break
		}
		if name == "start_line" {
			hint = n
		}
	}
	if k == open+1 || k >= stop || !isRooSeparator(p.lines[k].text) {
		return open + 1, 0 // no "-------" after them: the lines are text
	}
	return k + 1, hint
}

// lineNumber is the number of a preamble line as models write it: "12",
// " 12" or "[12]", the brackets copied from the tool's own description.
func lineNumber(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// isRooSeparator reports whether s is the dash line that ends Roo's
// preamble.
func isRooSeparator(s string) bool {
	_, label, ok := srMarker(s, '-')
	return ok && label == ""
}

// startsWithPreamble reports whether text, as a block's SEARCH, would be
// read as beginning with Roo's preamble rather than as the file's lines.
func startsWithPreamble(text string) bool {
	if !strings.HasPrefix(text, ":") {
		return false
	}
	p := newParser("<<<<<<< SEARCH\n"+text, edit.FormatSearchReplace)
	from, _ := p.searchStart(0, len(p.lines))
	return from > 1
}

func isDivider(s string) (int, bool) {
	n, _, ok := srMarker(s, '=')
	return n, ok
}

// read reads the block whose opening marker is line i.
//
// Only a divider at nesting depth one splits SEARCH from REPLACE: every
// '<' marker inside the block opens a level and every '>' marker closes
// one, so git conflict markers and documents that show the format keep
// their text. Among several depth-one dividers, one of exactly seven '='
// wins, then one as long as the opening marker; a split still ambiguous is
// a PARSE_ERROR, since choosing by the file is the applier's business.
func (r *srReader) read(i int) int {
	p := r.p
	openN := openerRun(p.lines[i].text)
	if p.sr.unclosed[i] {
		p.errorf(lineNum(i), "SEARCH/REPLACE block is not closed before the end of the response")
		return i + 1
	}
	divs, closeAt := srBlock(p, i, len(p.lines))
	if closeAt < 0 {
		// Truncated: report it and let the lines after the opener be read
		// again, so a later complete block still counts. Which of the
		// later openers are closed is known now, so none rescans to the end.
		p.markUnclosed(i)
		p.errorf(lineNum(i), "SEARCH/REPLACE block is not closed before the end of the response")
		return i + 1
	}
	pth, from := p.blockPath(i)
	body, hint := p.searchStart(i, closeAt)
	for len(divs) > 0 && divs[0] < body {
		divs = divs[1:] // a divider inside Roo's preamble cannot split the block
	}
	div, msg := pickDivider(p, divs, openN, body-1, closeAt, pth)
	if msg != "" {
		hint := "Separate SEARCH from REPLACE with one ======= line."
		if len(divs) > 1 {
			hint = "Send a SEARCH that leaves out the file's own ======= lines, so that one divider remains."
		}
		p.errorHint(lineNum(i), hint, "%s", msg)
		return closeAt + 1
	}
	if pth == "" {
		p.errorHint(lineNum(i), "Put the file's path alone on the line before the block's fence.",
			"SEARCH/REPLACE block names no file")
		return closeAt + 1
	}
	if from == i && p.lastWhole {
		// The block takes its file from a whole-file fence: that fence
		// is a file, not a quote (see dropQuotes).
		p.leanOnWhole[p.editCount()] = true
	}
	p.lastPath = pth
	old := unescapeMarkers(p.text[p.lineEnd(body-1):p.lines[div].start])
	nw := unescapeMarkers(p.text[p.lineEnd(div):p.lines[closeAt].start])
	// Roo's start line, like a hunk's, may break a tie between equal
	// matches; it never moves the edit to text that does not match.
	e := edit.Edit{Op: edit.Replace, Path: pth, Old: old, New: nw, Count: 1, Hint: hint}
	if old == "" {
		e = edit.Edit{Op: edit.Create, Path: pth, New: nw}
	}
	p.add(e, edit.FormatSearchReplace, from, closeAt+1)
	return closeAt + 1
}

// unescapeMarkers drops the backslash before each line of text that would
// otherwise read as one of the block's own lines: a marker ("=======",
// "<<<<<<< SEARCH", ">>>>>>> REPLACE", "-------", "+++++++ REPLACE") or
// Roo's ":start_line:" preamble. Roo Code tells models to escape a file's
// marker lines so; a backslash line that is no marker stays as written.
func unescapeMarkers(text string) string {
	if !strings.HasPrefix(text, "\\") && !strings.Contains(text, "\n\\") {
		return text
	}
	var b strings.Builder
	changed := false
	for line := range strings.Lines(text) {
		if escapedMarker(line) {
			line = line[1:]
			changed = true
		}
		b.WriteString(line)
	}
	if !changed {
		return text
	}
	return b.String()
}

// escapedMarker reports whether line is a backslash at column 0 followed by
// a line the block reader would take as its own syntax.
func escapedMarker(line string) bool {
	if !strings.HasPrefix(line, "\\") {
		return false
	}
	s := strings.TrimRight(line[1:], "\r\n")
	if s == "" || s[0] == ' ' {
		return false
	}
	for _, c := range []byte("<=>-+") {
		if _, _, ok := srMarker(s, c); ok {
			return true
		}
	}
	if isSearchOpener(s) || closesLevel(s) {
		return true
	}
	return strings.HasPrefix(s, ":start_line:") || strings.HasPrefix(s, ":end_line:")
}

// srBlock scans the block whose opening marker is line open, up to line
// stop, for its depth-one divider candidates and its closing marker, the
// '>' line that brings the nesting back to zero (-1 if none before stop).
// In a block whose opener's run is not of the usual five to nine, a
// looseDivider is a candidate too.
func srBlock(p *parser, open, stop int) (divs []int, closeAt int) {
	depth := 1
	loose := !standardRun(openerRun(p.lines[open].text))
	for j := open + 1; j < stop; j++ {
		t := p.lines[j].text
		if opensLevel(t) {
			depth++
		} else if _, ok := isDivider(t); (ok || loose && looseDivider(t)) && depth == 1 {
			divs = append(divs, j)
		} else if closesLevel(t) {
			if depth--; depth == 0 {
				return divs, j
			}
		}
	}
	return divs, -1
}

// markUnclosed records, by one pass from the unclosed opener at line i to
// the end, which '<' markers after it are never closed: those left on the
// stack when '>' markers pop their nearest open '<'.
func (p *parser) markUnclosed(i int) {
	if p.sr.unclosed != nil {
		return
	}
	stack := []int{i}
	for j := i + 1; j < len(p.lines); j++ {
		t := p.lines[j].text
		if opensLevel(t) {
			stack = append(stack, j)
		} else if closesLevel(t) && len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
	}
	p.sr.unclosed = make(map[int]bool, len(stack))
	for _, j := range stack {
		p.sr.unclosed[j] = true
	}
}

// pickDivider chooses the divider among the depth-one candidates divs of
// the block whose opener is line open and whose closer is line close, for
// the file pth, or explains why none can be chosen. After the marker
// lengths (seven '=', then the opener's length), the file decides: the
// only split whose SEARCH occurs in it exactly once. Without the file (no
// tree, a new file) or when it cannot tell, the block's own shape may:
// with 2k+1 candidates, the middle one splits when the k before it stand
// at the same places in SEARCH as the k after it in REPLACE, as a file's
// own "=======" lines (a setext underline) kept as context do.
func pickDivider(p *parser, divs []int, openN, open, close int, pth string) (int, string) {
	if len(divs) == 1 {
		return divs[0], ""
	}
	if len(divs) == 0 {
		return 0, "SEARCH/REPLACE block has no ======= divider"
	}
	// Seven wins among the usual lengths, then the opener's. A block of
	// unusual markers gives no length such weight: a model that writes
	// them writes dividers of any length, and only the file or the
	// block's shape may tell its divider from the text's underlines.
	wants := []int{7, openN}
	if !standardRun(openN) {
		wants = nil
	}
	for _, want := range wants {
		var same []int
		for _, d := range divs {
			if n := len(strings.TrimSpace(p.lines[d].text)); n == want {
				same = append(same, d)
			}
		}
		if len(same) == 1 {
			return same[0], ""
		}
		if len(same) > 1 {
			divs = same
			break
		}
	}
	if d, ok := p.dividerByFile(divs, open, pth); ok {
		return d, ""
	}
	if d, ok := p.dividerBySymmetry(divs, open, close); ok {
		return d, ""
	}
	nums := make([]string, len(divs))
	for k, d := range divs {
		nums[k] = strconv.Itoa(lineNum(d))
	}
	return 0, "ambiguous SEARCH/REPLACE block: the dividers at lines " + strings.Join(nums, ", ") + " could each split it"
}

// maxDividerTries bounds the splits tried against a file, so that a block
// of a thousand "=======" lines costs no more than a few searches.
const maxDividerTries = 32

// dividerByFile returns the only divider among divs whose SEARCH (from the
// line after open up to it) occurs exactly once in the file pth.
func (p *parser) dividerByFile(divs []int, open int, pth string) (int, bool) {
	if pth == "" || len(divs) > maxDividerTries {
		return 0, false
	}
	text, ok := p.treeText(pth)
	if !ok || !p.spend(len(divs)*len(text)) {
		return 0, false
	}
	found, n := 0, 0
	for _, d := range divs {
		old := strings.ReplaceAll(p.text[p.lineEnd(open):p.lines[d].start], "\r\n", "\n")
		if old == "" {
			continue
		}
		if k := strings.Index(text, old); k >= 0 && !strings.Contains(text[k+1:], old) {
			found, n = d, n+1
		}
	}
	// The file vouches for the candidates in SEARCH, which it holds; one
	// left in REPLACE would be written unchecked, and is more likely a
	// divider written twice than a line of the file.
	return found, n == 1 && found == divs[len(divs)-1]
}

// dividerBySymmetry returns the middle of 2k+1 candidate dividers when the
// k before it sit at the same line offsets in SEARCH, and with the same
// text, as the k after it do in REPLACE, counted from the start of each
// side or from the end. No other split can be symmetric, as the sides would
// hold different numbers of candidates.
func (p *parser) dividerBySymmetry(divs []int, open, close int) (int, bool) {
	if len(divs)%2 == 0 {
		return 0, false
	}
	k := len(divs) / 2
	mid := divs[k]
	before, after := divs[:k], divs[k+1:]
	same := func(fromEnd bool) bool {
		for j := range before {
			a, b := before[j]-(open+1), after[j]-(mid+1)
			if fromEnd {
				a, b = mid-before[j], close-after[j]
			}
			if a != b || p.lines[before[j]].text != p.lines[after[j]].text {
				return false
			}
		}
		return true
	}
	return mid, same(false) || same(true)
}

// blockPath finds the file of the block opening at line i and the first
// line of its region: the nearest non-blank line before the opener if it is
// a path (diff-fenced, or no fence at all); else, when that line opens a
// fence, a path in its info string or on the nearest non-blank line before
// it; else the previous block's file, with the region starting at i.
func (p *parser) blockPath(i int) (string, int) {
	if pth, from, ok := p.pathBefore(i, true); ok {
		return pth, from
	}
	// The fence may close the previous block rather than open this one,
	// so it is not claimed.
	return p.lastPath, i
}

// pathBefore finds a path named just before the region whose first line
// is i: on the nearest non-blank line before it, or, when that line opens a
// fence, in the fence's info string or on the nearest non-blank line before
// the fence. It returns the path and the line where the region starts.
// prose admits a line of prose naming one backticked path ("In `a.py`:"),
// for readers whose region is unmistakable on its own (SEARCH/REPLACE,
// hunks), unlike a bare fence.
func (p *parser) pathBefore(i int, prose bool) (string, int, bool) {
	j := p.prevNonBlank(i)
	if j < 0 {
		return "", i, false
	}
	if pth, from, ok := p.toolTagPath(j); ok {
		return pth, from, true
	}
	if pth, ok := p.pathLineAt(p.lines[j].text, prose); ok {
		return pth, j, true
	}
	f, ok := parseFence(p.lines[j].text)
	if !ok && !isSourceOpen(p.lines[j].text) {
		return "", i, false
	}
	if pth, ok := f.infoPath(); ok {
		return pth, j, true
	}
	k := p.prevNonBlank(j)
	if k < 0 {
		return "", i, false
	}
	if pth, ok := p.pathLineAt(p.lines[k].text, prose); ok {
		return pth, k, true
	}
	// The name alone in a small fence of its own, closed right before the
	// block's fence opens (a DeepSeek habit): "```" / "a.py" / "```".
	if g, ok := parseFence(p.lines[k].text); ok && k >= 2 {
		if o, ok := parseFence(p.lines[k-2].text); ok && g.closes(o) {
			if pth, ok := p.pathLineAt(p.lines[k-1].text, false); ok {
				return pth, k - 2, true
			}
		}
	}
	return "", i, false
}

// toolTagPath reads the path of a block written inside Cline's or Roo
// Code's XML tool call, whose line j, the nearest before the block, opens
// its diff:
//
//	<replace_in_file>
//	<path>src/app.ts</path>
//	<diff>
//	------- SEARCH
//
// (Roo's apply_diff may nest <file>, <diff> and <content><![CDATA[ between
// them). Up to a few lines of only such opening tags may stand between the
// <path> line and the block; the closing tags after it are prose. The path
// is the tag's text, and the region starts at its line.
func (p *parser) toolTagPath(j int) (string, int, bool) {
	for k := j; k >= 0 && k > j-4; k-- {
		t := strings.TrimSpace(p.lines[k].text)
		if inner, ok := strings.CutPrefix(t, "<path>"); ok {
			inner, ok = strings.CutSuffix(inner, "</path>")
			if c, okc := cleanDelimitedPath(inner); ok && okc && !strings.ContainsAny(c, "<>") && k < j {
				return tidyPath(c), k, true
			}
			return "", 0, false
		}
		if !openingTags(t) {
			return "", 0, false
		}
	}
	return "", 0, false
}

// openingTags reports whether t is nothing but opening XML tags ("<diff>",
// "<content><![CDATA[").
func openingTags(t string) bool {
	if t == "" {
		return false
	}
	for t != "" {
		if rest, ok := strings.CutPrefix(t, "<![CDATA["); ok {
			t = strings.TrimSpace(rest)
			continue
		}
		if len(t) < 3 || t[0] != '<' {
			return false
		}
		end := strings.IndexByte(t, '>')
		if end < 2 {
			return false
		}
		for _, c := range t[1:end] {
			if !(c >= 'a' && c <= 'z' || c == '_') {
				return false
			}
		}
		t = strings.TrimSpace(t[end+1:])
	}
	return true
}

// isSourceOpen reports whether s opens Aider's "<source>" fence, which it
// uses instead of backticks when the files hold triple backticks:
// "<source>" or "<source>python". Its "</source>" after the block is prose.
func isSourceOpen(s string) bool {
	t, ok := strings.CutPrefix(strings.TrimSpace(s), "<source>")
	return ok && !strings.ContainsAny(t, " \t<>`")
}

// pathLineAt is pathLine, and also accepts a line that is one backticked
// path holding spaces ("`my docs/read me.py`"), a bare name that the tree
// holds ("gradlew"), and, with prose, a line of prose that introduces what
// follows (it ends in a colon or in the path) and names one backticked
// path ("In `a.py`:", "Edit `a.py` as follows:", "**File: `a.py`**").
func (p *parser) pathLineAt(s string, prose bool) (string, bool) {
	if pth, ok := pathLine(s); ok {
		return pth, true
	}
	if _, ok := parseFence(s); ok {
		return "", false
	}
	t := strings.TrimSpace(s)
	if c, ok := cleanPath(t); ok && nameChars(c) && p.treeStat(c).entry {
		return c, true
	}
	if c, ok := cleanDelimitedPath(t); ok && strings.Contains(c, " ") && len(c) <= 160 &&
		nameChars(strings.ReplaceAll(c, " ", "")) && looksLikeFile(c) && p.treeStat(c).entry {
		return c, true // "my docs/read me.py", which the tree holds
	}
	if strings.Count(t, "`") != 2 || len(t) > 160 {
		return "", false
	}
	a := strings.IndexByte(t, '`')
	b := a + 1 + strings.IndexByte(t[a+1:], '`')
	tok := t[a+1 : b]
	whole := strings.Trim(t[:a], "*#-:> \t") == "" && strings.Trim(t[b+1:], "*: \t") == ""
	// Prose introduces the block that follows: it ends in a colon, or
	// the path ends it ("**File: `a.py`**").
	intro := strings.HasSuffix(strings.TrimRight(t, "*_ \t"), ":") || strings.Trim(t[b+1:], "*_.: \t") == ""
	if !whole && !(prose && intro) {
		return "", false
	}
	if tok != strings.TrimSpace(tok) || strings.Contains(tok, "  ") {
		return "", false
	}
	if strings.ContainsAny(tok, " ") {
		if !whole {
			return "", false
		}
		if c, ok := cleanDelimitedPath(tok); ok && (looksLikeFile(c) || p.treeStat(c).entry) && !strings.ContainsAny(c, "\t{};=,!?$&()") {
			return tidyPath(c), true
		}
		return "", false
	}
	if c, ok := filePath(tok); ok {
		return c, true
	}
	if c, ok := cleanPath(tok); ok && nameChars(c) && p.treeStat(c).entry {
		return c, true
	}
	return "", false
}

// nameChars reports whether s holds only the characters of a plain file
// name or path: letters, digits and "._-+@/".
func nameChars(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+@/", r)) {
			return false
		}
	}
	return s != ""
}

// prevNonBlank returns the index of the nearest non-blank line before i,
// looking back at most a few blank lines, or -1.
func (p *parser) prevNonBlank(i int) int {
	for j, k := i-1, 0; j >= 0 && k < 3; j, k = j-1, k+1 {
		if strings.TrimSpace(p.lines[j].text) != "" {
			return j
		}
	}
	return -1
}

// pathLine reports whether a whole line names a file, as models write one
// above a block: "src/a.go", "./a.go", "`a.go`", "**a.go**", "a.go:",
// "### a.go", "- a.go", "1. a.go", "File: a.go", "a.go (new file)". Prose never qualifies: a path has no
// spaces and looks like a file (see looksLikeFile).
func pathLine(s string) (string, bool) {
	if _, ok := parseFence(s); ok {
		return "", false // a fence's info string is read by fence.infoPath
	}
	s = strings.TrimSpace(s)
	if t := strings.TrimLeft(s, "#"); t != s && strings.HasPrefix(t, " ") {
		s = strings.TrimSpace(t)
	}
	if strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") {
		s = strings.TrimSpace(s[2:])
	} else if k := strings.Index(s, ". "); k > 0 && k <= 3 && strings.Trim(s[:k], "0123456789") == "" {
		s = strings.TrimSpace(s[k+2:]) // "1. src/a.go"
	}
	if k := strings.LastIndex(s, " ("); k > 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[:k]) // "src/a.go (new file)"
	}
	for _, pre := range pathLabels {
		if len(s) > len(pre) && strings.EqualFold(s[:len(pre)], pre) {
			s = strings.TrimSpace(s[len(pre):])
			break
		}
	}
	return filePath(s)
}

// pathLabels are the labels that may come before a path on its line, in
// the order pathLine tries them.
var pathLabels = []string{
	"file:", "**file:**", "**file**:", "*file:*",
	"filename:", "**filename:**", "**filename**:", "*filename:*",
	"path:", "**path:**", "**path**:", "*path:*",
	"file path:", "**file path:**", "**file path**:", "*file path:*",
}

// filePath cleans a candidate path token and accepts it only when it looks
// like a file.
func filePath(s string) (string, bool) {
	explicit := strings.HasPrefix(strings.Trim(s, "`*\"'"), "./")
	c, ok := cleanPath(s)
	if !ok || !(explicit || looksLikeFile(c)) || strings.Contains(c, "://") {
		return "", false
	}
	return tidyPath(c), true
}

// isExtensionless reports whether name is one of the usual files that
// have no extension, so that a line holding only "Makefile" counts as a
// path.
func isExtensionless(name string) bool {
	switch name {
	case "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile",
		"Jenkinsfile", "Procfile", "Gemfile", "Rakefile", "Vagrantfile",
		"Justfile", "justfile", "Brewfile", "Pipfile", "LICENSE", "README",
		"CODEOWNERS", "AUTHORS", "CONTRIBUTORS", "PATENTS", "VERSION", "BUILD",
		"WORKSPACE", "OWNERS", "NOTICE", "CHANGELOG", "gradlew", "mvnw",
		"Caddyfile", "Tiltfile", "Snakefile", "Earthfile", "Podfile", "Fastfile",
		"Appfile", "Dangerfile", "Guardfile", "Capfile", "Berksfile",
		"Puppetfile", "Cartfile", "Kptfile", "Taskfile":
		return true
	}
	return false
}

// looksLikeFile reports whether a cleaned, space-free token names a file
// rather than a word of prose ("Done.", "Next:", "e.g.", "f()"): it has a
// directory, an extension holding a letter, is a dot file, or is a common
// extensionless name.
func looksLikeFile(s string) bool {
	if strings.ContainsAny(s, "{};=,!?$&") {
		return false
	}
	base := s[strings.LastIndexByte(s, '/')+1:]
	if strings.ContainsAny(s, "()") && !strings.Contains(s, "/") {
		return false // a call, "f()", not a Next.js "(group)/page.tsx"
	}
	if isExtensionless(base) {
		return true
	}
	dot := strings.LastIndexByte(base, '.')
	if dot >= 0 && dot < len(base)-1 {
		ext := base[dot+1:]
		letter := false
		for _, r := range ext {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
				letter = true
			case r >= '0' && r <= '9', r == '_', r == '-', r == '+', r == '~':
			default:
				return false
			}
		}
		if letter {
			return true
		}
	}
	return strings.Contains(s, "/") && base != "" && !strings.HasSuffix(base, ".")
}

// srLike reports whether s is a SEARCH/REPLACE marker of any dialect, or a
// near miss of one: a line a fence holding it cannot be the file for.
func srLike(s string) bool {
	return opensLevel(s) || closesLevel(s) || nearMissMarker(s) != ""
}

// nearMissMarker returns the label of a line that was meant as a SEARCH or
// REPLACE marker but is not one ("<<-- SEARCH", "<<<<<<<<<<< SEARCH" of
// eleven, "<<<<<<<SEARCH", "--> REPLACE"): a run of at least two of
// '<', '>', '=', '-', '+', '!' then the label, alone on its line; "" for
// any other line, and for a marker that reads.
func nearMissMarker(s string) string {
	t := strings.TrimSpace(s)
	k := 0
	for k < len(t) && strings.IndexByte("<>=-+!", t[k]) >= 0 {
		k++
	}
	if k < 2 || k == len(t) {
		return ""
	}
	label := strings.TrimSuffix(strings.TrimSpace(t[k:]), ">")
	label = strings.TrimSpace(strings.TrimRight(label, "<>=-+!"))
	switch strings.ToUpper(label) {
	case "SEARCH", "REPLACE":
	default:
		return ""
	}
	if isSearchOpener(s) || closesLevel(s) {
		return ""
	}
	return label
}

// A nearMissReader refuses a block whose markers do not read: its opener
// is a near miss. Read as prose its lines would be lost, or, inside a fence
// under a path, written as the file; so the block is a PARSE_ERROR that
// names the line, and its lines up to its closer (of any spelling) are
// consumed.
type nearMissReader struct{ p *parser }

func (r *nearMissReader) format() edit.Format { return edit.FormatSearchReplace }

func (r *nearMissReader) starts(i int) bool {
	return strings.EqualFold(nearMissMarker(r.p.lines[i].text), "search")
}

func (r *nearMissReader) read(i int) int {
	p := r.p
	p.errorHint(lineNum(i), "Write the markers exactly: <<<<<<< SEARCH, =======, >>>>>>> REPLACE, each alone on its line.",
		"%q is not a SEARCH/REPLACE marker", strings.TrimSpace(p.lines[i].text))
	for j := i + 1; j < len(p.lines); j++ {
		t := p.lines[j].text
		if isSearchOpener(t) || strings.EqualFold(nearMissMarker(t), "search") {
			return j
		}
		if closesLevel(t) || nearMissMarker(t) != "" {
			return j + 1
		}
	}
	return i + 1
}
