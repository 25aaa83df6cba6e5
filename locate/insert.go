package locate

// An empty old text: an insertion after the anchors or before a hinted
// line, or an append.

import (
	"strings"

	"github.com/edapply/edapply/edit"
)

// insert places new text where an empty old text says: after the anchors,
// or before the hinted line, or else at the end of the file (an append),
// and is already applied when the text stands there (ends the file),
// unless noAlready says it may not be.
func (f *finder) insert(e *edit.Edit, np *pattern, from int, noAlready bool) (location, *edit.Error) {
	if np.text == "" {
		return location{Strategy: edit.StrategyExact, Status: edit.StatusAlreadyApplied}, nil
	}
	lines := f.lineIndex()
	eol := f.dominantEOL()
	body := strings.Join(np.lines, eol)
	var at, line int
	var text string
	strategy := edit.StrategyExact
	switch {
	case len(e.Anchors) > 0:
		line = from
	case e.Hint > 0 && !e.AtEOF:
		if e.Hint-1 > len(lines) {
			// The text goes after a line the file does not have: the
			// model read another version of the file.
			return location{}, errInsertPastEnd(e, e.Hint-1, len(lines))
		}
		line, strategy = e.Hint-1, edit.StrategyLineHint
	default:
		// Nothing says where: the text goes at the end, as Aider reads an
		// empty SEARCH and Codex a chunk of only added lines.
		line, strategy = len(lines), edit.StrategyAppend
	}
	// Already there: the new lines stand at the insertion point (or, at the
	// end of the file, end it). Blank lines alone stand next to any blank
	// line, so their standing there says nothing of a retry: they are
	// inserted as asked.
	if !noAlready && !allBlank(np.lines) {
		k := line
		if strategy == edit.StrategyAppend {
			k = len(lines) - len(np.lines)
		}
		if k >= 0 && k+len(np.lines) <= len(lines) {
			same := true
			for i, l := range np.lines {
				if trimRight(f.content[lines[k+i].start:lines[k+i].end]) != trimRight(l) {
					same = false
					break
				}
			}
			if same {
				s, t := lines[k].start, lines[k+len(np.lines)-1].next
				return location{Strategy: strategy, Status: edit.StatusAlreadyApplied,
					LineStart: k + 1, LineEnd: k + len(np.lines), Matched: f.content[s:t], Written: f.content[s:t]}, nil
			}
		}
	}
	if strategy == edit.StrategyAppend && restates(f.content, np.lines) {
		return location{}, errRestates(wordsOf(e))
	}
	switch {
	case line < len(lines):
		at = int(lines[line].start)
		text = body + eol
	case len(f.content) == 0 || strings.HasSuffix(f.content, "\n"):
		at = len(f.content)
		text = body
		if np.finalNL {
			text += eol
		}
	default:
		// After a last line with no newline: the file keeps having none.
		at = len(f.content)
		text = eol + body
	}
	return location{Splices: []Splice{{At: at, New: text}}, Strategy: strategy, Status: edit.StatusApplied,
		LineStart: line + 1, LineEnd: line + len(np.lines), Written: text}, nil
}

// restates reports whether text, lines to append to content, reads as a
// version of the file rather than an addition to it: it begins with the
// file's whole text (at any size: a one-line stub as much as a module),
// or its last telling line is the file's last, or most of its telling
// lines stand in the file. Appended, it would repeat the file's code. A
// telling line holds a letter or digit and eight bytes or more once
// trimmed, which rules out the "}" and "end" that close every addition.
func restates(content string, text []string) bool {
	if beginsWithFile(content, text) {
		return true
	}
	telling := func(l string) (string, bool) {
		t := strings.Join(strings.Fields(l), " ")
		return t, len(t) >= 8 && strings.IndexFunc(t, func(r rune) bool {
			return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80
		}) >= 0
	}
	have, last := map[string]bool{}, ""
	for _, l := range strings.Split(content, "\n") {
		if t, ok := telling(l); ok {
			have[t], last = true, t
		}
	}
	n, standing, lastText := 0, 0, ""
	for _, l := range text {
		if t, ok := telling(l); ok {
			n++
			lastText = t
			if have[t] {
				standing++
			}
		}
	}
	return n > 0 && (lastText == last || 2*standing > n)
}

// beginsWithFile reports whether text's first lines are content's lines,
// every one, up to trailing blanks and the blank lines that end content;
// false for a content of blank lines only.
func beginsWithFile(content string, text []string) bool {
	file := splitLF(content)
	for len(file) > 0 && isBlank(file[len(file)-1]) {
		file = file[:len(file)-1]
	}
	if len(file) == 0 || len(file) > len(text) {
		return false
	}
	for i, l := range file {
		if trimRight(l) != trimRight(text[i]) {
			return false
		}
	}
	return true
}

// allBlank reports whether every line holds only blanks.
func allBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}
