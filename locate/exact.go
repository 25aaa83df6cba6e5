package locate

// Rung 1, exact: the old text's bytes, its "\n" the file's line endings.

import "strings"

// needle is p's text as the exact rung searches for it in content of the
// given line-ending mode: with "\r\n" for "\n" in a CRLF file (a mixed one
// is searched through its LF view).
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
	if f.keys != nil && !f.mayHoldWhole(p) {
		return nil
	}
	f.scans++
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

// mayHoldWhole reports whether each line p's text holds whole, wherever
// it matches, may stand in the file: false when the loose key of one is
// that of no line (see mayHaveLines). Its lines past the first end at a
// line ending, and the last ends one too or the text's end, which an old
// text with a final line ending matches only at a line ending or the end
// of the file. Only once the keys are made for a tolerant search does the
// exact rung ask, so that a failing edit after the first costs no pass.
func (f *finder) mayHoldWhole(p *pattern) bool {
	last := len(p.lines) - 1
	if !p.finalNL {
		last--
	}
	for i := 1; i <= last; i++ {
		b := looseKey(p.lines[i]) & uint64(len(f.keyBits)*64-1)
		if f.keyBits[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// inIndent reports whether content offset off lies inside its line's
// leading indentation: only blanks, at least one, before it on its line.
func (f *finder) inIndent(off int) bool {
	ls := lineStartAt(f.content, off)
	return ls < off && strings.Trim(f.content[ls:off], " \t") == ""
}

// startsBlank reports whether p's text starts with a blank.
func startsBlank(p *pattern) bool { return startsBlankText(p.text) }

// startsBlankText is startsBlank of a pattern's text.
func startsBlankText(text string) bool { return text != "" && (text[0] == ' ' || text[0] == '\t') }

// midLine reports whether the edit quotes whole lines (LineOriented) and
// one of its exact hits starts inside a line.
func (m *matcher) midLine(hits []hit) bool {
	if !LineOriented(m.e) {
		return false
	}
	for _, h := range hits {
		if !m.f.atLineStart(h.start) {
			return true
		}
	}
	return false
}

// inIndent reports whether one of p's exact hits starts inside a line's
// indentation while p starts with blanks and spans lines (or the edit adds
// lines): that is a suffix of the indentation, not the line the model
// quoted, and the indent rung, which aligns whole lines, judges it.
func (m *matcher) inIndent(p *pattern, hits []hit) bool {
	if !startsBlank(p) || len(p.lines) < 2 && !m.adds {
		return false
	}
	for _, h := range hits {
		if m.f.inIndent(h.start) {
			return true
		}
	}
	return false
}
