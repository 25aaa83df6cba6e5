package parse

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/edapply/edapply/edit"
)

// A zedReader reads the edit stream of Zed's edit_file agent: pairs of an
// old text and its replacement, optionally inside <edits>, with prose
// around,
//
//	<edits>
//	<old_text line=12>
//		return nil
//	</old_text>
//	<new_text>
//		return err
//	</new_text>
//	</edits>
//
// Zed names the file in the tool call and streams only the pairs, so a
// pair takes the path named on the line before it (or before its <edits>)
// as a SEARCH/REPLACE block does, else the previous block's file, which
// before any block is Options.File.
//
// The texts are read as Zed's parser reads them: one line break after the
// opening tag and one before the closing tag are layout; the text ends at
// the first closing tag of any of the stream's kinds, so that "</new_text>"
// closing an old text, or "</edits>" a new one, still ends it as Zed
// tolerates; "line=N" (quoted or not) in the opening tag is the 1-based
// line where the old text starts. Zed matches the old text by whole lines,
// so a pair is lowered as a SEARCH/REPLACE block is: a Replace of whole
// lines, Count 1, the line as its Hint, which may pick one of several equal
// matches and never moves the edit elsewhere. An empty old text names no
// place (Zed's prompt forbids it) and a pair the reply ends inside is
// cut off: both are PARSE_ERRORs.
//
// It keeps the offset from which no closing tag follows, once a text has
// been found unclosed, so that no later opener scans to the end again.
type zedReader struct {
	p        *parser
	unclosed int // 0 until a text is found unclosed
}

// zedNames are the names Zed's pairs give their texts.
var zedNames = &edit.TextNames{Old: "<old_text>", New: "<new_text>"}

func (r *zedReader) format() edit.Format { return edit.FormatSearchReplace }

// zedEndTags end a text of the stream, as Zed's parser ends one at the
// first of them; the last two are a tool call's closing tags a model
// writes in place of </new_text>.
var zedEndTags = []string{"</old_text>", "</new_text>", "</edits>", "</parameter>\n</invoke>", "</parameter></invoke>"}

// zedLineRE reads the line hint of an <old_text> tag.
var zedLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bline\s*=\s*["']?(\d+)`)
})

func (r *zedReader) starts(i int) bool {
	_, ok := zedOpenAt(r.p.lines[i].Text)
	return ok
}

// zedOpenAt returns the offset in line t of the <old_text> tag it opens
// with, after blanks and an optional <edits>.
func zedOpenAt(t string) (int, bool) {
	s := strings.TrimLeft(t, " \t")
	if rest, ok := strings.CutPrefix(s, "<edits>"); ok {
		s = strings.TrimLeft(rest, " \t")
	}
	at := len(t) - len(s)
	return at, zedOldTag(s) > 0
}

