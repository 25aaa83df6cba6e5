package parse

import (
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// Codex envelopes:
//
//	*** Begin Patch
//	*** Add File: PATH        then '+' lines: the new file's content
//	*** Delete File: PATH
//	*** Update File: PATH
//	*** Move to: NEWPATH      optional, right after Update File
//	@@ ANCHOR                 zero or more in a row (class, then method)
//	 context / -removed / +added lines
//	*** End of File           optional: the chunk before it ends the file
//	*** End Patch
//
// Lowering (the applier relies on it): a chunk is a Replace with Old =
// context and '-' lines, New = context and '+' lines, Marks = each line's
// ' ', '-' or '+' in order, Count 1, and Anchors =
// its "@@" texts, trimmed, in order (the applier searches Old after the last
// one). A chunk that only adds lines goes right after its last anchor line:
// Old is that line, New is that line and the added ones (Marks ' ' for the
// anchor line, then a '+' for each), Anchors the outer anchors. With no anchor and no context it appends to the end of the file.
// Move to is a Rename, and the chunks then edit the new path. As in diffs,
// an empty or tab-indented chunk line is context that lost its space, and
// empty lines at a chunk's end are layout unless "*** End of File" follows. Wrappers
// around the envelope (fences, "apply_patch <<'EOF'") are prose to the
// driver. An envelope with any error, a missing "*** End Patch" included,
// yields no edit: half a patch is worse than none.

// A codexReader reads Codex envelopes. While it reads one, its edits go
// to the parser as they are read, the first at index mark; an envelope
// with an error takes them back (see read). It keeps the records of the
// Update File section being read, reused by the next (see udiffReader).
type codexReader struct {
	p         *parser
	mark      int
	lastWhole bool // the parser's, before the envelope
	errs      bool
	chunks    []codexChunk
	lines     []hunkLine
}

func (r *codexReader) format() edit.Format { return edit.FormatCodex }

// starts reports whether an envelope opens at line i: "*** Begin
// Patch" at column 0, or indented (a list item) with a file directive
// after it. An indented marker alone is text: a context line quoting it,
// a heredoc in a file.
func (r *codexReader) starts(i int) bool {
	p := r.p
	t := p.lines[i].Text
	if strings.TrimSpace(t) != "*** Begin Patch" {
		return false
	}
	return strings.HasPrefix(t, "*** Begin Patch") || p.envelopeAt(i)
}

// codexDirective splits a "*** Name: arg" line; ok is false for other lines.
func codexDirective(t string) (name, arg string, ok bool) {
	t = strings.TrimSpace(t)
	rest, found := strings.CutPrefix(t, "*** ")
	if !found {
		return "", "", false
	}
	name, arg, found = strings.Cut(rest, ":")
	if !found {
		return strings.TrimSpace(rest), "", true
	}
	return strings.TrimSpace(name), strings.TrimSpace(arg), true
}

func (r *codexReader) add(e edit.Edit, from, to int) {
	r.p.add(e, edit.FormatCodex, from, to)
}

func (r *codexReader) errorf(i int, format string, args ...any) {
	r.p.errorf(lineNum(i), format, args...)
	r.errs = true
}

// read reads the envelope opening at line i. It ends at "*** End Patch"
// or at the first line that cannot belong to it.
func (r *codexReader) read(i int) int {
	p := r.p
	r.mark, r.lastWhole, r.errs = p.editCount(), p.lastWhole, false
	k := i + 1
	closed := false
loop:
	for k < len(p.lines) {
		name, arg, ok := codexDirective(p.lines[k].Text)
		switch {
		case ok && name == "End Patch":
			closed = true
			k++
			break loop
		case ok && name == "Add File":
			k = r.readAdd(k, arg)
		case ok && name == "Delete File":
			k = r.readDelete(k, arg)
		case ok && name == "Update File":
			k = r.readUpdate(k, arg)
		case strings.TrimSpace(p.lines[k].Text) == "":
			k++ // blank lines between sections
		default:
			break loop
		}
	}
	if !closed {
		if t := strings.TrimSpace(p.lines[min(k, len(p.lines)-1)].Text); k < len(p.lines) && !isFence(t) && t != "EOF" && t != "*** Begin Patch" {
			r.errorf(k, "unexpected line in *** Begin Patch envelope: %.40q", p.lines[k].Text)
			// The rest of the envelope is still the envelope's: skip to its
			// end so its chunk lines are not read as another format.
			for j := k + 1; j < len(p.lines); j++ {
				t := strings.TrimSpace(p.lines[j].Text)
				if t == "*** Begin Patch" {
					break
				}
				if t == "*** End Patch" {
					k = j + 1
					break
				}
			}
		} else {
			r.errorf(i, "*** Begin Patch envelope is not closed: the response may be truncated; resend it ending with *** End Patch")
		}
	}
	if r.errs {
		p.dropEdits(r.mark)
		p.lastWhole = r.lastWhole
	}
	return max(k, i+1)
}

// isCodexDirective reports whether t is one of the envelope's directive
// lines, indented or not: a chunk ends there even when the model indented
// the whole envelope, so its first character looks like a context line.
func isCodexDirective(t string) bool {
	name, _, ok := codexDirective(t)
	if !ok {
		return false
	}
	switch name {
	case "Begin Patch", "End Patch", "Add File", "Delete File", "Update File", "Move to", "End of File":
		return true
	}
	return false
}

func isFence(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

func (r *codexReader) path(i int, arg string) (string, bool) {
	pth, ok := syntax.DiffPath(arg, true)
	if !ok {
		r.errorf(i, "invalid path %q", arg)
	}
	return pth, ok
}

// readAdd reads an Add File section: its '+' lines are the file.
func (r *codexReader) readAdd(i int, arg string) int {
	p := r.p
	pth, ok := r.path(i, arg)
	var b strings.Builder
	k, end := i+1, i+1
	pending := 0 // blank lines seen since the last '+' line
	for ; k < len(p.lines); k++ {
		t := p.lines[k].Text
		if t == "" {
			pending++
			continue
		}
		if t[0] != '+' {
			break
		}
		// An empty line between '+' lines is an added blank line whose
		// '+' was dropped; at the end of the section it is a separator.
		for ; pending > 0; pending-- {
			b.WriteString("\n")
		}
		b.WriteString(p.rawLine(k, 1))
		end = k + 1
	}
	if ok {
		r.add(edit.Edit{Op: edit.Create, Path: pth, New: b.String()}, i, end)
	}
	return end
}

// readDelete reads a Delete File section. Models sometimes list the
// removed content as '-' lines; the directive already says what to do, so
// they are skipped rather than checked (the grammar has no content here).
func (r *codexReader) readDelete(i int, arg string) int {
	k := i + 1
	for k < len(r.p.lines) && strings.HasPrefix(r.p.lines[k].Text, "-") {
		k++
	}
	if pth, ok := r.path(i, arg); ok {
		r.add(edit.Edit{Op: edit.Delete, Path: pth}, i, k)
	}
	return k
}

// A codexChunk is one run of chunk lines and the anchors before it.
type codexChunk struct {
	from, to int // line span, the "@@" lines included
	anchors  []string
	anchor   string // the last anchor as written (leading space kept), for '+'-only chunks
	lines    []hunkLine
	atEOF    bool
}

// anchorText returns the anchor of an "@@" line: "" for a bare "@@" or a
// udiff-style "@@ -1,3 +1,4 @@", which models mix into envelopes.
func anchorText(t string) string {
	t = strings.TrimRight(t, " \t")
	rest := strings.TrimPrefix(t, "@@")
	if _, ok := parseHunkHeader(t); ok {
		return ""
	}
	if s := strings.TrimSpace(rest); s == "" || s == "@@" || strings.HasSuffix(s, "@@") && strings.Trim(s, "@. ") == "" {
		return ""
	}
	// A closing "@@" ("@@ def f(): @@") is decoration, not the line's.
	if s := strings.TrimSuffix(rest, " @@"); strings.TrimSpace(s) != "" {
		rest = s
	}
	// One separating space goes; the rest of the indentation is the line's.
	return strings.TrimPrefix(rest, " ")
}

// readUpdate reads an Update File section.
func (r *codexReader) readUpdate(i int, arg string) int {
	p := r.p
	pth, ok := r.path(i, arg)
	k := i + 1
	if k < len(p.lines) {
		if name, to, isDir := codexDirective(p.lines[k].Text); isDir && name == "Move to" {
			dst, okDst := r.path(k, to)
			if ok && okDst {
				r.add(edit.Edit{Op: edit.Rename, Path: pth, New: dst}, i, k+1)
			}
			pth, ok = dst, ok && okDst
			k++
		}
	}
	moved := k > i+1
	chunks := r.chunks[:0]
	buf := r.lines[:0]
	for k < len(p.lines) {
		if t := p.lines[k].Text; isCodexDirective(t) && strings.TrimSpace(t) != "*** End of File" {
			break
		}
		c := codexChunk{from: k}
		for ; k < len(p.lines) && strings.HasPrefix(p.lines[k].Text, "@@"); k++ {
			if a := anchorText(p.lines[k].Text); a != "" {
				c.anchors = append(c.anchors, strings.TrimSpace(a))
				c.anchor = a
			}
		}
		body := k
		// The chunk's records go on the end of the section's chunk of
		// them, as a diff hunk's do (see readHunk).
		from := len(buf)
		for ; k < len(p.lines); k++ {
			t := p.lines[k].Text
			if strings.TrimRight(t, " \t") == "*** End of File" {
				c.atEOF = true
				k++
				break
			}
			if t == "" {
				buf, from = appendHunkLine(buf, from, hunkLine{kind: ' ', text: p.rawLine(k, 0), blank: true})
				continue
			}
			if isCodexDirective(t) && !(t[0] == ' ' && strings.TrimSpace(t) == "*** Begin Patch") {
				// A context line " *** Begin Patch" is the file's text:
				// envelopes do not nest, so it cannot be a directive.
				break
			}
			switch t[0] {
			case ' ', '-', '+':
				buf, from = appendHunkLine(buf, from, hunkLine{kind: t[0], text: p.rawLine(k, 1)})
				continue
			case '\t':
				// A tab-indented context line whose leading space was dropped.
				buf, from = appendHunkLine(buf, from, hunkLine{kind: ' ', text: p.rawLine(k, 0)})
				continue
			}
			break
		}
		c.lines = buf[from:len(buf):len(buf)]
		c.to = k
		if !c.atEOF {
			// Trailing empty lines before the next directive are layout.
			h := hunk{from: c.from, to: c.to, lines: c.lines}
			h.trimTrailingBlanks()
			c.lines, c.to = h.lines, h.to
		}
		if k == c.from || body == k && len(c.anchors) == 0 && !c.atEOF {
			break // neither anchor nor chunk line: not this section's
		}
		if len(c.lines) == 0 && len(c.anchors) == 0 && !c.atEOF {
			continue // only empty lines, after "*** End of File" or between chunks: layout
		}
		if len(chunks) == cap(chunks) {
			// Doubling: the array is the reader's for the next section too.
			chunks = slices.Grow(chunks, max(len(chunks), 16))
		}
		chunks = append(chunks, c)
	}
	r.chunks, r.lines = chunks[:0], buf
	if len(chunks) == 0 && !moved {
		r.errorf(i, "*** Update File: %s has no changes", arg)
		return k
	}
	if !ok {
		return k
	}
	p.reserve(len(chunks))
	for _, c := range chunks {
		r.lowerChunk(pth, c)
	}
	return k
}

func (r *codexReader) lowerChunk(pth string, c codexChunk) {
	h := hunk{lines: c.lines}
	h.blanksAdded()
	old, nw := h.side('-'), h.side('+')
	e := edit.Edit{Op: edit.Replace, Path: pth, Old: old, New: nw, Count: 1, Anchors: c.anchors, AtEOF: c.atEOF, Marks: h.marks()}
	switch {
	case len(c.lines) == 0 && len(c.anchors) > 0 && !c.atEOF:
		r.errorf(c.from, "chunk in %s has an @@ anchor but no lines", pth)
		return
	case old != "":
	case c.atEOF || len(c.anchors) == 0:
		// Nothing to find: the added lines go at the end of the file,
		// after the anchors if there are any.
		e.AtEOF = true
	default:
		// Added lines go right after the anchor line, which is what Old
		// finds; the outer anchors narrow where to look for it.
		a := strings.TrimRight(c.anchor, " \t") + "\n"
		e.Old, e.New, e.Marks = a, a+nw, " "+e.Marks
		e.Anchors = c.anchors[:len(c.anchors)-1]
	}
	if len(e.Anchors) == 0 {
		e.Anchors = nil
	}
	if nw == "" && old == "" {
		r.errorf(c.from, "empty chunk in %s", pth)
		return
	}
	r.add(e, c.from, c.to)
}
