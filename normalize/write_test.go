package normalize

import (
	"bytes"
	"errors"
	pathpkg "path"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/golden"
	"github.com/edapply/edapply/internal/syntax"
	"github.com/edapply/edapply/parse"
)

// sameEdit compares what Write promises to keep.
func sameEdit(a, b edit.Edit) bool {
	return a.Op == b.Op && a.Path == b.Path && a.Old == b.Old && a.New == b.New && a.Count == b.Count
}

func TestWriteRoundTrip(t *testing.T) {
	r := func(p, o, n string) edit.Edit { return edit.Edit{Op: edit.Replace, Path: p, Old: o, New: n, Count: 1} }
	tests := map[string][]edit.Edit{
		"one":      {r("a.go", "x\n", "y\n")},
		"several":  {r("a.go", "x\n", "y\n"), r("a.go", "y\n", "z\n"), {Op: edit.Create, Path: "b/c.py", New: "print(1)\n"}},
		"delete":   {r("a.go", "x\ny\n", "")},
		"create0":  {{Op: edit.Create, Path: "empty.txt"}},
		"crlf":     {r("w.c", "a\r\nb\r\n", "c\r\n")},
		"fences":   {r("README.md", "```go\nx\n```\n", "````\ny\n````\n")},
		"setext":   {r("a.md", "T\n=====\n", "T\n=========\n")},
		"conflict": {r("v.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n", "b\n")},
		"showsSR":  {r("doc.md", "<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n", "none\n")},
		"extless":  {r("bin/run", "a\n", "b\n"), r("run", "a\n", "b\n"), r("Makefile", "a\n", "b\n")},
		"escape":   {r("../x.go", "a\n", "b\n"), r("/etc/x", "a\n", "b\n")},
		"rooLines": {r("roo.md", ":start_line:3\n-------\nx\n", "y\n"), r("roo.md", ":end_line:4\nz\n", "w\n")},
		"clineSR":  {r("doc.md", "------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE\n", "none\n")},
		// Marker lines that would split or close the block are written
		// with a backslash before them, which the reader drops.
		"sevenEq":    {r("a.md", "Install\n=======\n", "x\n")},
		"unbalanced": {r("a.go", ">>>>>>> REPLACE\n", "x\n")},
		"opener":     {r("a.go", "<<<<<<< SEARCH\n", "x\n"), r("b.go", "x\n", "------- SEARCH\n=======\n")},
		"rooInNew":   {r("a.go", "x\n", ":start_line:3\n-------\ny\n")},
	}
	for name, edits := range tests {
		var buf bytes.Buffer
		if err := Write(&buf, edits); err != nil {
			t.Errorf("%s: Write: %v", name, err)
			continue
		}
		got, errs := parse.Parse(buf.String(), parse.Options{Format: edit.FormatSearchReplace})
		if len(errs) != 0 || len(got) != len(edits) {
			t.Errorf("%s: Parse(Write) = %d edits, %v; want %d edits\n%s", name, len(got), errs, len(edits), buf.String())
			continue
		}
		for i := range edits {
			if !sameEdit(got[i], edits[i]) {
				t.Errorf("%s: edit %d = %+v; want %+v\n%s", name, i, got[i], edits[i], buf.String())
			}
		}
		// The auto-detector must read the canonical form the same way.
		if auto, errs := parse.Parse(buf.String(), parse.Options{}); len(errs) != 0 || len(auto) != len(edits) {
			t.Errorf("%s: Parse(Write, auto) = %d edits, %v", name, len(auto), errs)
		}
	}
}