// zedOldTag returns the length of the <old_text> tag s opens with, 0 when
// it opens with none. The tag closes on its line.
func zedOldTag(s string) int {
	rest, ok := strings.CutPrefix(s, "<old_text")
	if !ok || rest == "" || rest[0] != '>' && rest[0] != ' ' && rest[0] != '\t' {
		return 0
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 || strings.ContainsAny(rest[:end], "<\n") {
		return 0
	}
	return len("<old_text") + end + 1
}

func (r *zedReader) read(i int) int {
	p := r.p
	pth, from := p.zedPath(i)
	at, _ := zedOpenAt(p.lines[i].Text)
	off := p.lines[i].Start + at
	first := true
	for {
		e, end, ok := p.zedPair(off)
		if !ok {
			return i + 1
		}
		last := p.lineAt(end - 1)
		if pth == "" {
			p.errorHint(lineNum(i), p.noFileHint("Put the file's path alone on the line before <old_text>."),
				"the <old_text>/<new_text> pair names no file")
			return last + 1
		}
		e.Path = pth
		e.Names = zedNames
		start := i
		if first {
			start = from
		}
		p.lastPath = pth
		p.add(e, edit.FormatSearchReplace, start, last+1)
		first = false
		// Another pair may follow on the line the last one ends on.
		rest := p.text[end:p.lineEnd(last)]
		k := strings.Index(rest, "<old_text")
		if k < 0 || zedOldTag(rest[k:]) == 0 {
			return last + 1
		}
		off, i = end+k, last
	}
}

// zedPath is blockPath for a pair opening at line i: a path named before
// it, or before the <edits> line that opens the stream.
func (p *parser) zedPath(i int) (string, int) {
	if j := p.prevNonBlank(i); j >= 0 && strings.TrimSpace(p.lines[j].Text) == "<edits>" {
		if pth, from, ok := p.pathBefore(j, true); ok {
			return pth, from
		}
		return p.lastPath, j
	}
	return p.blockPath(i)
}

// zedPair reads the pair whose <old_text> tag starts at offset off of the
// reply: the edit, and the offset just past its new text's closing tag.
// A pair that does not read is recorded as a PARSE_ERROR.
func (p *parser) zedPair(off int) (edit.Edit, int, bool) {
	num := lineNum(p.lineAt(off))
	tagLen := zedOldTag(p.text[off:])
	tag := p.text[off : off+tagLen]
	hint := 0
	if m := zedLineRE().FindStringSubmatch(tag); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			hint = n
		}
	}
	old, oldEOL, oldEnd, ok := p.zedText(off + tagLen)
	if !ok {
		p.errorf(num, "<old_text> is not closed before the end of the response")
		return edit.Edit{}, 0, false
	}
	// The new text opens before the next pair does.
	after := p.text[oldEnd:]
	if other := strings.Index(after, "<old_text"); other >= 0 {
		after = after[:other]
	}
	next := strings.Index(after, "<new_text>")
	if next < 0 {
		p.errorHint(num, "Follow each </old_text> with <new_text>, the text to put in its place, and </new_text>.",
			"the <old_text> at line %d has no <new_text>", num)
		return edit.Edit{}, 0, false
	}
	nw, newEOL, end, ok := p.zedText(oldEnd + next + len("<new_text>"))
	if !ok {
		p.errorf(num, "<new_text> is not closed before the end of the response")
		return edit.Edit{}, 0, false
	}
	// An opening tag inside a text is a closing tag left out: the texts
	// would read two ways.
	for _, t := range []string{old, nw} {
		if strings.Contains(t, "<old_text") || strings.Contains(t, "<new_text>") {
			p.errorf(num, "the pair at line %d holds an opening tag inside its text: a closing tag is missing", num)
			return edit.Edit{}, 0, false
		}
	}
	if strings.TrimSpace(old) == "" {
		p.errorHint(num, "Copy into <old_text> the lines to replace, as they stand in the file.",
			"the <old_text> at line %d is empty: it names no place in the file", num)
		return edit.Edit{}, 0, false
	}
	// Whole lines, as Zed matches them and as a SEARCH/REPLACE block
	// holds them, each ending as the text's lines end.
	e := edit.Edit{Op: edit.Replace, Old: old + zedEOL(old, oldEOL), Count: 1, Hint: hint, Line: num}
	if nw != "" {
		e.New = nw + zedEOL(nw, newEOL)
	}
	return e, end, true
}

// zedEOL is the line ending that makes text whole lines: eol, the line
// break that stood before its closing tag, else the one its lines use.
func zedEOL(text, eol string) string {
	switch {
	case eol != "":
		return eol
	case strings.Contains(text, "\r\n"):
		return "\r\n"
	}
	return "\n"
}

// zedText reads a text of the stream that starts at offset from of the
// reply: up to the first closing tag, less a line break just after the
// opening tag and one just before the closing tag, which it returns as
// eol. It returns the offset just past that tag, or false when none
// closes the text.
func (p *parser) zedText(from int) (text, eol string, next int, ok bool) {
	s := p.text
	if p.zed.unclosed > 0 && from >= p.zed.unclosed {
		return "", "", 0, false
	}
	end, tagLen := -1, 0
	for k := from; end < 0; {
		j := strings.Index(s[k:], "</")
		if j < 0 {
			p.zed.unclosed = from
			return "", "", 0, false
		}
		k += j
		for _, t := range zedEndTags {
			if strings.HasPrefix(s[k:], t) {
				end, tagLen = k-from, len(t)
				break
			}
		}
		k += 2
	}
	text = s[from : from+end]
	if t, ok := strings.CutPrefix(text, "\r\n"); ok {
		text = t
	} else {
		text = strings.TrimPrefix(text, "\n")
	}
	for _, br := range []string{"\r\n", "\n"} {
		if t, ok := strings.CutSuffix(text, br); ok {
			text, eol = t, br
			break
		}
	}
	return text, eol, from + end + tagLen, true
}
