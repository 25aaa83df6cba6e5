package parse

import (
	"strconv"
	"strings"

	"github.com/edapply/edapply/internal/syntax"
)

// Context diffs (diff -c), which patch reads: a "*** old" / "--- new"
// header, then hunks of
//
//	***************
//	*** 1,3 ****
//	  a
//	! b
//	  c
//	--- 1,3 ----
//	  a
//	! B
//	  c
//
// whose old section holds the context, '-' and '!' lines and whose new
// section the context, '+' and '!' lines, each after two characters; a
// section with no change of its own may be left out. The two sections are
// merged into the lines a unified hunk would have, '!' lines as removed
// then added, and lowered as a unified diff's hunks are, so the edits
// are the same.

// contextBar is the line that opens each hunk of a context diff.
const contextBar = "***************"

// contextStarts reports whether a context diff's file header is at line i.
func (p *parser) contextStarts(i int) bool {
	if i+2 >= len(p.lines) || !strings.HasPrefix(p.lines[i+2].Text, contextBar) {
		return false
	}
	_, ok := p.contextHeader(i)
	return ok
}

// contextHeader reads the "*** old" / "--- new" header at line i.
func (p *parser) contextHeader(i int) (syntax.FileHeader, bool) {
	old, ok1 := strings.CutPrefix(p.lines[i].Text, "*** ")
	nw, ok2 := strings.CutPrefix(p.lines[i+1].Text, "--- ")
	if !ok1 || !ok2 || isContextRange(p.lines[i].Text, '*') {
		return syntax.FileHeader{}, false
	}
	read := syntax.ReadFileHeader
	if p.strip >= 0 {
		read = syntax.ReadFileHeaderAsWritten
	}
	return read("--- "+old, "+++ "+nw, false, p.inTree)
}

// contextRange reads a hunk's "*** a,b ****" (c is '*') or "--- a,b ----"
// (c is '-') line: its first line and count. A range "a,b" counts
// b-a+1 lines, one number a line, and "0" none (an empty file).
func contextRange(t string, c byte) (start, count int, ok bool) {
	mark := strings.Repeat(string(c), 3)
	s, ok1 := strings.CutPrefix(t, mark+" ")
	s, ok2 := strings.CutSuffix(strings.TrimRight(s, " "), " "+mark+string(c))
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	a, b, two := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	if !two {
		return start, min(start, 1), true
	}
	end, err := strconv.Atoi(b)
	if err != nil || end < 0 {
		return 0, 0, false
	}
	return start, max(end-start+1, 0), true
}

func isContextRange(t string, c byte) bool {
	_, _, ok := contextRange(t, c)
	return ok
}

// A contextLine is one line of a section of a context hunk.
type contextLine struct {
	kind  byte // ' ', '-', '+' or '!'
	line  int  // its line in the reply
	noEOL bool // a "\ No newline at end of file" follows it
}

// contextSection reads the lines of one section of a hunk from line k,
// those whose first two characters are a kind and a space (or an empty
// line, a context line that lost them), and returns them and the line
// after them. kinds are the changes the section may hold.
func (p *parser) contextSection(k int, kinds string, buf []contextLine) ([]contextLine, int) {
	for ; k < len(p.lines); k++ {
		t := p.lines[k].Text
		switch {
		case t == "":
			// An empty line ends the section unless one of its own follows.
			if next := p.textAt(k + 1); next == "" || len(next) < 2 || next[1] != ' ' || strings.IndexByte(kinds+" ", next[0]) < 0 {
				return buf, k
			}
			buf = append(buf, contextLine{kind: ' ', line: k})
		case strings.HasPrefix(t, `\ `):
			if len(buf) > 0 {
				buf[len(buf)-1].noEOL = true
			}
		case len(t) >= 2 && t[1] == ' ' && strings.IndexByte(kinds+" ", t[0]) >= 0:
			buf = append(buf, contextLine{kind: t[0], line: k})
		default:
			return buf, k
		}
	}
	return buf, k
}

