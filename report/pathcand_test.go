package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// A path candidate is {"path": …} alone on the wire; a line candidate
// keeps its lines, and its excerpt's "<" and "&" stay readable.
func TestJSONPathCandidate(t *testing.T) {
	res := &apply.Result{Errors: edit.ErrorList{
		{Code: edit.CodeOutOfRoot, Path: "/home/u/x/web_app/app.py", Edit: 0, Msg: "absolute path is outside the root",
			Candidates: []edit.Candidate{{Path: "web_app/app.py"}}, Hint: "Use web_app/app.py."},
		{Code: edit.CodeNoMatch, Path: "a.go", Edit: 1, Msg: "SEARCH text not found",
			Candidates: []edit.Candidate{{LineStart: 3, LineEnd: 4, Similarity: 0.9, Excerpt: "a < b && c\n"}, {LineStart: 9, LineEnd: 9}}},
	}}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, NewReceipt(res)); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		`"candidates":[{"path":"web_app/app.py"}]`,
		`"candidates":[{"line_start":3,"line_end":4,"similarity":0.9,"excerpt":"a < b && c\n"},{"line_start":9,"line_end":9,"similarity":0,"excerpt":""}]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("receipt lacks %s:\n%s", want, got)
		}
	}

	buf.Reset()
	if err := Human(&buf, res, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "candidate file web_app/app.py") {
		t.Errorf("human receipt does not name the path candidate:\n%s", buf.String())
	}
}
