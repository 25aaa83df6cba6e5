package parse

import (
	"bytes"
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// checkParse runs Parse on src with format f and asserts the invariants every
// reader must keep, whatever the input: no panic, src unmodified, valid ops,
// clean relative-looking paths, in-range lines and spans, and errors that are
// PARSE_ERRORs with a line. Fuzz targets call it.
func checkParse(t *testing.T, src []byte, f edit.Format) ([]edit.Edit, edit.ErrorList) {
	t.Helper()
	orig := bytes.Clone(src)
	edits, errs := Parse(string(src), Options{Format: f})
	if !bytes.Equal(src, orig) {
		t.Fatalf("Parse modified its input")
	}
	nlines := bytes.Count(src, []byte("\n")) + 1
	for i, e := range edits {
		if !e.Op.Valid() {
			t.Errorf("edit %d: invalid op %v", i, e.Op)
		}
		if e.Path == "" {
			t.Errorf("edit %d: empty path", i)
		}
		if p := path.Clean(e.Path); e.Path != p && !strings.HasPrefix(e.Path, "/") && !strings.Contains(e.Path, "..") && !strings.Contains(e.Path, "//") {
			t.Errorf("edit %d: path %q is not clean (want %q)", i, e.Path, p)
		}
		if e.Line < 1 || e.Line > nlines {
			t.Errorf("edit %d: line %d out of range 1..%d", i, e.Line, nlines)
		}
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			t.Errorf("edit %d: span [%d,%d) out of range 0..%d", i, e.Start, e.End, len(src))
		}
		if e.Block != i {
			t.Errorf("edit %d: Block = %d", i, e.Block)
		}
		if e.Op == edit.Replace && e.Count < 0 {
			t.Errorf("edit %d: negative count %d", i, e.Count)
		}
		checkMarks(t, i, e)
	}
	for _, err := range errs {
		var ee *edit.Error
		if !errors.As(err, &ee) || ee.Code != edit.CodeParse || ee.Line < 1 {
			t.Errorf("error %v is not a PARSE_ERROR with a line", err)
		}
	}
	return edits, errs
}

// checkMarks asserts that an edit's Marks pair its texts' lines: every
// hunk and chunk carries them, they count Old's and New's lines exactly,
// and a hunk's edge context is the kept lines they start and end with.
func checkMarks(t *testing.T, i int, e edit.Edit) {
	t.Helper()
	if e.Op == edit.Replace && (e.Format == edit.FormatUDiff || e.Format == edit.FormatCodex) && e.Marks == "" {
		t.Errorf("edit %d: a %v hunk without Marks: %+v", i, e.Format, e)
	}
	if e.Marks == "" {
		return
	}
	if e.Op != edit.Replace {
		t.Errorf("edit %d: Marks %q on a %v", i, e.Marks, e.Op)
	}
	if e.Kept(textLines(e.Old), textLines(e.New)) == nil {
		t.Errorf("edit %d: Marks %q do not count Old %q (%d lines) and New %q (%d lines)", i, e.Marks, e.Old, textLines(e.Old), e.New, textLines(e.New))
	}
	if e.Format != edit.FormatUDiff || strings.Trim(e.Marks, " ") == "" {
		return
	}
	lead := len(e.Marks) - len(strings.TrimLeft(e.Marks, " "))
	trail := len(e.Marks) - len(strings.TrimRight(e.Marks, " "))
	if lead != e.LeadContext || trail != e.TrailContext {
		t.Errorf("edit %d: Marks %q, LeadContext %d, TrailContext %d", i, e.Marks, e.LeadContext, e.TrailContext)
	}
}

// textLines counts s's lines, a last line without a newline included.
func textLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
