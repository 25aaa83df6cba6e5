package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// fuzzVocab is the lines fuzzed files are built from: duplicates, blank
// lines, tabs and spaces, trailing blanks, typography and placeholders.
var fuzzVocab = []string{
	"func f() {", "\treturn nil", "}", "", "\tx := 1", "    x := 1", "\tx := 1  ", "x = “a”",
	"x = \"a\"", "// ...", "\t\tif err != nil {", "\t\t\treturn err", "\t\t}", "  ", "a\u00a0b", "caf\xe9",
}

// fuzzFile builds a file from data: each byte picks a line and its ending.
func fuzzFile(data []byte) string {
	var b strings.Builder
	for i, c := range data {
		b.WriteString(fuzzVocab[int(c)%len(fuzzVocab)])
		switch {
		case i == len(data)-1 && c&0x40 != 0: // no final newline
		case c&0x80 != 0:
			b.WriteString("\r\n")
		default:
			b.WriteString("\n")
		}
	}
	return b.String()
}

// countView counts the occurrences of p, overlapping ones included, in the
// file's LF view.
func countView(f *finder, p string) int {
	v, n := f.lfView(), 0
	for off := 0; ; {
		i := strings.Index(v[off:], p)
		if i < 0 {
			return n
		}
		n++
		off += i + 1
	}
}

// countExact counts the places the exact rung may take p in the file: its
// occurrences in the LF view, but for one that starts inside a line's
// indentation when p starts with blanks and spans lines (or adds is set:
// the new text has more lines), plus the end of a file without a final
// newline standing for p's last line ending.
func countExact(f *finder, p *pattern, adds bool) int {
	v, n := f.lfView(), 0
	indentOnly := startsBlank(p) && (len(p.lines) > 1 || adds)
	for off := 0; ; {
		i := strings.Index(v[off:], p.text)
		if i < 0 {
			break
		}
		s := off + i
		ls := strings.LastIndexByte(v[:s], '\n') + 1
		if !indentOnly || ls == s || strings.Trim(v[ls:s], " \t") != "" {
			n++
		}
		off = s + 1
	}
	if body := strings.TrimSuffix(p.text, "\n"); p.finalNL && body != "" && !strings.HasSuffix(v, "\n") && strings.HasSuffix(v, body) {
		n++
	}
	return n
}

