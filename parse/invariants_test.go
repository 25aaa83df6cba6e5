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
func checkParse(t *testing.T, src []byte, f Format) ([]edit.Edit, edit.ErrorList) {
	t.Helper()
	orig := bytes.Clone(src)
	edits, errs := Parse(src, f)
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
	}
	for _, err := range errs {
		var ee *edit.Error
		if !errors.As(err, &ee) || ee.Code != edit.CodeParse || ee.Line < 1 {
			t.Errorf("error %v is not a PARSE_ERROR with a line", err)
		}
	}
	return edits, errs
}
