package locate

// What a located edit writes: the new text as sent where that keeps the
// file's bytes, else line by line in the file's conventions.

import (
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

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

// write builds the text that replaces hit h with np. A line of np that the
// edit keeps from op (pairs[j] >= 0) is written as the file has it, bytes
// and line ending; a line the edit adds or changes takes the model's text,
// re-indented at the indentation level, with the file's line ending. At a
// line level the text always ends with a line ending unless the matched
// region was the file's last line without one. finalNL overrides np's.
// typo, when not nil, respells the typography of the lines the edit adds
// or changes (see typography); retyped reports whether it changed any.
func (f *finder) write(np *pattern, finalNL bool, pairs []int, h hit, us []unit, trimWS bool, typo *strings.Replacer) (out string, retyped bool) {
	var b strings.Builder
	b.Grow(len(np.text) + 2*len(np.lines)) // room for the file's line endings too
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
			if typo != nil {
				t := typo.Replace(line)
				retyped = retyped || t != line
				line = t
			}
			b.WriteString(line)
		}
		if needEOL {
			b.WriteString(eol)
		}
	}
	out = b.String()
	if (h.lineMode || h.openEnd) && h.end == len(f.content) && !strings.HasSuffix(f.content, "\n") {
		// The region ends the file without a final newline; so does the text.
		out = strings.TrimSuffix(strings.TrimSuffix(out, "\n"), "\r")
	}
	return out, retyped
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

// write adds to loc a splice per hit: np as sent where that keeps the
// file's bytes, else written line by line in the file's conventions. A
// location whose splices change nothing is already applied.
func (m *matcher) write(op, np *pattern, hits []hit, lv level, pairs []int, loc location) location {
	f := m.f
	for _, h := range hits {
		if f.sentAsIs(op, np, h, m.opts.TrimTrailingWS) {
			loc.Splices = append(loc.Splices, f.lastLineCut(f.splice(h.start, h.end, np.text)))
			continue
		}
		if pairs == nil {
			pairs = m.pair(op, np, lv == levelExact, false)
		}
		us := f.units(op, h)
		finalNL := np.finalNL
		if !h.lineMode && m.e.Format != edit.FormatJSON && len(op.lines) > 0 && len(np.lines) > 0 && op.finalNL != np.finalNL {
			// A SEARCH that stops at a line's end without its newline, or
			// a REPLACE that forgot its final newline: whole lines were meant.
			// But an old text that ends a file without a final newline,
			// replaced by one with, adds it (a diff's "\ No newline" line).
			// A tool call's texts found as sent are replaced as sent,
			// as str_replace replaces them.
			if op.finalNL || f.atLineEnd(h.end) && !f.endsNoNL(h.end) {
				finalNL = op.finalNL
			}
		}
		var typo *strings.Replacer
		if h.cmp >= levelUnicode {
			typo = typography(op.lines, us)
		}
		w, retyped := f.write(np, finalNL, pairs, h, us, m.opts.TrimTrailingWS, typo)
		if retyped && !strings.Contains(loc.Note, noteTypography) {
			loc.Note = joinNotes(loc.Note, noteTypography)
		}
		if m.removesFinalNL(op, np, h) {
			w = strings.TrimSuffix(strings.TrimSuffix(w, "\n"), "\r")
		}
		loc.Splices = append(loc.Splices, f.lastLineCut(f.splice(h.start, h.end, w)))
	}
	h := hits[0]
	loc.LineStart, loc.LineEnd = h.first+1, h.last+1
	if len(hits) > 1 {
		loc.Occurrences = make([]edit.LineRange, len(hits))
		for i, h := range hits {
			loc.Occurrences[i] = edit.LineRange{Start: h.first + 1, End: h.last + 1}
		}
	}
	loc.Matched, loc.Written = f.content[h.start:h.end], loc.Splices[0].New
	if !slices.ContainsFunc(loc.Splices, func(x Splice) bool { return x.New != x.Old }) {
		// What the edit writes is what stands: "applied" would claim a
		// change the file never sees.
		loc.Status, loc.Splices, loc.Occurrences = edit.StatusAlreadyApplied, nil, nil
	}
	return loc
}

// removesFinalNL reports whether the edit removes the file's final
// newline at h: a diff hunk that ends the file, whose old text ends with
// a newline and whose new text does not. A diff marks a last line without
// one ("\ No newline at end of file"), so its new text says so on purpose;
// a block's or a tool call's text that stops short of its last newline
// meant whole lines (see write).
func (m *matcher) removesFinalNL(op, np *pattern, h hit) bool {
	return m.e.Format == edit.FormatUDiff && op.finalNL && !np.finalNL && len(np.lines) > 0 &&
		h.end == len(m.f.content) && strings.HasSuffix(m.f.content, "\n")
}

// lastLineCut widens sp, a deletion of whole lines that ends a file without
// a final newline, over the line ending before it: the line that becomes
// last keeps having none ("a\nb" without "b" is "a").
func (f *finder) lastLineCut(sp Splice) Splice {
	if sp.New != "" || !f.endsNoNL(sp.end()) || sp.At == 0 || f.content[sp.At-1] != '\n' {
		return sp
	}
	at := sp.At - 1
	if at > 0 && f.content[at-1] == '\r' {
		at--
	}
	return f.splice(at, sp.end(), sp.New)
}

// splice is the Splice that makes content[start:end] text.
func (f *finder) splice(start, end int, text string) Splice {
	return Splice{At: start, Old: f.content[start:end], New: text}
}
