package normalize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/linediff"
	"github.com/edapply/edapply/internal/syntax"
	"github.com/edapply/edapply/parse"
)

// An Applied is what applying one edit did, as [Reply] renders it. The
// applier reports it (apply.EditResult's Matched and Written); text is
// compared and rendered with "\n" line endings.
type Applied struct {
	Index int     // the edit: an index into the edits Parse returned
	Op    edit.Op // what was applied: the edit's own op, or a fixer's replacement's
	Path  string  // the file, as the edits name it
	Old   string  // Replace: the file's text the edit located, as it stood
	New   string  // Replace: the text written in its place; Create, Rewrite: the content
	Line  int     // Replace: the 1-based line of the file, as earlier edits left it, where Old begins
	// Repaired is set when a fixer's edit was applied in place of the
	// edit; a replacement that is not one Replace of the same file (or
	// Create, Rewrite) is written in the canonical form.
	Repaired bool
}

// Reply returns src, a model's reply, with each edit that applied
// rewritten to what applying it did: applied lists, per edit index, the
// text found and the text written (several entries for one index when a
// fixer replaced the edit by several). Edits with no entry (failed, deleted, renamed) and the
// prose between edits are kept byte for byte. edits must be what
// parse.Parse returned for src.
//
// A Replace with a Count other than 1 is left as written, since only its
// first match is known; so is a region that cannot be re-rendered in its own
// format nor replaced by a canonical block, and so is text the formats
// cannot carry (a last line with no newline outside a diff). The error, if
// not nil, names those edits; the returned text is still the best
// rewrite.
func Reply(src []byte, edits []edit.Edit, applied []Applied) ([]byte, error) {
	if AppliedAsWritten(src, edits, applied) {
		return bytes.Clone(src), nil
	}
	return rewrite(src, edits, applied)
}

// rewrite is Reply by rendering every edit.
func rewrite(src []byte, edits []edit.Edit, applied []Applied) ([]byte, error) {
	text := inPlace(src)
	n := &normalizer{src: src, edits: edits, text: text, lines: syntax.SplitLines(text), by: map[int][]Applied{}}
	for _, a := range applied {
		if a.Index < 0 || a.Index >= len(edits) {
			return nil, fmt.Errorf("applied edit %d: no such edit (%d parsed)", a.Index, len(edits))
		}
		a.Old, a.New = lf(a.Old), lf(a.New)
		n.by[a.Index] = append(n.by[a.Index], a)
	}
	n.lineShifts(applied)
	done := map[int]bool{}
	for i := range edits {
		if done[i] || len(n.by[i]) == 0 {
			continue
		}
		e := &edits[i]
		switch {
		case inToolString(n.src, e):
			// A diff or patch a JSON tool call carries spans the string
			// that holds it: no hunk or chunk can be rendered inside it.
			done[i] = true
			if a, ok := n.plain(i); !ok || a.Repaired || !n.unchanged(i, a) {
				n.keep(i)
			}
		case e.Format == edit.FormatUDiff && e.Op == edit.Replace:
			g := n.udiffGroup(i)
			for _, k := range g {
				done[k] = true
			}
			n.udiff(g)
		case e.Format == edit.FormatJSON:
			var g []int
			for k := i; k < len(edits); k++ {
				if edits[k].Format == e.Format && edits[k].Start == e.Start && edits[k].End == e.End {
					g = append(g, k)
					done[k] = true
				}
			}
			n.json(g)
		default:
			done[i] = true
			n.one(i)
		}
	}
	return n.result()
}

// inToolString reports whether e is a diff's or an envelope's edit that a
// JSON tool call carries in a string (parse reads those as a whole text):
// its span is that string's, which opens with a quote, where a hunk's or
// a chunk's opens with a header or a chunk line.
func inToolString(src []byte, e *edit.Edit) bool {
	return (e.Format == edit.FormatUDiff || e.Format == edit.FormatCodex) && e.Start >= 0 && e.Start < len(src) && src[e.Start] == '"'
}

