package normalize

import (
	"bytes"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/golden"
	"github.com/edapply/edapply/parse"
)

// asWritten is what an applier reports for edits located exactly and
// written as sent: each Replace, Create and Rewrite found its own Old and
// wrote its own New.
func asWritten(edits []edit.Edit) []Applied {
	as := make([]Applied, 0, len(edits))
	for i, e := range edits {
		switch e.Op {
		case edit.Replace, edit.Create, edit.Rewrite:
			as = append(as, Applied{Index: i, Op: e.Op, Path: e.Path, Old: e.Old, New: e.New, Line: max(e.Hint, 1)})
		}
	}
	return as
}

// FuzzAppliedAsWritten holds AppliedAsWritten to what it promises: when it
// says the response stands as sent, rendering every edit gives the
// response byte for byte, with no edit left as written.
func FuzzAppliedAsWritten(f *testing.F) {
	golden.Seed(f, parseGoldens, "search-replace", "udiff", "json", "codex", "whole", "auto")
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, errs := parse.Parse(string(src), parse.Options{})
		if len(errs) > 0 || len(edits) == 0 {
			return
		}
		as := asWritten(edits)
		if !AppliedAsWritten(src, edits, as) {
			return
		}
		out, err := rewrite(src, edits, as)
		if err != nil || !bytes.Equal(out, src) {
			t.Fatalf("AppliedAsWritten, yet rendering gives (err %v)\n%q\nfor\n%q", err, out, src)
		}
	})
}

// TestAppliedAsWritten: the response stands as sent only when every entry
// is its edit's own text, once, with no fixer, and each diff hunk's "@@"
// line is the one its rendering would write.
func TestAppliedAsWritten(t *testing.T) {
	sr := "a.go\n```go\n<<<<<<< SEARCH\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE\n```\n\nb.go\n```go\n<<<<<<< SEARCH\ny\n=======\nz\n>>>>>>> REPLACE\n```\n"
	whole := "new.txt\n```\nhello\n```\n"
	udiff := "```diff\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n```\n"
	// The second hunk's old side is its new side less the line the first
	// added; when the first failed, the second's header is one too high.
	udiffHunks := "--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,3 @@\n x\n+w\n y\n@@ -10,2 +11,2 @@\n p\n-q\n+r\n"
	parsed := func(src string) []edit.Edit {
		t.Helper()
		edits, errs := parse.Parse(src, parse.Options{})
		if len(errs) > 0 || len(edits) == 0 {
			t.Fatalf("%q: %d edits, errors %v", src, len(edits), errs)
		}
		return edits
	}
	tests := map[string]struct {
		src    string
		change func([]Applied) []Applied
		want   bool
		// renders: the rendering is not the reply, so "as written"
		// would be wrong, not only cautious.
		renders bool
	}{
		"searchReplace":  {src: sr, want: true},
		"oneFailed":      {src: sr, change: func(as []Applied) []Applied { return as[1:] }, want: true},
		"whole":          {src: whole, want: true},
		"crlfResponse":   {src: "a.go\r\n<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n", change: func(as []Applied) []Applied { as[0].Old, as[0].New = "x\n", "y\n"; return as }, want: true},
		"udiff":          {src: udiff, want: true},
		"udiffHunks":     {src: udiffHunks, want: true},
		"udiffOneFailed": {src: udiffHunks, change: func(as []Applied) []Applied { return as[1:] }, want: false, renders: true},
		"udiffCRLF":      {src: strings.ReplaceAll(udiff, "\n", "\r\n"), want: true},
		"udiffPlainName": {src: strings.Replace(strings.Replace(udiff, "a/a.go", "a.go", 1), "b/a.go", "a.go", 1), want: true},
		"udiffHeading":   {src: strings.Replace(udiff, "+1,2 @@", "+1,2 @@ func f() {", 1), want: true},
		"udiffOtherLine": {src: udiff, change: func(as []Applied) []Applied { as[0].Line = 4; return as }, want: false, renders: true},
		"udiffCounts":    {src: strings.Replace(udiff, "-1,2 +1,2", "-1,3 +1,3", 1), want: false, renders: true},
		"udiffOtherName": {src: strings.Replace(strings.Replace(udiff, "a/a.go", "old.go", 1), "b/a.go", "a.go", 1), want: false, renders: true},
		"udiffNoCounts":  {src: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-y\n+z\n", want: false, renders: true},
		"udiffBare":      {src: "--- a/a.go\n+++ b/a.go\n@@ @@\n x\n-y\n+z\n", want: false, renders: true},
		"udiffNoHeader":  {src: "--- a/a.go\n+++ b/a.go\n x\n-y\n+z\n", want: false, renders: true},
		"udiffTolerant":  {src: udiff, change: func(as []Applied) []Applied { as[0].Old = "x\n  y\n"; return as }, want: false, renders: true},
		"udiffFixed":     {src: udiff, change: func(as []Applied) []Applied { as[0].Repaired = true; return as }, want: false},
		"otherOld":       {src: sr, change: func(as []Applied) []Applied { as[1].Old = "  y\n"; return as }, want: false},
		"otherNew":       {src: sr, change: func(as []Applied) []Applied { as[0].New = "x := 3\n"; return as }, want: false},
		"repaired":       {src: sr, change: func(as []Applied) []Applied { as[0].Repaired = true; return as }, want: false},
		"twice":          {src: sr, change: func(as []Applied) []Applied { return append(as, as[0]) }, want: false},
		"otherPath":      {src: sr, change: func(as []Applied) []Applied { as[0].Path = "c.go"; return as }, want: false},
		"noSuchEdit":     {src: sr, change: func(as []Applied) []Applied { as[0].Index = 9; return as }, want: false},
		"replaceAllEdit": {src: sr, change: func(as []Applied) []Applied { return as }, want: false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits := parsed(tt.src)
			if name == "replaceAllEdit" {
				edits[0].Count = 0
			}
			as := asWritten(edits)
			if tt.change != nil {
				as = tt.change(as)
			}
			if got := AppliedAsWritten([]byte(tt.src), edits, as); got != tt.want {
				t.Fatalf("AppliedAsWritten = %v, want %v", got, tt.want)
			}
			if !tt.want {
				if out, _ := rewrite([]byte(tt.src), edits, as); tt.renders && string(out) == tt.src {
					t.Fatalf("rendering gives the reply as sent")
				}
				return
			}
			out, err := rewrite([]byte(tt.src), edits, as)
			if err != nil || string(out) != tt.src {
				t.Fatalf("rendering gives %q (err %v), want the response as sent", out, err)
			}
			if got, err := Reply([]byte(tt.src), edits, as); err != nil || string(got) != tt.src {
				t.Fatalf("Reply = %q (err %v)", got, err)
			}
			// Reply takes the shortcut: it allocates less than the
			// rendering alone.
			src := []byte(tt.src)
			short := testing.AllocsPerRun(20, func() { _, _ = Reply(src, edits, as) })
			full := testing.AllocsPerRun(20, func() { _, _ = rewrite(src, edits, as) })
			if short >= full {
				t.Fatalf("Reply made %v allocations, the rendering %v: it rendered", short, full)
			}
		})
	}
}
