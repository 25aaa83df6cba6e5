package locate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
)

// Every message of locate's errors, hints and notes is worded here.

// words are the names the ladder's messages give an edit's parts, in the
// words of the format it was written in: a model that sent a tool call
// reads about old_string, one that sent a diff about its hunk, context and
// - lines, one that sent a block about its SEARCH and REPLACE text. The
// messages are built with them, so that text quoted from the file or the
// edit is never reworded.
type words struct {
	old      string // the old text opening a message: "SEARCH text not found"
	theOld   string // the old text inside a sentence: "change the SEARCH text"
	TheOld   string // the old text opening a sentence: "The SEARCH text occurs"
	noLineOf string // "No line of the SEARCH text resembles"
	side     string // the old text beside the file's: "the file has x, the SEARCH has y"
	oldLine  string // a line of the old text, before its number: "SEARCH line 3"
	new      string // the new text opening a message: "REPLACE text elides"
	theNew   string // the new text inside a sentence: "the REPLACE text does not keep"
	widen    string // how to make the old text unique: "Add neighbouring lines to the SEARCH text"
	changes  string // how to send a change: "Send SEARCH/REPLACE blocks for the lines that change"
}

// everyHint ends a hint about e's old text found in n places (0: more
// than were counted): how to change every one, with the argument e's tool
// call names for it; empty for an edit whose format has none.
func everyHint(e *edit.Edit, n int) string {
	if e == nil || e.Format != edit.FormatJSON {
		return ""
	}
	switch e.EveryKey {
	case "":
		return ""
	case "expected_replacements":
		if n == 0 {
			return ` To change every occurrence, set "expected_replacements" to their number.`
		}
		return fmt.Sprintf(` To change every occurrence, set "expected_replacements": %d.`, n)
	}
	return fmt.Sprintf(` To change every occurrence, set %q: true.`, e.EveryKey)
}

var (
	blockWords = &words{
		old: "SEARCH text", theOld: "the SEARCH text", TheOld: "The SEARCH text",
		noLineOf: "No line of the SEARCH text", side: "the SEARCH", oldLine: "SEARCH line",
		new: "REPLACE text", theNew: "the REPLACE text",
		widen:   "Add neighbouring lines to the SEARCH text",
		changes: "Send SEARCH/REPLACE blocks for the lines that change",
	}
	toolCallWords = &words{
		old: "old_string", theOld: "old_string", TheOld: "old_string",
		noLineOf: "No line of old_string", side: "old_string", oldLine: "old_string line",
		new: "new_string", theNew: "the new_string",
		widen:   "Add neighbouring lines to old_string",
		changes: "Send the lines that change as old_string, their new text as new_string",
	}
	hunkWords = &words{
		old: "hunk's context and - lines", theOld: "the hunk's context and - lines", TheOld: "The hunk's context and - lines",
		noLineOf: "No context or - line of the hunk", side: "the hunk", oldLine: "hunk line",
		new: "hunk's + lines", theNew: "the hunk's + lines",
		widen:   "Add context lines to the hunk",
		changes: "Send hunks whose context and - lines quote the lines that change",
	}
)

// wordsOf returns the words of the format e was written in, with the
// names its reply gave its texts (edit.Edit.Names); an edit of another
// format or of none, or no edit (nil), is told in a block's.
func wordsOf(e *edit.Edit) *words {
	if e == nil {
		return blockWords
	}
	if e.Names != nil {
		return namedWords(e.Names.Old, e.Names.New, e.Format == edit.FormatJSON)
	}
	switch e.Format {
	case edit.FormatJSON:
		return toolCallWords
	case edit.FormatUDiff, edit.FormatCodex:
		return hunkWords
	}
	return blockWords
}

// namedWords are the words of a reply that named its old text old and
// its new text nw ("" when it gave none: new_string), a tool call's
// arguments when call is set, else tags (Zed's <old_text>), which are
// read as the text they hold.
func namedWords(old, nw string, call bool) *words {
	if nw == "" {
		nw = "new_string"
	}
	the, The := "", ""
	if !call {
		the, The = "the ", "The "
	}
	w := &words{
		old: old, theOld: the + old, TheOld: The + old,
		noLineOf: "No line of " + the + old, side: the + old, oldLine: old + " line",
		new: nw, theNew: "the " + nw,
		widen:   "Add neighbouring lines to " + the + old,
		changes: "Send the lines that change as " + old + ", their new text as " + nw,
	}
	if !call {
		w.changes = "Send the lines that change in " + old + ", their new text in " + nw
	}
	return w
}