// inPlace is b as a string that shares its bytes, for a parse that lives
// only within a call of Reply or AppliedAsWritten: nothing of the parse
// reaches what the call returns (its output is written into a buffer of
// its own, its error names edits by number), and nothing writes b while
// the call runs, which calls no code of its caller's. The response is
// then not copied once more to be parsed, nor the output to be read back.
func inPlace(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// AppliedAsWritten reports whether [Reply] would return src, the
// response, byte for byte, without rendering it: each entry of applied is
// the only one for its edit, no fixer's, and says what its edit says (a
// Replace with Count 1 that found its Old and wrote its New; a Create or
// Rewrite that wrote its content). Each such region keeps its bytes (see
// one and json), and the edits without an entry keep theirs. A diff hunk
// keeps its bytes only when the "@@" line Reply computes for it is the
// one it has (see hunkAsWritten).
func AppliedAsWritten(src []byte, edits []edit.Edit, applied []Applied) bool {
	seen := make([]bool, len(edits))
	hunks := false
	for _, a := range applied {
		if a.Index < 0 || a.Index >= len(edits) || seen[a.Index] || a.Repaired {
			return false
		}
		seen[a.Index] = true
		e := &edits[a.Index]
		if a.Op != e.Op || a.Path != e.Path {
			return false
		}
		if e.Op == edit.Replace && (e.Count != 1 || lf(e.Old) != lf(a.Old)) || lf(e.New) != lf(a.New) {
			return false
		}
		hunks = hunks || e.Format == edit.FormatUDiff && e.Op == edit.Replace && !inToolString(src, e)
	}
	if !hunks {
		return true
	}
	text := inPlace(src) // read only, within this call
	old := oldLines(applied, len(edits))
	var header []byte
	for _, a := range applied {
		e := &edits[a.Index]
		if e.Format != edit.FormatUDiff || e.Op != edit.Replace || inToolString(src, e) {
			continue
		}
		var ok bool
		if header, ok = hunkAsWritten(text, e, a, old[a.Index], header); !ok {
			return false
		}
	}
	return true
}

// hunkAsWritten reports whether udiff renders the hunk e, applied as a
// says with its old side at line oldStart, as the bytes it has: its first
// line is an "@@" header that hunkHeaderLine writes the same, line ending
// included, and the "---"/"+++" pair the two lines before it may be is
// one udiff keeps (or rewrites to the same bytes). The rest of a hunk
// applied as written keeps its bytes, and so does the text between a
// file's hunks.
// The header is rendered into buf, which it returns for the next hunk's.
func hunkAsWritten(src string, e *edit.Edit, a Applied, oldStart int, buf []byte) ([]byte, bool) {
	if e.Start < 0 || e.End > len(src) || e.Start >= e.End {
		return buf, false
	}
	region := src[e.Start:e.End]
	nl := strings.IndexByte(region, '\n')
	if nl < 0 {
		return buf, false
	}
	first, eol := region[:nl], "\n"
	if t, ok := strings.CutSuffix(first, "\r"); ok {
		first, eol = t, "\r\n"
	}
	if !syntax.IsHunkHeader(first) {
		return buf, false
	}
	heading := ""
	if _, rest, ok := strings.Cut(strings.TrimPrefix(first, "@@"), "@@"); ok {
		heading = rest
	}
	buf, _ = appendHunkHeader(buf[:0], oldStart, a, heading)
	if string(buf) != first {
		return buf, false
	}
	return buf, !fileHeaderRewritten(src, e.Start, e.Path, eol)
}

// fileHeaderRewritten reports whether the two lines before byte start of
// src may be a "---"/"+++" pair that udiff would rewrite for a hunk of
// path: a pair udiff reads as naming path another way, unless it is
// spelled as udiff would spell it, eol being the hunk's line ending.
func fileHeaderRewritten(src string, start int, pth, eol string) bool {
	if start == 0 {
		return false
	}
	prev := strings.LastIndexByte(src[:start-1], '\n') + 1 // the line before the hunk
	if prev == 0 {
		return false // one line before the hunk: no room for a pair
	}
	from := strings.LastIndexByte(src[:prev-1], '\n') + 1
	pair := src[from:start]
	if !strings.HasPrefix(pair, "--- ") || pair == "--- a/"+pth+eol+"+++ b/"+pth+eol {
		return false // no pair, or one spelled as udiff spells it
	}
	// The pair read as udiff reads it, its two lines alone and without a
	// tree, as the normalizer reads them.
	ls := syntax.SplitLines(pair)
	if len(ls) < 2 {
		return false
	}
	h, ok := syntax.ReadFileHeader(ls[0].Text, ls[1].Text, true, nil)
	return ok && (h.OldPath != pth || h.NewPath != pth) && simplePath(pth)
}

type normalizer struct {
	src     []byte
	edits   []edit.Edit
	text    string        // src, read in place (see inPlace)
	lines   []syntax.Line // the lines of src
	by      map[int][]Applied
	oldLine []int // udiff: the old-side start line of an applied hunk, by edit
	splices []nsplice
	kept    []int // edits left as written that had something to rewrite
}

// An nsplice replaces src[start:end] with text. One with want is checked
// where it lands in the output (see recheck): it must read as want there,
// or the first of alts stands in; with none left, the region keeps its
// bytes and the edits idx are reported kept.
type nsplice struct {
	start, end int
	text       string
	want       []edit.Edit
	alts       []nsplice
	idx        []int
	at         int // where text starts in the output; -1 when not written
}

// span is src[start:end] as a string, without a copy: n.text is src's
// bytes.
func (n *normalizer) span(start, end int) string { return n.text[start:end] }

// lineEnd is the byte offset just past line i's line ending.
func (n *normalizer) lineEnd(i int) int { return syntax.LineEnd(n.lines, len(n.text), i) }

// lineAt returns the index of the line holding byte offset off.
func (n *normalizer) lineAt(off int) int { return syntax.LineAt(n.lines, len(n.text), off) }

// fileHeaderAt reports whether lines i and i+1 are a "--- "/"+++ " pair
// as a git section's header reads, and reads it.
func (n *normalizer) fileHeaderAt(i int) (syntax.FileHeader, bool) {
	if i+1 >= len(n.lines) {
		return syntax.FileHeader{}, false
	}
	return syntax.ReadFileHeader(n.lines[i].Text, n.lines[i+1].Text, true, nil)
}

func (n *normalizer) replace(start, end int, text string) {
	if string(n.src[start:end]) != text {
		n.splices = append(n.splices, nsplice{start: start, end: end, text: text})
	}
}

// replaceChecked queues the first of cands, renderings of the edits idx
// each with its want, to be checked in the output; with none, idx are
// kept.
func (n *normalizer) replaceChecked(idx []int, cands []nsplice) {
	if len(cands) == 0 {
		n.keep(idx...)
		return
	}
	s := cands[0]
	s.alts, s.idx = cands[1:], idx
	n.splices = append(n.splices, s)
}

func (n *normalizer) keep(idx ...int) { n.kept = append(n.kept, idx...) }

func (n *normalizer) result() ([]byte, error) {
	out := n.render()
	for n.recheck(out) {
		out = n.render()
	}
	if len(n.kept) == 0 {
		return out, nil
	}
	slices.Sort(n.kept)
	n.kept = slices.Compact(n.kept)
	s := make([]string, len(n.kept))
	for k, i := range n.kept {
		s[k] = strconv.Itoa(i)
	}
	return out, fmt.Errorf("edits %s could not be rewritten and are left as written", strings.Join(s, ", "))
}

// render returns src with the splices in place, and notes where each
// landed.
func (n *normalizer) render() []byte {
	slices.SortStableFunc(n.splices, func(a, b nsplice) int { return a.start - b.start })
	var b bytes.Buffer
	last := 0
	for k := range n.splices {
		s := &n.splices[k]
		s.at = -1
		if s.start < last {
			continue // overlapping regions: cannot happen for regions Parse recorded
		}
		b.Write(n.src[last:s.start])
		s.at = b.Len()
		b.WriteString(s.text)
		last = s.end
	}
	b.Write(n.src[last:])
	return b.Bytes()
}

// recheck reads out back and replaces each checked splice that does not
// read as its want there by its next alternative, or by the region's own
// bytes; it reports whether any changed. Alone, a rendering can read one
// way and in the output another: the whole-file reader picks a fence's
// closing line by the fences after it, so the check is made in place,
// and once for the whole output.
func (n *normalizer) recheck(out []byte) bool {
	if !slices.ContainsFunc(n.splices, func(s nsplice) bool { return s.want != nil && s.at >= 0 }) {
		return false
	}
	got, errs := parse.Parse(inPlace(out), parse.Options{Complete: true})
	changed := false
	line, lineAt := 1, 0 // the 1-based line of out at byte lineAt
	for k := range n.splices {
		s := &n.splices[k]
		if s.at < 0 {
			continue
		}
		line += bytes.Count(out[lineAt:s.at], []byte("\n"))
		lineAt = s.at
		if s.want == nil || n.readsAt(got, errs, s, line) {
			continue
		}
		changed = true
		if len(s.alts) > 0 {
			next := s.alts[0]
			next.alts, next.idx = s.alts[1:], s.idx
			*s = next
			continue
		}
		n.keep(s.idx...)
		*s = nsplice{start: s.start, end: s.end, text: n.span(s.start, s.end)}
	}
	return changed
}

// readsAt reports whether the splice s, written at byte s.at and line
// line of the output that parsed to got and errs, reads as its want: the
// edits starting in it end in it and are want, no edit runs into it, and
// no error is on its lines.
func (n *normalizer) readsAt(got []edit.Edit, errs edit.ErrorList, s *nsplice, line int) bool {
	end := s.at + len(s.text)
	last := line + strings.Count(strings.TrimSuffix(s.text, "\n"), "\n")
	for _, err := range errs {
		if err.Line >= line && err.Line <= last {
			return false
		}
	}
	var in []edit.Edit
	for _, g := range got {
		switch {
		case g.Start < s.at && g.End > s.at:
			return false
		case g.Start >= s.at && g.Start < end:
			if g.End > end {
				return false
			}
			in = append(in, g)
		}
	}
	return sameEdits(in, s.want)
}

// lf turns CRLF line endings into LF: the applier reports the file's bytes,
// the response says "\n", and the applier converts back.
func lf(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// lineRange returns the indexes [from, to) of the lines of the byte span
// [start, end), which Parse records on line boundaries.
func (n *normalizer) lineRange(start, end int) (int, int) {
	ls := n.lines
	from := len(ls)
	if start < len(n.src) {
		from = n.lineAt(start)
	}
	to := len(ls)
	if end < len(n.src) {
		to = n.lineAt(end)
	}
	return from, to
}

// eol is the line ending the response uses at line i.
func (n *normalizer) eol(i int) string {
	if i < len(n.lines) && strings.HasSuffix(n.span(n.lines[i].Start, n.lineEnd(i)), "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// withEOL writes text (with "\n" endings) with the response's endings.
func withEOL(text, eol string) string {
	if eol == "\n" {
		return text
	}
	return strings.ReplaceAll(text, "\n", eol)
}

// plain reports whether the edit at i has one entry that can be rendered
// in its own format, and returns it.
func (n *normalizer) plain(i int) (Applied, bool) {
	as := n.by[i]
	if len(as) != 1 {
		return Applied{}, false
	}
	a, e := as[0], n.edits[i]
	if a.Repaired && (a.Op != e.Op || a.Path != e.Path) {
		return Applied{}, false
	}
	if e.Op == edit.Replace && e.Count != 1 {
		return Applied{}, false
	}
	return a, true
}

// unchanged reports whether a says what edit i says already.
func (n *normalizer) unchanged(i int, a Applied) bool {
	e := n.edits[i]
	return lf(e.New) == a.New && (e.Op != edit.Replace || lf(e.Old) == a.Old)
}

// one renders an edit that is a region of its own.
func (n *normalizer) one(i int) {
	e := &n.edits[i]
	a, ok := n.plain(i)
	if ok && !a.Repaired && n.unchanged(i, a) {
		return
	}
	if n.multi(i) {
		return
	}
	if ok && e.Format == edit.FormatWhole && n.xmlCall(e) {
		// An XML tool call is not rendered again: a block or fence in its
		// place would change the call's format. A write's last line
		// ending says no more than a fence's.
		if !a.Repaired && (n.unchanged(i, a) || e.Op == edit.Rewrite && a.New+"\n" == lf(e.New)) {
			return
		}
		n.keep(i)
		return
	}
	// The whole-file rendering, then the canonical one: each is checked in
	// the output (recheck).
	var cands []nsplice
	if ok && e.Format == edit.FormatWhole {
		if text, want, ok := n.whole(i, a); ok {
			cands = append(cands, nsplice{start: e.Start, end: e.End, text: text, want: []edit.Edit{want}})
		}
	} else if ok {
		var text string
		switch e.Format {
		case edit.FormatSearchReplace:
			text, ok = n.searchReplace(i, a)
		case edit.FormatCodex:
			// A patch a JSON tool call carries spans the string that
			// holds it, which opens with a quote; a chunk of an envelope
			// opens with a directive, "@@" or a chunk line.
			ok = n.src[e.Start] != '"'
			if ok {
				text, ok = n.codex(i, a)
			}
		case edit.FormatUDiff:
			text, ok = n.udiffFile(i, a)
		default:
			ok = false
		}
		if ok {
			n.replace(e.Start, e.End, text)
			return
		}
	}
	if e.Format == edit.FormatCodex {
		n.keep(i) // inside an envelope: no block can stand there
		return
	}
	if text, want, ok := n.canonical([]int{i}); ok {
		cands = append(cands, nsplice{start: e.Start, end: n.fencedEnd(e), text: text, want: want})
	}
	n.replaceChecked([]int{i}, cands)
}

// xmlCall reports whether e's region opens with an XML tool call.
func (n *normalizer) xmlCall(e *edit.Edit) bool {
	from, _ := n.lineRange(e.Start, e.End)
	if from >= len(n.lines) {
		return false
	}
	_, _, ok := syntax.XMLToolOpen(n.lines[from].Text)
	return ok
}

// fencedEnd returns the end of e's region, past the fence that closes it
// when the region opened one: a SEARCH/REPLACE region ends at its closing
// marker, and a canonical block brings its own fences.
func (n *normalizer) fencedEnd(e *edit.Edit) int {
	from, to := n.lineRange(e.Start, e.End)
	if e.Format != edit.FormatSearchReplace || to >= len(n.lines) {
		return e.End
	}
	for k := from; k < to; k++ {
		if syntax.IsSearchOpener(n.lines[k].Text) {
			break
		}
		if f, ok := syntax.ParseFence(n.lines[k].Text); ok {
			if g, ok := syntax.ParseFence(n.lines[to].Text); ok && g.Closes(f) {
				return n.lineEnd(to)
			}
			break
		}
	}
	return e.End
}

// multi reports whether edit i is a Replace of a Count other than 1, which
// is left as written: only its first match is known. It counts as kept
// when what was applied differs from what it says.
func (n *normalizer) multi(i int) bool {
	e := n.edits[i]
	if e.Op != edit.Replace || e.Count == 1 {
		return false
	}
	for _, a := range n.by[i] {
		if a.Repaired || !n.unchanged(i, a) {
			n.keep(i)
			break
		}
	}
	return true
}

// canonical renders the edits at idx in the canonical form of Write: what
// was applied for those with entries, the edit as written for the others,
// and returns the edits it reads as. It reports false when some edit
// cannot be written that way.
func (n *normalizer) canonical(idx []int) (string, []edit.Edit, bool) {
	var es []edit.Edit
	for _, i := range idx {
		as := n.by[i]
		if len(as) == 0 {
			es = append(es, n.edits[i])
			continue
		}
		for _, a := range as {
			e := edit.Edit{Op: a.Op, Path: a.Path, Old: a.Old, New: a.New, Count: 1}
			if a.Op == edit.Replace && a.Old == "" {
				return "", nil, false // an insertion by line number
			}
			if crEndsLine(a.Old) || crEndsLine(a.New) {
				return "", nil, false // Write would read back the same bytes, not the same text
			}
			es = append(es, e)
		}
	}
	var b bytes.Buffer
	if err := Write(&b, es); err != nil {
		return "", nil, false
	}
	want := make([]edit.Edit, len(es))
	for k, e := range es {
		want[k] = edit.Edit{Op: e.Op, Path: e.Path, Old: e.Old, New: e.New}
		if e.Op == edit.Replace {
			want[k].Count = 1
		}
	}
	return b.String(), want, true
}

func wholeText(s string) bool { return s == "" || strings.HasSuffix(s, "\n") }

// crEndsLine reports whether a line of s, text with "\n" endings, ends in
// "\r". No block or fence can carry that line: the reader, and the applier
// after it, take the CR for part of a CRLF ending (see renderLines).
func crEndsLine(s string) bool { return strings.Contains(s, "\r\n") || strings.HasSuffix(s, "\r") }

// searchReplace re-renders a SEARCH/REPLACE block: the bodies change, the
// path line, fences and marker lines stay.
func (n *normalizer) searchReplace(i int, a Applied) (string, bool) {
	e := &n.edits[i]
	old, nw := a.Old, a.New
	if e.Op == edit.Create {
		old = ""
	}
	if !wholeText(old) || !wholeText(nw) || crEndsLine(old) || crEndsLine(nw) || (e.Op == edit.Replace && old == "") {
		return "", false
	}
	from, to := n.lineRange(e.Start, e.End)
	open := -1
	for k := from; k < to; k++ {
		if syntax.IsSearchOpener(n.lines[k].Text) {
			open = k
			break
		}
	}
	closeAt := to - 1
	if open < 0 || closeAt <= open {
		return "", false
	}
	openN := syntax.OpenerRun(n.lines[open].Text)
	// The parse closed the block at its region's last line, so the
	// nesting stays above zero before it.
	divs, _ := syntax.ScanBlock(n.lines, open, closeAt)
	// The divider is the one the parse chose, which the tree may have
	// decided: the one whose SEARCH is the edit's old text.
	div := -1
	for _, d := range divs {
		if string(n.src[n.lineEnd(open):n.lines[d].Start]) == e.Old {
			div = d
			break
		}
	}
	if div < 0 {
		// As the parse without a tree chooses.
		d, _, ok := syntax.PickDivider(n.lines, divs, openN, open, closeAt, nil)
		if !ok {
			return "", false
		}
		div = d
	}
	eol := n.eol(open)
	var b strings.Builder
	b.Write(n.src[e.Start:n.lineEnd(open)])
	b.WriteString(withEOL(old, eol))
	b.Write(n.src[n.lines[div].Start:n.lineEnd(div)])
	b.WriteString(withEOL(nw, eol))
	b.Write(n.src[n.lines[closeAt].Start:e.End])
	text := b.String()
	// Parse it back; a block that inherited its path gets one to stand alone.
	check := text
	if from == open {
		check = pathForLine(e.Path) + "\n" + text
	}
	want := edit.Edit{Op: e.Op, Path: e.Path, Old: withEOL(old, eol), New: withEOL(nw, eol), Count: e.Count}
	if !readsBackAs(check, edit.FormatSearchReplace, want) {
		return "", false
	}
	return text, true
}

// readsBackAs reports whether text parses, in format f, to exactly the
// edits want (Op, Path, Old, New, Count, Hint, Anchors, AtEOF).
func readsBackAs(text string, f edit.Format, want ...edit.Edit) bool {
	got, errs := parse.Parse(text, parse.Options{Format: f, Complete: true})
	return len(errs) == 0 && sameEdits(got, want)
}

// sameEdits reports whether got are the edits want, field by field as
// readsBackAs compares them.
func sameEdits(got, want []edit.Edit) bool {
	if len(got) != len(want) {
		return false
	}
	for k, g := range got {
		w := want[k]
		if g.Op != w.Op || g.Path != w.Path || g.Old != w.Old || g.New != w.New || g.Count != w.Count ||
			g.Hint != w.Hint || g.AtEOF != w.AtEOF || !slices.Equal(g.Anchors, w.Anchors) {
			return false
		}
	}
	return true
}

// whole re-renders a whole-file fence with the content as written, and
// returns the edit it must read as. Only the output can tell which fence
// closes it (see recheck).
func (n *normalizer) whole(i int, a Applied) (string, edit.Edit, bool) {
	e := &n.edits[i]
	from, to := n.lineRange(e.Start, e.End)
	// The fence, and a path that names it, found as the whole-file
	// reader finds them.
	open, f, ok := syntax.FenceNear(n.lines, from)
	if ok {
		_, ok = syntax.FencePath(n.lines, from, open, f, nil)
	}
	closeAt := to - 1
	if !ok || closeAt <= open {
		return "", edit.Edit{}, false
	}
	content := a.New
	if content != "" && !strings.HasSuffix(content, "\n") {
		// The fence's last newline says nothing; the applier keeps the
		// file's final-newline state.
		content += "\n"
	}
	if crEndsLine(content) {
		return "", edit.Edit{}, false
	}
	eol := n.eol(open)
	var b strings.Builder
	b.Write(n.src[e.Start:n.lineEnd(open)])
	for _, l := range syntax.SplitAfter(content) {
		if f.Indent > 0 && l != "\n" {
			b.WriteString(strings.Repeat(" ", f.Indent))
		}
		b.WriteString(withEOL(l, eol))
	}
	b.Write(n.src[n.lines[closeAt].Start:e.End])
	return b.String(), edit.Edit{Op: e.Op, Path: e.Path, New: withEOL(content, eol)}, true
}

// A dline is one line of a rendered hunk or chunk.
type dline struct {
	kind byte   // ' ', '-', '+'
	text string // with its "\n", or without at the end of a file that lacks one
}

// added returns the lines of s as added lines.
func added(s string) []dline {
	var ls []dline
	for _, l := range syntax.SplitAfter(s) {
		ls = append(ls, dline{'+', l})
	}
	return ls
}

// lineDiff returns the lines of a diff from old to new: the longest common
// subsequence of lines is context. Large inputs, where the table would be
// too big, get every old line removed and every new line added.
func lineDiff(old, nw string) []dline {
	a, b := syntax.SplitAfter(old), syntax.SplitAfter(nw)
	pairs := linediff.Pair(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
	// Between two context lines, removed lines come before added ones, as
	// diff(1) writes them.
	var out []dline
	i, from := 0, 0 // the next old line, and the first new line not written
	for j := 0; j <= len(b); j++ {
		k := len(a)
		if j < len(b) {
			if pairs[j] < 0 {
				continue
			}
			k = pairs[j]
		}
		for ; i < k; i++ {
			out = append(out, dline{'-', a[i]})
		}
		for ; from < j; from++ {
			out = append(out, dline{'+', b[from]})
		}
		if j < len(b) {
			out = append(out, dline{' ', a[k]})
			i, from = k+1, j+1
		}
	}
	return out
}

// renderLines writes diff lines with their prefixes; a line without a
// newline is followed by git's marker when noEOL is allowed.
func renderLines(ls []dline, eol string, noEOL bool) (string, bool) {
	var b strings.Builder
	for _, l := range ls {
		if strings.HasSuffix(strings.TrimSuffix(l.text, "\n"), "\r") {
			return "", false // the reader would take that CR for the line ending
		}
		b.WriteByte(l.kind)
		if strings.HasSuffix(l.text, "\n") {
			b.WriteString(withEOL(l.text, eol))
			continue
		}
		if !noEOL {
			return "", false
		}
		b.WriteString(l.text + eol + `\ No newline at end of file` + eol)
	}
	return b.String(), true
}

// lineShifts notes oldLines(applied) for the hunks' headers.
func (n *normalizer) lineShifts(applied []Applied) { n.oldLine = oldLines(applied, len(n.edits)) }

// oldLines computes, for every applied Replace, its old-side start line:
// its line in the file as earlier edits left it, less what the earlier
// edits above it in the same file added. The lines each file's edits
// stand at are summed over in a Fenwick tree, so that a diff of thousands
// of hunks costs n log n, not n².
//
// The result is indexed by edit, of which there are n; applied's indexes
// are below n. The entries are taken in the order of their edits (an
// order of positions in applied, not a sorted copy of its records).
func oldLines(applied []Applied, n int) []int {
	oldLine := make([]int, n)
	order := make([]int, len(applied))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return applied[a].Index - applied[b].Index })
	lines := map[string][]int{} // each path's edit lines, sorted, each once
	for _, k := range order {
		if a := &applied[k]; a.Op == edit.Replace {
			lines[a.Path] = append(lines[a.Path], a.Line)
		}
	}
	sums := map[string][]int{} // each path's tree, over lines[path]
	for p, ls := range lines {
		slices.Sort(ls)
		lines[p] = slices.Compact(ls)
		sums[p] = make([]int, len(lines[p])+1)
	}
	for _, k := range order {
		a := &applied[k]
		if a.Op != edit.Replace {
			continue
		}
		ls, t := lines[a.Path], sums[a.Path]
		k, _ := slices.BinarySearch(ls, a.Line) // ls[:k] are the lines above a's
		shift := 0
		for j := k; j > 0; j -= j & -j {
			shift += t[j]
		}
		oldLine[a.Index] = a.Line - shift
		delta := syntax.CountLines(a.New) - syntax.CountLines(a.Old)
		for j := k + 1; j < len(t); j += j & -j {
			t[j] += delta
		}
	}
	return oldLine
}

// udiffGroup returns the hunks of one file's section that starts with the
// hunk at i: the udiff Replaces after it on the same path with only blank
// lines between them.
func (n *normalizer) udiffGroup(i int) []int {
	g := []int{i}
	for k := i + 1; k < len(n.edits); k++ {
		prev, e := n.edits[k-1], n.edits[k]
		if e.Format != edit.FormatUDiff || e.Op != edit.Replace || e.Path != prev.Path || e.Start < prev.End ||
			strings.TrimSpace(n.span(prev.End, e.Start)) != "" {
			break
		}
		g = append(g, k)
	}
	return g
}

// hunkHeader is the "@@" line of a hunk from the entry a; heading is the
// text after the closing "@@", kept from the model's header.
func (n *normalizer) hunkHeader(i int, a Applied, heading string) (string, int) {
	return hunkHeaderLine(n.oldLine[i], a, heading)
}

// hunkHeaderLine is the "@@" line of a hunk applied as a says, its old
// side at line oldStart, and the new side's start line it names.
func hunkHeaderLine(oldStart int, a Applied, heading string) (string, int) {
	b, ns := appendHunkHeader(make([]byte, 0, 32+len(heading)), oldStart, a, heading)
	return string(b), ns
}

// appendHunkHeader appends hunkHeaderLine's line to b.
func appendHunkHeader(b []byte, oldStart int, a Applied, heading string) ([]byte, int) {
	ol, nl := syntax.CountLines(a.Old), syntax.CountLines(a.New)
	os, ns := oldStart, a.Line
	if ol == 0 {
		os--
	}
	if nl == 0 {
		ns--
	}
	// Appended, not formatted: AppliedAsWritten writes one for every hunk.
	b = append(b, "@@ -"...)
	b = strconv.AppendInt(b, int64(max(os, 0)), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(ol), 10)
	b = append(b, " +"...)
	b = strconv.AppendInt(b, int64(max(ns, 0)), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(nl), 10)
	b = append(b, " @@"...)
	b = append(b, heading...)
	return b, ns
}

// udiff re-renders the hunks of one file's section, and its "---"/"+++"
// header when that names the file another way.
func (n *normalizer) udiff(g []int) {
	first := &n.edits[g[0]]
	from0, _ := n.lineRange(first.Start, first.End)
	pth := first.Path
	// The header: the "--- "/"+++ " pair right before the first hunk, when
	// no other edit (a git rename) claims it.
	hdrStart, hdr := first.Start, ""
	eol := n.eol(from0)
	if from0 >= 2 && !n.claimed(n.lines[from0-2].Start) {
		if h, ok := n.fileHeaderAt(from0 - 2); ok {
			hdrStart = n.lines[from0-2].Start
			hdr = n.span(hdrStart, first.Start)
			if (h.OldPath != pth || h.NewPath != pth) && simplePath(pth) {
				hdr = "--- a/" + pth + eol + "+++ b/" + pth + eol
			}
		}
	}
	var b strings.Builder
	b.WriteString(hdr)
	var want []edit.Edit
	changed := false
	for k, i := range g {
		e := &n.edits[i]
		if k > 0 {
			b.Write(n.src[n.edits[g[k-1]].End:e.Start])
		}
		region := n.span(e.Start, e.End)
		a, ok := n.plain(i)
		if !ok {
			b.WriteString(region)
			want = append(want, *e)
			if len(n.by[i]) > 0 {
				changed = true // a fixer's edits: only the canonical form can say them
			}
			continue
		}
		from, _ := n.lineRange(e.Start, e.End)
		heading, body := "", ""
		if t := n.lines[from].Text; syntax.IsHunkHeader(t) {
			if _, rest, ok := strings.Cut(strings.TrimPrefix(t, "@@"), "@@"); ok {
				heading = rest
			}
			body = n.span(n.lineEnd(from), e.End)
		} else {
			body = region
		}
		if !n.unchanged(i, a) {
			r, ok := renderLines(lineDiff(a.Old, a.New), n.eol(from), true)
			if !ok {
				b.WriteString(region)
				want = append(want, *e)
				n.keep(i) // left as written: say so
				continue
			}
			body = r
		}
		h, hint := n.hunkHeader(i, a, heading)
		b.WriteString(h + n.eol(from))
		b.WriteString(body)
		w := *e
		w.Old, w.New, w.Hint = withEOL(a.Old, n.eol(from)), withEOL(a.New, n.eol(from)), hint
		if n.unchanged(i, a) {
			w.Old, w.New = e.Old, e.New
		}
		want = append(want, w)
	}
	text := b.String()
	last := n.edits[g[len(g)-1]]
	if !changed && text == n.span(hdrStart, last.End) {
		// The section as rendered is the section as sent, which Parse
		// read as these edits: it keeps its bytes, whatever it would
		// read as cut out of the response.
		return
	}
	check := text
	if hdr == "" {
		check = "--- a/" + pth + "\n+++ b/" + pth + "\n" + text
	}
	if simplePath(pth) || hdr != "" {
		if readsBackAs(check, edit.FormatUDiff, want...) && !changed {
			n.replace(hdrStart, last.End, text)
			return
		}
	}
	// The canonical form replaces the whole section, header included (a
	// "diff --git" line and git's extended header too), so no header is
	// left without hunks.
	if hdr != "" || len(g) == 1 {
		if c, want, ok := n.canonical(g); ok {
			start := hdrStart
			if hdr != "" {
				k := from0 - 3
				for k >= 0 && syntax.IsGitHeaderLine(n.lines[k].Text) {
					k--
				}
				if k >= 0 && strings.HasPrefix(n.lines[k].Text, "diff --git ") && !n.claimed(n.lines[k].Start) {
					start = n.lines[k].Start
				}
			}
			n.replaceChecked(g, []nsplice{{start: start, end: last.End, text: c, want: want}})
			return
		}
	}
	n.keep(g...)
}

// claimed reports whether byte off lies inside some edit's region.
func (n *normalizer) claimed(off int) bool {
	for _, e := range n.edits {
		if off >= e.Start && off < e.End {
			return true
		}
	}
	return false
}

// simplePath reports whether p can stand in a "--- a/p" header as is.
func simplePath(p string) bool {
	return p != "" && !strings.ContainsAny(p, " \t\"\\\r\n") && !strings.HasPrefix(p, "/") && path.Clean(p) == p
}

// udiffFile re-renders a new file's section of a diff (a Create): the hunks
// become one hunk of its content as written.
func (n *normalizer) udiffFile(i int, a Applied) (string, bool) {
	e := &n.edits[i]
	if e.Op != edit.Create {
		return "", false
	}
	from, to := n.lineRange(e.Start, e.End)
	plus := -1
	for k := from; k < to; k++ {
		if strings.HasPrefix(n.lines[k].Text, "+++ ") {
			plus = k
			break
		}
	}
	if plus < 0 {
		return "", false
	}
	eol := n.eol(plus)
	ls := added(a.New)
	body, ok := renderLines(ls, eol, true)
	if !ok {
		return "", false
	}
	text := string(n.src[e.Start:n.lineEnd(plus)])
	if len(ls) > 0 {
		text += fmt.Sprintf("@@ -0,0 +1,%d @@", len(ls)) + eol + body
	}
	if !readsBackAs(text, edit.FormatUDiff, edit.Edit{Op: edit.Create, Path: e.Path, New: withEOL(a.New, eol), Mode: e.Mode}) {
		return "", false
	}
	return text, true
}

// codex re-renders a chunk of an *** Update File section (its "@@" anchor
// lines and "*** End of File" kept) or an *** Add File section.
func (n *normalizer) codex(i int, a Applied) (string, bool) {
	e := &n.edits[i]
	from, to := n.lineRange(e.Start, e.End)
	eol := n.eol(from)
	if e.Op == edit.Create {
		body, ok := renderLines(added(a.New), eol, false)
		if !ok {
			return "", false
		}
		text := string(n.src[e.Start:n.lineEnd(from)]) + body
		env := "*** Begin Patch\n" + text + "*** End Patch\n"
		if !readsBackAs(env, edit.FormatCodex, edit.Edit{Op: edit.Create, Path: e.Path, New: withEOL(a.New, eol)}) {
			return "", false
		}
		return text, true
	}
	if e.Op != edit.Replace {
		return "", false
	}
	body := from
	for body < to && strings.HasPrefix(n.lines[body].Text, "@@") {
		body++
	}
	end := to
	if end > body && strings.TrimRight(n.lines[end-1].Text, " \t") == "*** End of File" {
		end--
	}
	plusOnly := true
	for k := body; k < end; k++ {
		if t := n.lines[k].Text; t != "" && t[0] != '+' {
			plusOnly = false
		}
	}
	var ls []dline
	wantOld, wantNew := a.Old, a.New
	switch {
	case plusOnly && a.Old == "":
		ls = added(a.New)
	case plusOnly && strings.HasPrefix(a.New, a.Old):
		// Lines added right after the anchor, which is the old text.
		ls = added(a.New[len(a.Old):])
		wantOld, wantNew = lf(e.Old), lf(e.Old)+a.New[len(a.Old):]
	default:
		ls = lineDiff(a.Old, a.New)
	}
	r, ok := renderLines(ls, eol, false)
	if !ok || len(ls) == 0 {
		return "", false
	}
	text := string(n.src[e.Start:n.lines[body].Start]) + r + string(n.src[n.lines[end].Start:e.End])
	if end == len(n.lines) {
		text = string(n.src[e.Start:n.lines[body].Start]) + r
	}
	env := "*** Begin Patch\n*** Update File: " + e.Path + "\n" + text + "*** End Patch\n"
	want := *e
	want.Old, want.New = withEOL(wantOld, eol), withEOL(wantNew, eol)
	if !readsBackAs(env, edit.FormatCodex, want) {
		return "", false
	}
	return text, true
}

// json re-renders the JSON calls of one region: in each call, the values
// of the old and new text fields are re-encoded; keys, other fields and
// layout stay.
func (n *normalizer) json(g []int) {
	e0 := n.edits[g[0]]
	var targets []*jsonTarget
	for _, i := range g {
		if n.multi(i) {
			continue
		}
		a, ok := n.plain(i)
		e := n.edits[i]
		if !ok {
			if len(n.by[i]) > 0 {
				n.keep(i)
			}
			continue
		}
		if n.unchanged(i, a) {
			continue
		}
		if e.Op == edit.Replace && a.Old == "" && e.Old != "" {
			n.keep(i)
			continue
		}
		targets = append(targets, &jsonTarget{index: i, e: e, a: a})
	}
	if len(targets) == 0 {
		return
	}
	region := n.span(e0.Start, e0.End)
	var b strings.Builder
	last := 0
	for k := 0; k < len(region); {
		c := region[k]
		if c != '{' && c != '"' && c != '[' {
			k++
			continue
		}
		raw, _, end, err := syntax.DecodeJSONAt(region, k)
		if err != nil || len(raw) == 0 {
			k++
			continue
		}
		nt, ok := rewriteJSON(string(raw), targets, 0)
		if ok {
			b.WriteString(region[last:k])
			b.WriteString(nt)
			last = end
		}
		k = end
	}
	b.WriteString(region[last:])
	for _, t := range targets {
		if !t.done {
			n.keep(t.index)
		}
	}
	n.replace(e0.Start, e0.End, b.String())
}

// A jsonTarget is an edit whose call rewriteJSON looks for.
type jsonTarget struct {
	index int
	e     edit.Edit
	a     Applied
	done  bool
}

// rewriteJSON returns text, a JSON value, with the calls of targets
// rewritten, and whether it changed. A string that holds a JSON document
// (OpenAI's "arguments") is rewritten inside and re-encoded.
func rewriteJSON(text string, targets []*jsonTarget, depth int) (string, bool) {
	if depth > syntax.JSONMaxDepth || text == "" {
		return text, false
	}
	var reps []nsplice
	switch text[0] {
	case '"':
		var s string
		if json.Unmarshal([]byte(text), &s) != nil {
			return text, false
		}
		t := strings.TrimSpace(s)
		if t == "" || (t[0] != '{' && t[0] != '[') {
			return text, false
		}
		lead := s[:strings.Index(s, t)]
		inner, ok := rewriteJSON(t, targets, depth+1)
		if !ok {
			return text, false
		}
		return jsonQuote(lead + inner + s[len(lead)+len(t):]), true
	case '[':
		for _, m := range syntax.JSONElems(json.RawMessage(text), 0) {
			if nt, ok := rewriteJSON(string(m.Raw), targets, depth+1); ok {
				reps = append(reps, nsplice{start: m.Start, end: m.End, text: nt})
			}
		}
	case '{':
		obj := syntax.JSONObject(json.RawMessage(text), 0)
		if t := matchCall(obj, targets); t != nil {
			reps = append(reps, t.fields(obj)...)
			t.done = true
			break
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return obj[a].Start - obj[b].Start })
		for _, k := range keys {
			m := obj[k]
			if nt, ok := rewriteJSON(string(m.Raw), targets, depth+1); ok {
				reps = append(reps, nsplice{start: m.Start, end: m.End, text: nt})
			}
		}
	}
	if len(reps) == 0 {
		return text, false
	}
	slices.SortFunc(reps, func(a, b nsplice) int { return a.start - b.start })
	var b strings.Builder
	last := 0
	for _, r := range reps {
		b.WriteString(text[last:r.start])
		b.WriteString(r.text)
		last = r.end
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// matchCall returns the first pending target whose call obj is: its old
// and new text decode to the edit's.
func matchCall(obj map[string]syntax.JSONMember, targets []*jsonTarget) *jsonTarget {
	_, old, hasOld, _ := syntax.FirstField(obj, syntax.JSONOldKeys)
	_, nw, hasNew, _ := syntax.FirstField(obj, syntax.JSONInsertKeys)
	if !hasNew && !hasOld {
		return nil
	}
	for _, t := range targets {
		if t.done {
			continue
		}
		e := t.e
		sameNew := nw == e.New || (e.Op == edit.Replace && e.Old == "" && nw+"\n" == e.New)
		switch e.Op {
		case edit.Replace:
			if (old == e.Old || e.Old == "" && !hasOld) && sameNew {
				return t
			}
		case edit.Create, edit.Rewrite:
			if old == "" && sameNew {
				return t
			}
		}
	}
	return nil
}

// fields returns the replacements of the old and new values of obj.
func (t *jsonTarget) fields(obj map[string]syntax.JSONMember) []nsplice {
	var rs []nsplice
	if k, _, ok, _ := syntax.FirstField(obj, syntax.JSONOldKeys); ok && t.e.Op == edit.Replace && t.e.Old != "" {
		m := obj[k]
		rs = append(rs, nsplice{start: m.Start, end: m.End, text: jsonQuote(t.a.Old)})
	}
	if k, _, ok, _ := syntax.FirstField(obj, syntax.JSONInsertKeys); ok {
		m := obj[k]
		rs = append(rs, nsplice{start: m.Start, end: m.End, text: jsonQuote(t.a.New)})
	}
	return rs
}

// jsonQuote encodes s as a JSON string, leaving "<", ">" and "&" readable.
func jsonQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
