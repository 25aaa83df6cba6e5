package parse

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
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

func (r *srReader) starts(i int) bool { return syntax.IsSearchOpener(r.p.lines[i].Text) }

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
	openN := syntax.OpenerRun(p.lines[i].Text)
	if p.sr.unclosed[i] {
		p.errorf(lineNum(i), "SEARCH/REPLACE block is not closed before the end of the response")
		return i + 1
	}
	divs, closeAt := syntax.ScanBlock(p.lines, i, len(p.lines))
	if closeAt < 0 {
		// Truncated: report it and let the lines after the opener be read
		// again, so a later complete block still counts. Which of the
		// later openers are closed is known now, so none rescans to the end.
		p.markUnclosed(i)
		p.errorf(lineNum(i), "SEARCH/REPLACE block is not closed before the end of the response")
		return i + 1
	}
	if again := p.closedAgain(closeAt); again > 0 {
		p.errorHint(lineNum(i), `Send each block with one closer; a line of the text that reads as a marker is written with a backslash before it (\>>>>>>> REPLACE).`,
			"SEARCH/REPLACE block closed at line %d is closed again at line %d, with text between: a line of its REPLACE may be a marker, and where it ends is a guess", lineNum(closeAt), lineNum(again))
		return again + 1
	}
	pth, from := p.blockPath(i)
	body, hint := syntax.SearchStart(p.lines, i, closeAt)
	if hint == 0 {
		hint = syntax.OpenerLineHint(p.lines[i].Text) // Zed's "<<<<<<< SEARCH line=42"
	}
	for len(divs) > 0 && divs[0] < body {
		divs = divs[1:] // a divider inside Roo's preamble cannot split the block
	}
	div, tied, ok := syntax.PickDivider(p.lines, divs, openN, body-1, closeAt, func(divs []int) (int, bool) {
		return p.dividerByFile(divs, body-1, pth)
	})
	if !ok {
		hint := "Separate SEARCH from REPLACE with one ======= line."
		if len(divs) > 1 {
			hint = "Send a SEARCH that leaves out the file's own ======= lines, so that one divider remains."
		}
		p.errorHint(lineNum(i), hint, "%s", dividerError(tied))
		return closeAt + 1
	}
	if pth == "" {
		if dir, ok := p.dirBefore(i); ok {
			p.errorHint(lineNum(i), "Put the path of the file in "+dir+", from the root, alone on the line before the block's fence.",
				"SEARCH/REPLACE block is under %s, a directory, not a file", dir)
			return closeAt + 1
		}
		p.errorHint(lineNum(i), p.noFileHint("Put the file's path alone on the line before the block's fence."),
			"SEARCH/REPLACE block names no file")
		return closeAt + 1
	}
	if from == i && p.lastWhole {
		// The block takes its file from a whole-file fence: that fence
		// is a file, not a quote (see dropQuotes).
		p.leanOnWhole[p.editCount()] = true
	}
	p.lastPath = pth
	old := syntax.UnescapeMarkers(p.text[p.lineEnd(body-1):p.lines[div].Start])
	nw := syntax.UnescapeMarkers(p.text[p.lineEnd(div):p.lines[closeAt].Start])
	// Roo's start line and Zed's, like a hunk's, may break a tie between
	// equal matches; they never move the edit to text that does not match.
	e := edit.Edit{Op: edit.Replace, Path: pth, Old: old, New: nw, Count: 1, Hint: hint}
	if old == "" {
		e = edit.Edit{Op: edit.Create, Path: pth, New: nw}
	}
	p.add(e, edit.FormatSearchReplace, from, closeAt+1)
	return closeAt + 1
}

// closedAgain returns the line of a second REPLACE closer after the
// block closed at line closeAt, with text between and no opener, or 0. A
// REPLACE holding a line of the format (a document showing it, a string)
// closes there; the rest of the text up to the second closer would be
// lost, and what is written cut short. Only blank lines between make the
// second closer a slip that changes nothing. The scan stops at the next
// opener, so the reply's lines are scanned about once in all.
func (p *parser) closedAgain(closeAt int) int {
	text := false
	for j := closeAt + 1; j < len(p.lines); j++ {
		t := p.lines[j].Text
		switch {
		case syntax.IsSearchOpener(t) || nearMissMarker(t) != "" && !syntax.IsReplaceCloser(t):
			return 0
		case syntax.IsReplaceCloser(t):
			if text {
				return j
			}
		case strings.TrimSpace(t) != "":
			text = true
		}
	}
	return 0
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
		t := p.lines[j].Text
		if syntax.OpensLevel(t) {
			stack = append(stack, j)
		} else if syntax.ClosesLevel(t) && len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
	}
	p.sr.unclosed = make(map[int]bool, len(stack))
	for _, j := range stack {
		p.sr.unclosed[j] = true
	}
}