// The notes a rung or a rescue leaves in the receipt, saying how it read
// the edit.
const (
	noteCutFirstLine = "the old text began after its first line's indentation and its other lines were shifted from the file's; it was matched re-indented: quote lines as the file indents them"
	noteLineNumbers  = "the old text carried a read's line-number prefixes; they were stripped: send the file's text without them"
	noteUnescaped    = "the old text was escaped twice (\\n as two characters); it was unescaped once: send the characters themselves"
	noteBlankEdges   = "the old text began or ended with blank lines the file does not have there; they were left out: quote only lines the file has"
	noteSpacing      = `the old text's blanks beside punctuation differ from the file's ("f( a, b )" for "f(a, b)"); it was matched without them: quote lines as the file spaces them`
	noteTypography   = "the old text wrote the file's ASCII punctuation as typography (’ for '); the new lines were written with the file's ASCII: send punctuation as the file has it"
)

// noteEdgeDropped notes a hunk placed though its context at its where
// ("top", "bottom") leaves out the file's line.
func noteEdgeDropped(where string, line int) string {
	return fmt.Sprintf("the hunk's context at its %s leaves out the file's line %d; the hunk was placed by its other lines and the file's lines kept: copy context lines as the file has them", where, line)
}

// noteEdgeBlank notes a hunk placed though its context at its where has a
// blank line the file does not have beside its line.
func noteEdgeBlank(where string, line int) string {
	return fmt.Sprintf("the hunk's context at its %s has a blank line the file does not have beside its line %d; the hunk was placed by its other lines and the file's lines kept: copy context lines as the file has them", where, line)
}

// noteEdgeDiffers notes a hunk placed though its context line hunkLine at
// its where differs from the file's line, fileLine.
func noteEdgeDiffers(hunkLine, where string, line int, fileLine string) string {
	return fmt.Sprintf("the hunk's context line `%s` at its %s differs from the file's line %d, `%s`; the hunk was placed by its other lines and the file's line kept: copy context lines as the file has them",
		clip(strings.TrimSpace(hunkLine)), where, line, clip(strings.TrimSpace(fileLine)))
}

// noteFirst is hint after note, which opens it as a sentence.
func noteFirst(note, hint string) string { return upperFirst(note) + ". " + hint }

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// errNewElides is the ELIDED of a new text whose line j (1-based), line,
// is a placeholder for code the old text does not elide.
func errNewElides(w *words, j int, line string) *edit.Error {
	return &edit.Error{Code: edit.CodeElision,
		Msg: fmt.Sprintf("%s elides code with a placeholder at its line %d: `%s`", w.new, j, strings.TrimSpace(line)),
		Hint: "Write out every line the replacement keeps instead of a placeholder comment, or put the same placeholder at the same place in " +
			w.theOld + "."}
}

// errGapNotKept is the ELIDED of an old text's line i (1-based), line, a
// placeholder the new text does not keep.
func errGapNotKept(w *words, i int, line string) *edit.Error {
	return &edit.Error{Code: edit.CodeElision,
		Msg:  fmt.Sprintf("%s %d is a placeholder %s does not keep: `%s`", w.oldLine, i, w.theNew, strings.TrimSpace(line)),
		Hint: "Put the same placeholder line at the corresponding place in " + w.theNew + ", or write out the lines it skips."}
}

// errNotFound is the NO_MATCH of an old text found nowhere.
func errNotFound(w *words, hint string, cands []edit.Candidate) *edit.Error {
	return &edit.Error{Code: edit.CodeNoMatch, Msg: w.old + " not found", Hint: hint, Candidates: cands}
}

// errTooFew is the NO_MATCH of an old text found fewer times than the
// edit's count, want.
func errTooFew(w *words, found, want int, cands []edit.Candidate) *edit.Error {
	return &edit.Error{Code: edit.CodeNoMatch,
		Msg:        fmt.Sprintf("%s found %d times, expected %d", w.old, found, want),
		Hint:       fmt.Sprintf("%s occurs %d times; set the count to %d or change %s.", w.TheOld, found, found, w.theOld),
		Candidates: cands}
}