func FuzzMatch(f *testing.F) {
	f.Add("", []byte{0, 1, 2, 3, 0, 1, 2}, uint8(0), uint8(3), "func g() {\n", uint8(0))
	f.Add("", []byte{4, 4, 132, 5, 6, 3, 9, 1}, uint8(1), uint8(2), "\ty := 2\n", uint8(2))
	f.Add("a\nb\r\nc\n", []byte{}, uint8(1), uint8(1), "B\n", uint8(1))
	f.Add("", []byte{10, 11, 12, 10, 11, 12, 7, 8, 14, 15}, uint8(0), uint8(3), "\t\tif x {\n", uint8(4))
	f.Add("x\n", []byte{0, 1, 2, 9, 1, 2}, uint8(2), uint8(1), "\treturn nil\n", uint8(0xe0))
	f.Add("", []byte{0, 1, 9, 2, 0, 1, 2}, uint8(1), uint8(0), "func f() {\n// ...\n}\n", uint8(0x80))
	f.Add("     1\tx\n     2\t\\ty := 2", []byte{0, 1, 2, 9, 1, 2}, uint8(2), uint8(1), "     1\tfunc f() {\n     2\t\tx := 1\n", uint8(0x88))
	f.Add("\\\"a\\n", []byte{4, 4, 132, 5, 6, 3, 9, 1}, uint8(1), uint8(1), "if x {\\n\\t\\ty := 2", uint8(0x88))
	f.Add("return 0", []byte{10, 11, 12, 10, 11, 12, 7, 8, 14, 15}, uint8(0), uint8(1), "if x {\n\t\t\tz()", uint8(0x88))
	f.Fuzz(func(t *testing.T, raw string, data []byte, a, n uint8, newText string, mode uint8) {
		content := raw
		if mode&1 == 0 {
			content = fuzzFile(data)
		}
		lines := indexLines(content)
		if len(lines) == 0 {
			return
		}
		if mode&0x80 != 0 {
			// Any old text, any options: no panic, and splices in bounds,
			// ascending and disjoint.
			e := &edit.Edit{Op: edit.Replace, Old: newText, New: raw, Count: int(n % 3), Hint: int(a) % (len(lines) + 2),
				AtEOF: mode&0x20 != 0}
			if mode&0x08 != 0 {
				e.Format = edit.FormatJSON // the rescues of a tool call's old text
			}
			if mode&0x40 != 0 {
				e.Anchors = []string{content[lines[int(a)%len(lines)].start:lines[int(a)%len(lines)].end]}
			}
			loc, err := locate(content, e, matchOptions{Strict: mode&0x10 != 0})
			if err == nil {
				spliced(t, content, loc)
				if loc.Status == edit.StatusAlreadyApplied && len(loc.Splices) > 0 {
					t.Fatalf("already applied with splices")
				}
			} else if err.Msg == "" || err.Hint == "" {
				t.Fatalf("error without message or hint: %+v", err)
			}
			return
		}
		first := int(a) % len(lines)
		last := min(first+int(n)%8, len(lines)-1)
		start, end := int(lines[first].start), int(lines[last].next)
		old := content[start:end]
		e := &edit.Edit{Op: edit.Replace, Old: old, New: newText, Count: 1}
		fd := newFinder(content)
		op := newPattern(old)
		if op.blank && strings.TrimSpace(op.text) == "" {
			return
		}
		loc, err := locate(content, e, matchOptions{})
		check := func(what string, e *edit.Edit, loc location, err *edit.Error, multipleOK bool) {
			if err != nil {
				switch {
				case err.Code == edit.CodeElision && (newPattern(newText).gaps > 0 || newPattern(e.Old).gaps > 0):
				case err.Code == edit.CodeMultipleMatches && multipleOK:
				case err.Code == edit.CodeNoMatch && what != "exact":
				default:
					t.Fatalf("%s: locate(%q, %q → %q) = %s: %s", what, content, e.Old, e.New, err.Code, err.Msg)
				}
				return
			}
			if loc.Status == edit.StatusAlreadyApplied {
				if len(loc.Splices) != 0 {
					t.Fatalf("%s: already applied with splices", what)
				}
				return
			}
			sp := loc.Splices
			// A placeholder at the edge of the old text may stand for no
			// line: then the match lies inside the span.
			inside := newPattern(e.Old).gaps > 0 && len(sp) == 1 && sp[0].At >= start && sp[0].end() <= end
			// Deleting a file's last line that has no newline takes the
			// newline before it, so the file stays without a final one.
			lastLine := len(sp) == 1 && sp[0].end() == end && end == len(content) && !strings.HasSuffix(content, "\n") &&
				sp[0].At < start && (content[sp[0].At:start] == "\n" || content[sp[0].At:start] == "\r\n")
			// Every place of an old text may give the same file (a line
			// of a run of equal lines removed): the first is taken.
			same := len(sp) == 1 && strings.Contains(loc.Note, "writes the same file") &&
				joined(content, sp) == content[:start]+sp[0].New+content[end:]
			if !inside && !lastLine && !same && (len(sp) != 1 || sp[0].At != start || sp[0].end() != end) {
				t.Fatalf("%s: locate(%q, %q) splices %+v, want [%d:%d]", what, content, e.Old, loc.Splices, start, end)
			}
			_ = spliced(t, content, loc)
		}
		unique := countExact(fd, op, len(newPattern(newText).lines) > len(op.lines)) == 1
		check("exact", e, loc, err, !unique)
		if !unique {
			if err == nil && loc.Status == edit.StatusApplied && !strings.Contains(loc.Note, "writes the same file") {
				t.Fatalf("ambiguous %q in %q applied: %+v", old, content, loc)
			}
			return
		}

		// Drifted copies land on the same span or nowhere.
		var trailing, indented strings.Builder
		for i, l := range op.lines {
			trailing.WriteString(l)
			if i%2 == int(mode>>1)%2 {
				trailing.WriteString(" \t")
			}
			trailing.WriteString("\n")
			if !isBlank(l) {
				indented.WriteString(strings.Repeat(" ", 1+int(mode>>2)%8))
			}
			indented.WriteString(l + "\n")
		}
		m := &matcher{f: fd, e: e, want: 1}
		for _, d := range []struct{ what, text string }{{"trailing", trailing.String()}, {"indent", indented.String()}} {
			dp := newPattern(d.text)
			if countExact(fd, dp, false) > 0 || countView(fd, dp.text) > 0 || (d.what == "indent" && len(m.search(dp, levelTrailingWS)) > 0) {
				continue // the drifted text stands elsewhere as written
			}
			de := *e
			de.Old = d.text
			loc, err := locate(content, &de, matchOptions{})
			check(d.what, &de, loc, err, true)
		}
	})
}