// dividerError says why syntax.PickDivider chose no divider: there was
// none, or the candidates tied were left.
func dividerError(tied []int) string {
	if len(tied) == 0 {
		return "SEARCH/REPLACE block has no ======= divider"
	}
	nums := make([]string, len(tied))
	for k, d := range tied {
		nums[k] = strconv.Itoa(lineNum(d))
	}
	return "ambiguous SEARCH/REPLACE block: the dividers at lines " + strings.Join(nums, ", ") + " could each split it"
}

// pathLineAt is syntax.PathLineAt of s, asking the tree about bare names.
func (p *parser) pathLineAt(s string, prose bool) (string, bool) {
	return syntax.PathLineAt(s, prose, p.inTree)
}

// inTree reports whether the tree has an entry named name: a regular
// file, or a symlink wherever it points.
func (p *parser) inTree(name string) bool { return p.treeStat(name).entry }

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
		old := strings.ReplaceAll(p.text[p.lineEnd(open):p.lines[d].Start], "\r\n", "\n")
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
	if pth, ok := p.pathLineAt(p.lines[j].Text, prose); ok {
		return pth, j, true
	}
	f, ok := syntax.ParseFence(p.lines[j].Text)
	if !ok && !isSourceOpen(p.lines[j].Text) {
		return "", i, false
	}
	// A path line before the fence names the file over a word of the
	// fence's info string: that word may be a language tag that reads as
	// a file name (```makefile over "src/Makefile"), as Aider reads it.
	k := p.prevNonBlank(j)
	if k >= 0 {
		if pth, ok := p.pathLineAt(p.lines[k].Text, prose); ok {
			return pth, k, true
		}
	}
	if pth, ok := f.InfoPath(); ok {
		return pth, j, true
	}
	if k < 0 {
		return "", i, false
	}
	// The name alone in a small fence of its own, closed right before the
	// block's fence opens (a DeepSeek habit): "```" / "a.py" / "```".
	if g, ok := syntax.ParseFence(p.lines[k].Text); ok && k >= 2 {
		if o, ok := syntax.ParseFence(p.lines[k-2].Text); ok && g.Closes(o) {
			if pth, ok := p.pathLineAt(p.lines[k-1].Text, false); ok {
				return pth, k - 2, true
			}
		}
	}
	return "", i, false
}

// dirBefore returns the directory named where the path of the block at
// line i belongs (see pathBefore): a name that ends in "/", or one the
// tree holds as a directory.
func (p *parser) dirBefore(i int) (string, bool) {
	j := p.prevNonBlank(i)
	if j >= 0 {
		if _, fence := syntax.ParseFence(p.lines[j].Text); fence {
			j = p.prevNonBlank(j)
		}
	}
	if j < 0 {
		return "", false
	}
	name := strings.Trim(strings.TrimSpace(p.lines[j].Text), "`*:")
	if name == "" || strings.ContainsAny(name, " \t") {
		return "", false
	}
	if dir := strings.TrimRight(name, "/"); dir != name && dir != "" {
		return dir, true
	}
	if p.tree == nil || !fs.ValidPath(name) || name == "." {
		return "", false
	}
	if fi, err := p.tree.Stat(name); err == nil && fi.IsDir() {
		return name, true
	}
	return "", false
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
		t := strings.TrimSpace(p.lines[k].Text)
		if inner, ok := strings.CutPrefix(t, "<path>"); ok {
			inner, ok = strings.CutSuffix(inner, "</path>")
			if c, okc := syntax.CleanDelimitedPath(inner); ok && okc && !strings.ContainsAny(c, "<>") && k < j {
				return syntax.TidyPath(c), k, true
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

// prevNonBlank returns the index of the nearest non-blank line before i,
// looking back at most a few blank lines, or -1.
func (p *parser) prevNonBlank(i int) int {
	for j, k := i-1, 0; j >= 0 && k < 3; j, k = j-1, k+1 {
		if strings.TrimSpace(p.lines[j].Text) != "" {
			return j
		}
	}
	return -1
}

// srLike reports whether s is a SEARCH/REPLACE marker of any dialect, or a
// near miss of one: a line a fence holding it cannot be the file for.
func srLike(s string) bool {
	return syntax.OpensLevel(s) || syntax.ClosesLevel(s) || nearMissMarker(s) != ""
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
	if syntax.IsSearchOpener(s) || syntax.ClosesLevel(s) {
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
	return strings.EqualFold(nearMissMarker(r.p.lines[i].Text), "search")
}

func (r *nearMissReader) read(i int) int {
	p := r.p
	p.errorHint(lineNum(i), "Write the markers exactly: <<<<<<< SEARCH, =======, >>>>>>> REPLACE, each alone on its line.",
		"%q is not a SEARCH/REPLACE marker", strings.TrimSpace(p.lines[i].Text))
	for j := i + 1; j < len(p.lines); j++ {
		t := p.lines[j].Text
		if syntax.IsSearchOpener(t) || strings.EqualFold(nearMissMarker(t), "search") {
			return j
		}
		if syntax.ClosesLevel(t) || nearMissMarker(t) != "" {
			return j + 1
		}
	}
	return i + 1
}