// errChangesNothing is the NO_MATCH of an edit whose text, as it stands,
// is what it would write, while a later edit changes the lines it quotes.
func errChangesNothing(w *words) *edit.Error {
	return &edit.Error{Code: edit.CodeNoMatch,
		Msg:  fmt.Sprintf("%s changes nothing, and a later edit of this reply changes the lines it quotes", w.old),
		Hint: "Leave this edit out: it changes nothing, and the later edit says what those lines become."}
}

// errMultiple is the MULTIPLE_MATCHES of an old text found at hits (all
// of them, if counted; else at least those), or overlapping itself there,
// where the edit's count is want; every ends the hint (see everyHint).
func errMultiple(w *words, hits []hit, counted, overlaps bool, want int, every string, cands []edit.Candidate) *edit.Error {
	return errMultipleOf(w, hits, len(hits), counted, overlaps, want, every, cands)
}

// errMultipleOf is errMultiple of total places, of which hits are the
// first (maxNamed+1 at least, when there are that many).
func errMultipleOf(w *words, hits []hit, total int, counted, overlaps bool, want int, every string, cands []edit.Candidate) *edit.Error {
	var msg string
	if overlaps {
		msg = w.old + " overlaps itself in the file"
	} else {
		n := fmt.Sprintf("%d", total)
		if !counted {
			n = fmt.Sprintf("at least %d", total)
		}
		msg = fmt.Sprintf("%s found %s times", w.old, n)
		if want > 1 {
			msg += fmt.Sprintf(", expected %d", want)
		}
	}
	hint := fmt.Sprintf("%s until it matches only one place (it matches lines %s).", w.widen, linesOf(hits))
	return &edit.Error{Code: edit.CodeMultipleMatches, Msg: msg, Hint: hint + every, Candidates: cands}
}

// errEdgesMultiple is the MULTIPLE_MATCHES of a hunk that, read without
// the context at one of its edges, fits at each of places.
func errEdgesMultiple(places []hit, cands []edit.Candidate) *edit.Error {
	return &edit.Error{Code: edit.CodeMultipleMatches,
		Msg: "hunk not found as written; without the context lines that differ from the file, it matches more than one place",
		Hint: fmt.Sprintf("Copy the context lines from the file as they are, enough of them that the hunk matches one place (without the ones that differ, it matches at lines %s).",
			linesOf(places)),
		Candidates: cands}
}

// maxNamed bounds the places whose lines linesOf names.
const maxNamed = 5

// linesOf lists the lines of the first five hits, and "…" for more.
func linesOf(hits []hit) string {
	var at []string
	for i, h := range hits {
		if i == maxNamed {
			at = append(at, "…")
			break
		}
		at = append(at, lineRange(h.first+1, h.last+1))
	}
	return strings.Join(at, ", ")
}