// readContextFile reads one file's section of a context diff whose
// header is at line i.
func (p *parser) readContextFile(i int) *diffFile {
	f := &diffFile{from: i}
	f.hdr, f.hasHdr = p.contextHeader(i)
	f.hdr.OldPath, f.hdr.NewPath = p.stripName(f, f.hdr.OldPath), p.stripName(f, f.hdr.NewPath)
	k := i + 2
	f.firstHunkLine = k
	p.diff.lines = p.diff.lines[:0]
	f.hunks = p.diff.hunks[:0]
	var olds, news []contextLine
	for k+1 < len(p.lines) && strings.HasPrefix(p.lines[k].Text, contextBar) {
		h := hunk{from: k, numbered: true}
		var ok bool
		if h.nums.oldStart, h.nums.oldLines, ok = contextRange(p.lines[k+1].Text, '*'); !ok {
			break
		}
		olds, k = p.contextSection(k+2, "-!", olds[:0])
		if k >= len(p.lines) {
			// The reply ends inside the hunk: cutOff says so.
			h.to = k
			f.hunks = append(f.hunks, h)
			break
		}
		if h.nums.newStart, h.nums.newLines, ok = contextRange(p.lines[k].Text, '-'); !ok {
			f.broken = "a hunk's old lines are not followed by its \"--- N,M ----\" line"
			h.to = k
			f.hunks = append(f.hunks, h)
			break
		}
		news, k = p.contextSection(k+1, "+!", news[:0])
		h.to = k
		var why string
		if h.lines, why = p.mergeContext(olds, news); why != "" {
			f.broken = why
			f.hunks = append(f.hunks, h)
			break
		}
		h.trimTrailingBlanks()
		k = h.to
		f.hunks = append(f.hunks, h)
	}
	p.diff.hunks = f.hunks[:0]
	f.to = max(k, i+3)
	return f
}

// mergeContext merges a hunk's old and new sections into the lines of a
// unified hunk, or says why they do not pair up. A section left out is
// the other's context.
func (p *parser) mergeContext(olds, news []contextLine) ([]hunkLine, string) {
	buf := p.diff.lines
	from := len(buf)
	add := func(kind byte, l contextLine) {
		buf, from = appendHunkLine(buf, from, hunkLine{kind: kind, text: p.contextText(l.line), blank: p.lines[l.line].Text == "", noEOL: l.noEOL})
	}
	i, j := 0, 0
	for i < len(olds) || j < len(news) {
		switch {
		case i < len(olds) && olds[i].kind == '-':
			add('-', olds[i])
			i++
		case j < len(news) && news[j].kind == '+':
			add('+', news[j])
			j++
		case i < len(olds) && olds[i].kind == '!':
			for ; i < len(olds) && olds[i].kind == '!'; i++ {
				add('-', olds[i])
			}
			if j == len(news) || news[j].kind != '!' {
				return nil, "its old section changes lines (\"!\") that its new section does not"
			}
			for ; j < len(news) && news[j].kind == '!'; j++ {
				add('+', news[j])
			}
		case j < len(news) && news[j].kind == '!':
			return nil, "its new section changes lines (\"!\") that its old section does not"
		case len(olds) == 0:
			add(' ', news[j])
			j++
		case len(news) == 0:
			add(' ', olds[i])
			i++
		case i < len(olds) && j < len(news):
			o, n := olds[i], news[j]
			if strings.TrimRight(p.contextText(o.line), "\r\n") != strings.TrimRight(p.contextText(n.line), "\r\n") {
				return nil, "its sections' context lines differ"
			}
			if o.noEOL == n.noEOL {
				add(' ', o)
			} else {
				add('-', o)
				add('+', n)
			}
			i, j = i+1, j+1
		default:
			return nil, "its sections hold different numbers of context lines"
		}
	}
	p.diff.lines = buf
	return buf[from:len(buf):len(buf)], ""
}

// contextText is the text of a context hunk's line k, without its two
// characters, with its line ending.
func (p *parser) contextText(k int) string {
	if p.lines[k].Text == "" {
		return p.rawLine(k, 0)
	}
	return p.rawLine(k, 2)
}
