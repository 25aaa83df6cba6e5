package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// longFile is a file whose line 3 is n bytes of minified calls, with
// "render(view, 42)" in its middle.
func longFile(n int) string {
	var b strings.Builder
	b.WriteString("// generated\n\"use strict\";\n")
	for b.Len() < n/2 {
		b.WriteString("a.push(b[1]);c=d(e,f);")
	}
	b.WriteString("render(view, 42);")
	for b.Len() < n {
		b.WriteString("g.pop(h[2]);i=j(k,l);")
	}
	b.WriteString("\nexport default a;\n")
	return b.String()
}

// TestCandidatesLongLine: a SEARCH line that is a piece of a long line
// gets a candidate on that line (not "no line resembles"), and the
// excerpt quotes a bounded piece of the line, its cut marked.
func TestCandidatesLongLine(t *testing.T) {
	file := longFile(3 << 20)
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: "render(view, 41);\n", New: "z\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
		t.Fatalf("locate = %+v, want NO_MATCH with a candidate", err)
	}
	c := err.Candidates[0]
	if c.LineStart != 3 || c.Weak {
		t.Errorf("candidate lines %d-%d (weak %v), want line 3", c.LineStart, c.LineEnd, c.Weak)
	}
	if len(c.Excerpt) > excerptBytes+100 || !strings.Contains(c.Excerpt, "more bytes on this line)") {
		t.Errorf("excerpt of %d bytes, cut mark missing or too long: %.200q", len(c.Excerpt), c.Excerpt)
	}
	if len(err.Hint) > 1000 {
		t.Errorf("hint of %d bytes", len(err.Hint))
	}
}

// TestExcerptBudget: an excerpt quotes at most excerptLines lines and
// excerptBytes bytes, and counts what it leaves out.
func TestExcerptBudget(t *testing.T) {
	f := newFinder(strings.Repeat("line of text\n", 1000) + strings.Repeat("é", 4000) + "\n")
	ex := f.excerpt(0, 999)
	if n := strings.Count(ex, "\n"); n != excerptLines+1 || !strings.HasSuffix(ex, "… (940 more lines)\n") {
		t.Errorf("excerpt of 1000 lines has %d lines, ends %q", n, ex[len(ex)-40:])
	}
	ex = f.excerpt(1000, 1000)
	if !strings.HasSuffix(ex, "… (7488 more bytes on this line)\n") || !utf8Valid(ex) {
		t.Errorf("long line's excerpt ends %q", ex[len(ex)-40:])
	}
	// Two long lines: the second is cut to what the budget leaves.
	f = newFinder(strings.Repeat(strings.Repeat("x", 10000)+"\n", 40))
	if ex := f.excerpt(0, 39); len(ex) > excerptBytes+40*50 {
		t.Errorf("excerpt of 40 long lines is %d bytes", len(ex))
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "?") == s }