func lineRange(a, b int) string {
	if a == b {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d-%d", a, b)
}

// errAnchorNotFound is the NO_MATCH of an anchor line, t, the file lacks.
func errAnchorNotFound(t string) *edit.Error {
	return &edit.Error{Code: edit.CodeNoMatch,
		Msg:  fmt.Sprintf("anchor line not found: `%s`", t),
		Hint: "Use an @@ anchor line copied exactly from the file, above the lines to change, or leave it out."}
}

// errInsertPastEnd is the NO_MATCH of e, an insertion after a line the
// file, of lines lines, does not have. Line 0 means the top only to a
// text-editor insert: to Roo Code's insert_content it means the end.
func errInsertPastEnd(e *edit.Edit, after, lines int) *edit.Error {
	hint := "Re-read the file and give a line number it has."
	if e.Format == edit.FormatJSON {
		hint = "Re-read the file and give a line number it has (0 inserts at the top)."
	}
	return &edit.Error{Code: edit.CodeNoMatch,
		Msg:  fmt.Sprintf("cannot insert after line %d: the file has %d lines", after, lines),
		Hint: hint}
}

// errRestates is the FILE_EXISTS of a text to append that restates the
// file (see restates).
func errRestates(w *words) *edit.Error {
	return &edit.Error{Code: edit.CodeFileExists,
		Msg:  "the file exists, and the text to append to it restates it (it begins with the file's whole text, ends as the file does, or repeats most of its own lines from the file): a new version of the file, not an addition",
		Hint: w.changes + "; to replace the whole file, send it whole in a fence under its path."}
}

// errSomeNumbered is the NO_MATCH of a tool call whose old text carries a
// read's line numbers and whose new text has them on some lines only.
func errSomeNumbered(w *words, cands []edit.Candidate) *edit.Error {
	return &edit.Error{Code: edit.CodeNoMatch, Msg: w.old + " not found with its line-number prefixes",
		Hint:       upperFirst(noteLineNumbers) + "; the new text has them on some lines only, so it was not applied: send both without them.",
		Candidates: cands}
}

// errRewriteElides is the ELIDED of a rewrite whose line (0: unknown) is
// a placeholder for the file's code.
func errRewriteElides(line int) *edit.Error {
	msg := "rewrite elides existing code with a placeholder"
	if line > 0 {
		msg = fmt.Sprintf("%s (line %d)", msg, line)
	}
	return &edit.Error{Code: edit.CodeElision, Msg: msg,
		Hint: "Write out every line instead of a placeholder such as \"... existing code ...\", or use SEARCH/REPLACE blocks for just the lines that change."}
}

// errRewritePiece is the ELIDED of a tentative rewrite that is a piece of
// the file, not the whole file.
func errRewritePiece() *edit.Error {
	return remedy.Mark(&edit.Error{Code: edit.CodeElision,
		Msg:  "the fence under the path holds a piece of the file, not the whole file: as a rewrite it would delete the rest",
		Hint: "Send a SEARCH/REPLACE block for the part you changed, or every line of the file if the fence is meant to replace it whole."}, remedy.WholeFile)
}

// errBinary is the BINARY_FILE of an edit to content edapply does not
// edit as text. Its words are the caller's, which refuses such a file
// whatever the edit.
func errBinary() *edit.Error { return &edit.Error{Code: edit.CodeBinaryFile} }

// errTooLarge refuses an edit to a content of n bytes, more than the
// line index holds (maxContent).
func errTooLarge(n int) *edit.Error {
	return &edit.Error{Code: edit.CodeIO,
		Msg:  fmt.Sprintf("the file is too large to edit by its text: %d bytes, more than %d", n, maxContent),
		Hint: "Rewrite the file whole, or split it into smaller files."}
}

// errBadSplice reports a splice of the ladder's out of bounds or order in
// a text of n bytes, after offset last: a bug, reported, never written.
func errBadSplice(x Splice, last, n int) *edit.Error {
	return &edit.Error{Code: edit.CodeIO,
		Msg: fmt.Sprintf("internal error: invalid splice [%d:%d] after offset %d in %d bytes", x.At, x.end(), last, n)}
}

// hintNoLineAlike is the hint of a NO_MATCH when no line of the old text
// resembles one of the file's.
func hintNoLineAlike(w *words) string {
	return w.noLineOf + " resembles a line of the file; re-read the file and quote the lines to replace exactly as they stand."
}

// hintNothingClose is the hint of a NO_MATCH whose best candidate, best,
// is a weak one.
func hintNothingClose(w *words, best window) string {
	where := "lines " + lineRange(best.start+1, best.start+best.n)
	if best.n == 1 {
		where = fmt.Sprintf("line %d", best.start+1)
	}
	return fmt.Sprintf("Nothing in the file is close to %s (the closest, %s, is only %d%% similar): "+
		"it may not be in this file at all. Re-read the file and quote the lines to replace exactly as they stand.",
		w.theOld, where, int(best.sim*100))
}

// hintTied is the hint of a NO_MATCH whose best candidates, ws, are
// nearly alike: each is as close as the others, so none is named as the
// place to copy.
func hintTied(w *words, ws []window) string {
	var at []string
	for _, x := range ws {
		at = append(at, lineRange(x.start+1, x.start+x.n))
	}
	list := strings.Join(at[:len(at)-1], ", ") + " and " + at[len(at)-1]
	return fmt.Sprintf("%s resembles lines %s about equally (%d%%) and matches none of them well: "+
		"it may not be in this file. Re-read the file and quote the lines to replace exactly as they stand.",
		w.TheOld, list, int(ws[0].sim*100))
}

// hintAnchored tells of a, the block between the file's lines that stand
// for the old text's first and last.
func hintAnchored(w *words, a window) string {
	return fmt.Sprintf("The first and last lines of %s stand at lines %d and %d, with other lines between them: "+
		"to replace that block, quote lines %s as they stand.", w.theOld, a.start+1, a.start+a.n, lineRange(a.start+1, a.start+a.n))
}

// hintCopy is the hint for the best window w when no line of it differs
// from the old text's: copy its lines; past says the old text runs past
// the end of the file.
func hintCopy(wd *words, w window, past bool) string {
	if past {
		return fmt.Sprintf("%s runs past the end of the file after line %d. %s", wd.TheOld, w.start+w.n, copyLines(w))
	}
	return copyLines(w)
}

func copyLines(w window) string {
	if w.n == 1 {
		return fmt.Sprintf("Copy line %d exactly as it stands.", w.start+1)
	}
	return fmt.Sprintf("Copy lines %s exactly as they stand.", lineRange(w.start+1, w.start+w.n))
}

// hintLineDiffers is the hint for the best window w whose file line
// number line, fl, differs from the old text's, sl. A line that differs
// visibly is quoted; one that differs only in invisible characters is
// named and shown escaped.
func hintLineDiffers(wd *words, w window, line int, fl, sl string) string {
	switch what, char := invisibleDiff(fl, sl, wd); {
	case what == "":
		return fmt.Sprintf("Line %d differs: the file has `%s`, %s has `%s`. %s",
			line, clip(shown(fl)), wd.side, clip(shown(sl)), copyLines(w))
	case char:
		return fmt.Sprintf("Line %d differs only in %s: the file has `%s`, %s has `%s`. %s",
			line, what, clip(visible(fl)), wd.side, clip(visible(sl)), copyLines(w))
	default: // the lines look the same: words say more than showing them
		return fmt.Sprintf("Line %d differs only in %s. %s", line, what, copyLines(w))
	}
}

// invisibleDiff names, in w's words, what tells file line a from old-text
// line b when they look alike: their trailing whitespace, their
// indentation, or (char) the first character that differs on each side;
// "" when they differ visibly.
func invisibleDiff(a, b string, w *words) (what string, char bool) {
	if a == b || !lookAlike(a, b) {
		return "", false
	}
	ta, tb := strings.TrimRight(a, " \t"), strings.TrimRight(b, " \t")
	la, lb := strings.TrimLeft(a, " \t"), strings.TrimLeft(b, " \t")
	switch {
	case ta == tb:
		return fmt.Sprintf("trailing whitespace: the file's line ends in %s, %s's in %s",
			describeBlanks(a[len(ta):]), w.side, describeBlanks(b[len(tb):])), false
	case la == lb:
		return fmt.Sprintf("indentation: the file indents with %s, %s with %s",
			describeBlanks(a[:len(a)-len(la)]), w.side, describeBlanks(b[:len(b)-len(lb)])), false
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && (i < len(a) && !utf8.RuneStart(a[i]) || i < len(b) && !utf8.RuneStart(b[i])) {
		i-- // back to the start of the rune that differs
	}
	ra, na := utf8.DecodeRuneInString(a[i:])
	rb, nb := utf8.DecodeRuneInString(b[i:])
	switch {
	case i < len(b) && a[i:] == b[i+nb:]:
		return fmt.Sprintf("one character: %s has %s more", w.side, runeName(rb, false)), true
	case i < len(a) && b[i:] == a[i+na:]:
		return fmt.Sprintf("one character: the file has %s more", runeName(ra, false)), true
	}
	return fmt.Sprintf("one character (the file has %s, %s %s)", runeName(ra, i == len(a)), w.side, runeName(rb, i == len(b))), true
}

// describeBlanks says what a run of blanks is made of: "2 tabs", "4 spaces".
func describeBlanks(s string) string {
	tabs, spaces := strings.Count(s, "\t"), strings.Count(s, " ")
	var parts []string
	if tabs > 0 {
		parts = append(parts, plural(tabs, "tab"))
	}
	if spaces > 0 {
		parts = append(parts, plural(spaces, "space"))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " and ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// runeName names r for a hint, with its escape when it does not show.
func runeName(r rune, end bool) string {
	switch {
	case end:
		return "the line's end"
	case r == ' ':
		return "a space"
	case r == '\t':
		return "a tab (\\t)"
	case r == '\r':
		return "a carriage return (\\r)"
	case r == '\u00a0':
		return "a no-break space (U+00A0)"
	case r == '\ufeff':
		return "a byte order mark (U+FEFF)"
	case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060':
		return fmt.Sprintf("a zero-width character (U+%04X)", r)
	case r == '\u2018' || r == '\u2019' || r == '\u201c' || r == '\u201d':
		return fmt.Sprintf("a curly quote %c (U+%04X)", r, r)
	case r == '\'' || r == '"':
		return fmt.Sprintf("a straight quote %c", r)
	case r == utf8.RuneError:
		return "an invalid byte"
	case invisibleRune(r):
		return fmt.Sprintf("an invisible character (U+%04X)", r)
	}
	return fmt.Sprintf("%q (U+%04X)", r, r)
}

// visible writes s with what does not show escaped: \t, \r, and U+XXXX
// for other invisible characters.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case invisibleRune(r):
			fmt.Fprintf(&b, "U+%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// shown is s as a hint quotes a line that differs visibly: as it stands,
// unless it holds an invisible character other than a tab.
func shown(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r != '\t' && invisibleRune(r) }) >= 0 {
		return visible(s)
	}
	return s
}

// clip shortens a line for a hint.
func clip(s string) string {
	s = strings.TrimRight(s, " \t\r")
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}

// noteSamePlaces notes an edit applied at the first of hits, the places
// its old text stands, since each gives the same file.
func noteSamePlaces(w *words, hits []hit) string {
	at := fmt.Sprintf("line %d", hits[0].first+1)
	if hits[0].last > hits[0].first {
		at = "lines " + lineRange(hits[0].first+1, hits[0].last+1)
	}
	return fmt.Sprintf("%s stands at lines %s, and applying it at any of them writes the same file: the first, %s, was taken",
		w.theOld, linesOf(hits), at)
}

// hintCutShort ends the hint of a NO_MATCH whose search for candidates
// stopped at its budget: a place it did not read may be closer.
func hintCutShort() string {
	return "(The search for candidates was cut short: places of lines that stand very often or in the file's long lines were not all read.)"
}

// hintLongLineDiffers is the hint for the best window w whose long file
// line number line holds, in piece, the closest stretch to the old text's
// line sl; fragment says the old text may be a piece of a line.
func hintLongLineDiffers(wd *words, line int, piece, sl string, fragment bool) string {
	next := fmt.Sprintf("%s matches whole lines: quote line %d whole.", wd.TheOld, line)
	if fragment {
		next = "Quote that stretch exactly as it stands."
	}
	return fmt.Sprintf("Line %d is a long line; the closest stretch of it reads `%s`, %s has `%s`. %s",
		line, clip(shown(piece)), wd.side, clip(shown(strings.TrimSpace(sl))), next)
}

// hintScattered is the hint of a NO_MATCH whose every line stands in the
// file, each once, at lines (1-based, in the old text's order), but not
// together in that order (inOrder: in that order, with other lines
// between them).
func hintScattered(w *words, lines []int, inOrder bool) string {
	at := make([]string, len(lines))
	for i, l := range lines {
		at[i] = fmt.Sprint(l)
	}
	list := strings.Join(at[:len(at)-1], ", ") + " and " + at[len(at)-1]
	how := "not together in this order"
	if inOrder {
		how = "with other lines between them"
	}
	return fmt.Sprintf("Every line of %s stands in the file, but %s: its lines stand at lines %s. "+
		"Quote the lines to replace together, as the file has them, or send one edit for each place.", w.theOld, how, list)
}

// hintLonely is the hint of a NO_MATCH with nothing close, placed by line
// i of the old text, which stands as it reads only at the file's line
// line, in best.
func hintLonely(w *words, line, i int, best window) string {
	return fmt.Sprintf("Only %s %d stands in the file as it reads, at line %d; the lines around it differ (the closest place, lines %s, is %d%% similar). "+
		"Re-read lines %s and quote the lines to replace exactly as they stand.",
		w.oldLine, i, line, lineRange(best.start+1, best.start+best.n), int(best.sim*100), lineRange(best.start+1, best.start+best.n))
}
