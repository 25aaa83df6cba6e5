package syntax

import (
	"strconv"
	"strings"
)

// SEARCH/REPLACE blocks: their marker lines, how the nesting of markers
// inside a block finds its divider and its closer, Roo Code's preamble,
// and the backslash that keeps a file's own marker line text.

// marker reports whether s is a marker line of 5–9 c's, optionally
// followed by a space and a label, and returns the run length and label.
// Up to three spaces of indentation are allowed, as for a Markdown fence,
// because models indent blocks inside list items.
func marker(s string, c byte) (n int, label string, ok bool) {
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

// IsSearchOpener reports whether s opens a block: Aider's "<<<<<<< SEARCH"
// (also written "<<<<<<< SEARCH>") or Cline's "------- SEARCH", of any run
// length labelledRun allows.
func IsSearchOpener(s string) bool {
	_, label, ok := marker(s, '<')
	return ok && (isSearchLabel(strings.ToLower(strings.TrimSuffix(label, ">"))) || lineHintLabel(label) > 0) || isClineOpener(s) ||
		labelledRun(s, '<', "search") > 0
}

// OpenerLineHint returns the line Zed's opener "<<<<<<< SEARCH line=42"
// names (also written line="42"), 0 for any other line.
func OpenerLineHint(s string) int {
	_, label, ok := marker(s, '<')
	if !ok {
		return 0
	}
	return lineHintLabel(label)
}

// lineHintLabel returns N for an opener's label "SEARCH line=N", 0 for
// any other.
func lineHintLabel(label string) int {
	word, rest, ok := strings.Cut(label, " ")
	if !ok || !strings.EqualFold(word, "search") {
		return 0
	}
	num, ok := strings.CutPrefix(strings.TrimSpace(rest), "line=")
	if !ok {
		return 0
	}
	if len(num) > 2 && num[0] == '"' && num[len(num)-1] == '"' {
		num = num[1 : len(num)-1]
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || strings.HasPrefix(num, "+") {
		return 0
	}
	return n
}

// isClineOpener reports whether s is Cline's "------- SEARCH". Unlike '<',
// a run of dashes needs its label: alone it is a Markdown rule.
func isClineOpener(s string) bool {
	_, label, ok := marker(s, '-')
	return ok && label != "" && isSearchLabel(strings.ToLower(label)) || labelledRun(s, '-', "search") > 0
}

// OpensLevel reports whether s opens a level of nesting inside a block:
// any '<' marker (a block, a git conflict) or another spelling of a
// block's opener (Cline's, a labelled run of any length).
func OpensLevel(s string) bool {
	_, _, ok := marker(s, '<')
	return ok || isClineOpener(s) || labelledRun(s, '<', "search") > 0
}

// ClosesLevel reports whether s closes a level: any '>' marker, or
// Cline's "+++++++ REPLACE", or a REPLACE marker of any run length
// labelledRun allows.
func ClosesLevel(s string) bool {
	if _, _, ok := marker(s, '>'); ok {
		return true
	}
	_, label, ok := marker(s, '+')
	return ok && strings.EqualFold(strings.TrimSuffix(label, ">"), "replace") ||
		labelledRun(s, '>', "replace") > 0 || labelledRun(s, '+', "replace") > 0
}

// IsReplaceCloser reports whether s closes a block by name: a '>'
// marker labelled REPLACE (or Aider's old UPDATED), or Cline's
// "+++++++ REPLACE", of any run length ClosesLevel allows. An unlabelled
// '>' marker, or one naming a branch, may close a git conflict instead.
func IsReplaceCloser(s string) bool {
	if _, label, ok := marker(s, '>'); ok {
		switch strings.ToLower(strings.TrimSuffix(label, ">")) {
		case "replace", "updated":
			return true
		}
	}
	return ClosesLevel(s) && !strings.HasPrefix(strings.TrimLeft(s, " "), ">") ||
		labelledRun(s, '>', "replace") > 0
}

// labelledRun returns the length of s's run of c when s is a marker of
// Cline's reading: a run of at least three c's, a space, and the word (any
// case, a stray '>' after it allowed), alone on its line but for
// marker's indentation; 0 otherwise. Cline reads markers of any length
// so; the word makes the line a marker, so a run outside marker's five
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

// OpenerRun returns the run length of the block opener s, of any spelling.
func OpenerRun(s string) int {
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

// standardRun reports whether a marker's run has marker's length.
func standardRun(n int) bool { return n >= 5 && n <= 9 }

// looseDivider reports whether s is a line of only '=', three at least, of
// a length marker does not read. It may divide only a block whose own
// opener is of such a length (Cline writes eleven '<' over ten '='): in a
// block of the usual markers, a long run of '=' is a Markdown or RST
// underline.
func looseDivider(s string) bool {
	t := strings.TrimRight(strings.TrimLeft(s, " "), " \t")
	return len(t) >= 3 && len(s)-len(strings.TrimLeft(s, " ")) <= 3 && strings.Trim(t, "=") == "" && !standardRun(len(t))
}

// SearchStart returns the line of lines where the SEARCH text of the block opening
// at line open begins, and the line hint Roo Code writes before it:
// ":start_line:N" (and ":end_line:M") lines, N also written "[N]", then a
// "-------" line. They
// are the tool's syntax, never the file's text; without them, or without
// the dash line after them, the SEARCH text begins on the line after the
// opener.
func SearchStart(lines []Line, open, stop int) (from, hint int) {
	k := open + 1
	for ; k < stop; k++ {
		t := strings.TrimSpace(lines[k].Text)
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
	if k == open+1 || k >= stop || !isRooSeparator(lines[k].Text) {
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
	_, label, ok := marker(s, '-')
	return ok && label == ""
}

// StartsWithPreamble reports whether text, as a block's SEARCH, would be
// read as beginning with Roo's preamble rather than as the file's lines.
func StartsWithPreamble(text string) bool {
	if !strings.HasPrefix(text, ":") {
		return false
	}
	lines := SplitLines("<<<<<<< SEARCH\n" + text)
	from, _ := SearchStart(lines, 0, len(lines))
	return from > 1
}

func isDivider(s string) (int, bool) {
	n, _, ok := marker(s, '=')
	return n, ok
}

// UnescapeMarkers drops the backslash before each line of text that would
// otherwise read as one of the block's own lines: a marker ("=======",
// "<<<<<<< SEARCH", ">>>>>>> REPLACE", "-------", "+++++++ REPLACE") or
// Roo's ":start_line:" preamble. Roo Code tells models to escape a file's
// marker lines so; a backslash line that is no marker stays as written.
func UnescapeMarkers(text string) string {
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
		if _, _, ok := marker(s, c); ok {
			return true
		}
	}
	if IsSearchOpener(s) || ClosesLevel(s) {
		return true
	}
	return strings.HasPrefix(s, ":start_line:") || strings.HasPrefix(s, ":end_line:")
}

// mayBeMarker reports whether s may be a marker line of any spelling
// OpensLevel, ClosesLevel, isDivider and looseDivider read: each wants,
// after at most three spaces, a run of one of the bytes markers are made
// of. A block's text lines are told so once, not by every spelling in
// turn.
func mayBeMarker(s string) bool {
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	return s != "" && strings.IndexByte("<=>+-", s[0]) >= 0
}

// ScanBlock scans the block whose opening marker is line open of lines,
// up to line stop, for its depth-one divider candidates and its closing marker, the
// '>' line that brings the nesting back to zero (-1 if none before stop).
// In a block whose opener's run is not of the usual five to nine, a
// looseDivider is a candidate too.
func ScanBlock(lines []Line, open, stop int) (divs []int, closeAt int) {
	depth := 1
	loose := !standardRun(OpenerRun(lines[open].Text))
	for j := open + 1; j < stop; j++ {
		t := lines[j].Text
		if !mayBeMarker(t) {
			continue
		}
		if OpensLevel(t) {
			depth++
		} else if _, ok := isDivider(t); (ok || loose && looseDivider(t)) && depth == 1 {
			divs = append(divs, j)
		} else if ClosesLevel(t) {
			if depth--; depth == 0 {
				return divs, j
			}
		}
	}
	return divs, -1
}

// PickDivider chooses the divider among the depth-one candidates divs of
// the block of lines whose opener, of run openN, is line open and whose
// closer is line close. After the marker lengths (seven '=', then the
// opener's length), the file decides: byFile, if not nil, returns the
// only split among the candidates left whose SEARCH occurs in the file
// exactly once. Without the file (no tree, a new file) or when it cannot
// tell, the block's own shape may: with 2k+1 candidates, the middle one
// splits when the k before it stand at the same places in SEARCH as the k
// after it in REPLACE, as a file's own "=======" lines (a setext
// underline) kept as context do. When none can be chosen, tied holds the
// candidates left, none when divs is empty.
func PickDivider(lines []Line, divs []int, openN, open, close int, byFile func(divs []int) (int, bool)) (div int, tied []int, ok bool) {
	if len(divs) == 1 {
		return divs[0], nil, true
	}
	if len(divs) == 0 {
		return 0, nil, false
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
			if n := len(strings.TrimSpace(lines[d].Text)); n == want {
				same = append(same, d)
			}
		}
		if len(same) == 1 {
			return same[0], nil, true
		}
		if len(same) > 1 {
			divs = same
			break
		}
	}
	if byFile != nil {
		if d, ok := byFile(divs); ok {
			return d, nil, true
		}
	}
	if d, ok := dividerBySymmetry(lines, divs, open, close); ok {
		return d, nil, true
	}
	return 0, divs, false
}

// dividerBySymmetry returns the middle of 2k+1 candidate dividers when the
// k before it sit at the same line offsets in SEARCH, and with the same
// text, as the k after it do in REPLACE, counted from the start of each
// side or from the end. No other split can be symmetric, as the sides would
// hold different numbers of candidates.
func dividerBySymmetry(lines []Line, divs []int, open, close int) (int, bool) {
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
			if a != b || lines[before[j]].Text != lines[after[j]].Text {
				return false
			}
		}
		return true
	}
	return mid, same(false) || same(true)
}

// EscapeMarkers puts a backslash before each line of text that the block
// reader would take as its own syntax, the lines UnescapeMarkers gives back
// without it.
func EscapeMarkers(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if escapedMarker("\\" + line) {
			b.WriteByte('\\')
		}
		b.WriteString(line)
	}
	return b.String()
}