func TestWriteRewrite(t *testing.T) {
	e := edit.Edit{Op: edit.Rewrite, Path: "docs/a.md", New: "# A\n\n```go\nx\n```\n"}
	var buf bytes.Buffer
	if err := Write(&buf, []edit.Edit{e}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []edit.Format{edit.FormatWhole, edit.FormatAuto} {
		got, errs := parse.Parse(buf.String(), parse.Options{Format: f})
		if len(errs) != 0 || len(got) != 1 || !sameEdit(got[0], e) {
			t.Errorf("Parse(Write(rewrite), %v) = %+v, %v\n%s", f, got, errs, buf.String())
		}
	}
}

func TestWriteErrors(t *testing.T) {
	tests := map[string]edit.Edit{
		"delete":    {Op: edit.Delete, Path: "a.go"},
		"rename":    {Op: edit.Rename, Path: "a.go", New: "b.go"},
		"count0":    {Op: edit.Replace, Path: "a.go", Old: "x\n", New: "y\n"},
		"anchors":   {Op: edit.Replace, Path: "a.go", Old: "x\n", New: "y\n", Count: 1, Anchors: []string{"func f() {"}},
		"noNewline": {Op: edit.Replace, Path: "a.go", Old: "x", New: "y", Count: 1},
		"emptyOld":  {Op: edit.Replace, Path: "a.go", Old: "", New: "y\n", Count: 1},
		"space":     {Op: edit.Replace, Path: "a `b.go", Old: "x\n", New: "y\n", Count: 1},
		// A backslash before a marker line is dropped when read, so a
		// file line that is one cannot be said.
		"escapedEq": {Op: edit.Replace, Path: "a.md", Old: "Install\n\\=======\n", New: "x\n", Count: 1},
		"escapedSR": {Op: edit.Replace, Path: "a.go", Old: "x\n", New: "\\>>>>>>> REPLACE\n", Count: 1},
		"rewriteSR": {Op: edit.Rewrite, Path: "a.md", New: "<<<<<<< SEARCH\n"},
	}
	for name, e := range tests {
		var buf bytes.Buffer
		err := Write(&buf, []edit.Edit{{Op: edit.Create, Path: "ok.go", New: "x\n"}, e})
		if !errors.Is(err, ErrInexpressible) {
			t.Errorf("%s: Write(%+v) = %v; want ErrInexpressible", name, e, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: Write wrote %q before failing", name, buf.String())
		}
	}
}

// parseGoldens holds the parser's golden cases, whose replies seed the
// fuzzers.
const parseGoldens = "../parse/testdata"

// FuzzWriteParsed: every edit the SEARCH/REPLACE reader reads survives
// the canonical writer. The edit came from marker lines, so the writer
// can always put it back.
func FuzzWriteParsed(f *testing.F) {
	golden.Seed(f, parseGoldens, "search-replace")
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, _ := parse.Parse(string(src), parse.Options{Format: edit.FormatSearchReplace})
		for _, e := range edits {
			var buf bytes.Buffer
			if err := Write(&buf, []edit.Edit{e}); err != nil {
				t.Fatalf("Write(%+v) = %v", e, err)
			}
			got, errs := parse.Parse(buf.String(), parse.Options{Format: edit.FormatSearchReplace})
			if len(errs) != 0 || len(got) != 1 || !sameEdit(got[0], e) {
				t.Fatalf("Parse(Write(%+v)) = %+v, %v", e, got, errs)
			}
		}
	})
}

// FuzzRoundTrip writes a Replace (or, with an empty old text, a Create)
// and parses it back: Write either refuses or the edit comes back the same.
// Plain text, with no marker-like line, is never refused.
func FuzzRoundTrip(f *testing.F) {
	f.Add("a.go", "x\n", "y\n")
	f.Add("docs/a.md", "```\nx\n```\n", "T\n=====\n")
	f.Add("v.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n", "")
	f.Add("w.c", "a\r\n", "b\r\n")
	f.Fuzz(func(t *testing.T, path, old, nw string) {
		e := edit.Edit{Op: edit.Replace, Path: path, Old: old, New: nw, Count: 1}
		if old == "" {
			e = edit.Edit{Op: edit.Create, Path: path, New: nw}
		}
		var buf bytes.Buffer
		err := Write(&buf, []edit.Edit{e})
		if err != nil {
			if plainText(path, old) && plainText(path, nw) {
				t.Fatalf("Write(%+v) = %v; want no error for plain text", e, err)
			}
			return
		}
		got, errs := parse.Parse(buf.String(), parse.Options{Format: edit.FormatSearchReplace})
		if len(errs) != 0 || len(got) != 1 || !sameEdit(got[0], e) {
			t.Fatalf("Parse(Write(%+v)) = %+v, %v\n%s", e, got, errs, buf.String())
		}
	})
}

// plainText reports whether text is something Write must always accept for a
// simple path: whole lines and no line that could be a marker.
func plainText(path, text string) bool {
	if c, ok := syntax.CleanPath(path); !ok || c != path || pathpkg.Clean(path) != path || !strings.Contains(path, "/") || strings.Contains(path, "..") ||
		strings.Contains(path, "//") || strings.ContainsAny(path, "{};=,!?$&()\r\n:'") {
		return false
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.ContainsAny(strings.TrimSpace(l), "<=>") {
			return false
		}
	}
	return true
}
