package parse

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// stripSpan clears the fields that record where an edit came from, so table
// tests state only what the edit does.
func stripSpan(edits []edit.Edit) []edit.Edit {
	out := make([]edit.Edit, len(edits))
	for i, e := range edits {
		e.Format, e.Start, e.End, e.Block, e.Line = edit.FormatAuto, 0, 0, 0, 0
		out[i] = e
	}
	return out
}

func TestParseUDiff(t *testing.T) {
	// rep is a hunk's Replace; marks are its lines' kinds, in order.
	rep := func(p, old, nw string, hint int, marks string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: p, Old: old, New: nw, Count: 1, Hint: hint, Marks: marks}
	}
	// ctx sets the context lines before a hunk's first change and after its last.
	ctx := func(e edit.Edit, lead, trail int) edit.Edit {
		e.LeadContext, e.TrailContext = lead, trail
		return e
	}
	tests := map[string]struct {
		in   string
		want []edit.Edit
		errs int
	}{
		"numbered": {
			in:   "--- a/x.py\n+++ b/x.py\n@@ -3,2 +7,2 @@\n a\n-b\n+c\n",
			want: []edit.Edit{ctx(rep("x.py", "a\nb\n", "a\nc\n", 7, " -+"), 1, 0)},
		},
		"countsOverflow": {
			// Counts a hostile or broken header claims are no allocation.
			in:   "--- a/x.py\n+++ b/x.py\n@@ -1,9223372036854775807 +1,9223372036854775807 @@\n a\n-b\n+c\n\nDone.\n",
			want: []edit.Edit{ctx(rep("x.py", "a\nb\n", "a\nc\n", 1, " -+"), 1, 0)},
		},
		"bareAt": {
			in:   "--- x.py\n+++ x.py\n@@\n-b\n+c\n",
			want: []edit.Edit{rep("x.py", "b\n", "c\n", 0, "-+")},
		},
		"realDirA": {
			// Only the "a/"+"b/" pair is git's prefix; "a/x" on both sides is a path.
			in:   "--- a/x\n+++ a/x\n@@ @@\n-1\n+2\n",
			want: []edit.Edit{rep("a/x", "1\n", "2\n", 0, "-+")},
		},
		"origSuffix": {
			in:   "--- x.go.orig\n+++ x.go\n@@ @@\n-1\n+2\n",
			want: []edit.Edit{rep("x.go", "1\n", "2\n", 0, "-+")},
		},
		"newSuffix": {
			in:   "--- x.go\n+++ x.go.new\n@@ @@\n-1\n+2\n",
			want: []edit.Edit{rep("x.go", "1\n", "2\n", 0, "-+")},
		},
		"dotSlash": {
			in:   "--- ./x.go\n+++ ./x.go\n@@ @@\n-1\n+2\n",
			want: []edit.Edit{rep("x.go", "1\n", "2\n", 0, "-+")},
		},
		"unterminatedLastCounted": {
			// The hunk holds the lines its header counts: only the file's
			// last newline was lost.
			in:   "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2",
			want: []edit.Edit{rep("x", "1\n", "2\n", 1, "-+")},
		},
		// The reply ends inside the diff: nothing of it is applied.
		"cutMidLine":        {in: "--- a/x\n+++ b/x\n@@ @@\n-1\n+2", errs: 1},
		"cutMidLineCounted": {in: "--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n-1\n+2\n+3\n a", errs: 1},
		"cutShort":          {in: "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-1\n+2\n", errs: 1},
		"cutShortBlanks":    {in: "--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n a\n-1\n+2\n\n\n", errs: 1},
		"cutNewFile":        {in: "--- /dev/null\n+++ b/x\n@@ -0,0 +1,3 @@\n+a\n+b\n", errs: 1},
		"cutInFence":        {in: "```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n", errs: 1},
		"cutInFenceSecondFile": {
			in:   "```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n",
			errs: 1,
		},
		"shortThenFence": {
			// Models miscount: a hunk short of its counts that a fence
			// closes is whole.
			in:   "```diff\n--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-1\n+2\n```\n",
			want: []edit.Edit{rep("x", "1\n", "2\n", 1, "-+")},
		},
		"shortThenProse": {
			in:   "--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-1\n+2\n\nThat fixes it.",
			want: []edit.Edit{rep("x", "1\n", "2\n", 1, "-+")},
		},
		"shortWithElision": {
			// An elided hunk's header counts the lines "..." stands for.
			in:   "--- a/x\n+++ b/x\n@@ -1,9 +1,9 @@\n a\n ...\n-1\n+2\n",
			want: []edit.Edit{ctx(rep("x", "a\n...\n1\n", "a\n...\n2\n", 1, "  -+"), 2, 0)},
		},
		"bareFenceLeftOpen": {
			// A bare fence may close some earlier block: it says nothing.
			in:   "```\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n",
			want: []edit.Edit{rep("x", "1\n", "2\n", 1, "-+")},
		},
		"noNewlineAdded": {
			// The '+' side's marker: New ends without the newline Old has.
			in:   "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+two\n\\ No newline at end of file\n",
			want: []edit.Edit{ctx(rep("a.txt", "one\ntwo\n", "one\ntwo", 1, " -+"), 1, 0)},
		},
		"noNewlineRemoved": {
			in:   "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+two\n",
			want: []edit.Edit{ctx(rep("a.txt", "one\ntwo", "one\ntwo\n", 1, " -+"), 1, 0)},
		},
		"noNewlineBothThenAdded": {
			in:   "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n-two\n\\ No newline at end of file\n+two\n+three\n\\ No newline at end of file\n",
			want: []edit.Edit{rep("a.txt", "two", "two\nthree", 1, "-++")},
		},
		"noNewlineCRLF": {
			in:   "--- a/a.txt\r\n+++ b/a.txt\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n\\ No newline at end of file\r\n",
			want: []edit.Edit{rep("a.txt", "a\r\n", "b", 1, "-+")},
		},
		// A marker that cannot end the file would join two lines.
		"noNewlineMidContext": {in: "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n\\ No newline at end of file\n-b\n+c\n", errs: 1},
		"noNewlineMidRemoved": {in: "--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\n\\ No newline at end of file\n-b\n+c\n", errs: 1},
		"noNewlineOnEmpty":    {in: "--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+\n\\ No newline at end of file\n", errs: 1},
		"noNewlineNewFileEarlyHunk": {
			in:   "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n@@ -0,0 +2 @@\n+b\n",
			errs: 1,
		},
		"countMissingMeansOne": {
			in:   "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n\nprose\n",
			want: []edit.Edit{rep("x", "1\n", "2\n", 1, "-+")},
		},
		"countsKeepTrailingBlank": {
			in:   "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-1\n+2\n\n\nprose\n",
			want: []edit.Edit{ctx(rep("x", "1\n\n", "2\n\n", 1, "-+ "), 0, 1)},
		},
		"interiorBlankIsContext": {
			in:   "--- a/x\n+++ b/x\n@@ @@\n a\n\n-b\n+c\n",
			want: []edit.Edit{ctx(rep("x", "a\n\nb\n", "a\n\nc\n", 0, "  -+"), 2, 0)},
		},
		"insertionBlanksAreAdded": {
			in:   "--- a/x\n+++ b/x\n@@ -2,0 +3,3 @@\n+a\n\n+b\n",
			want: []edit.Edit{rep("x", "", "a\n\nb\n", 3, "+++")},
		},
		"hunkBeforeFence": {
			in:   "```diff\n--- a/x\n+++ b/x\n@@ @@\n-1\n+2\n```\n- not a line\n",
			want: []edit.Edit{rep("x", "1\n", "2\n", 0, "-+")},
		},
		"devNullBoth":       {in: "--- /dev/null\n+++ /dev/null\n@@ @@\n+x\n", errs: 1},
		"headerOnly":        {in: "--- a/x\n+++ b/x\n\nThat is all.\n", errs: 1},
		"emptyHunk":         {in: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n@@ -5 +5 @@\n-a\n+b\n", errs: 1},
		"createWithContext": {in: "--- /dev/null\n+++ b/x\n@@ @@\n a\n+b\n", errs: 1},
		"createWithRemoved": {
			// Removed lines under "--- /dev/null" say the file exists: an edit
			// of it, matched through the ladder like any hunk.
			in:   "--- /dev/null\n+++ x\n@@ ... @@\n-a\n+b\n",
			want: []edit.Edit{rep("x", "a\n", "b\n", 0, "-+")},
		},
		"gitNewFileWithRemoved": {
			// git's own "new file mode" line is not second-guessed.
			in:   "diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
			errs: 1,
		},
		"deleteAdds": {in: "--- a/x\n+++ /dev/null\n@@ @@\n-a\n+b\n", errs: 1},
		"copy":       {in: "diff --git a/x b/y\nsimilarity index 90%\ncopy from x\ncopy to y\n", errs: 1},
		"symlink":    {in: "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+target\n", errs: 1},
		"gitNoHunks": {in: "diff --git a/x b/x\nindex 1234567..89abcde 100644\n", errs: 1},
		"gitNoPrefixNames": {
			// "--- " names without "a/" keep every component.
			in:   "diff --git a/m/x.go b/m/x.go\n--- m/x.go\n+++ m/x.go\n@@ -1 +1 @@\n-1\n+2\n",
			want: []edit.Edit{rep("m/x.go", "1\n", "2\n", 1, "-+")},
		},
		"gitHeaderNoDashes": {
			in:   "diff --git a/x.txt b/x.txt\n@@ -1 +1 @@\n-1\n+2\n",
			want: []edit.Edit{rep("x.txt", "1\n", "2\n", 1, "-+")},
		},
		"renameAndMode": {
			in:   "diff --git a/x b/y\nold mode 100644\nnew mode 100755\nsimilarity index 100%\nrename from x\nrename to y\n",
			want: []edit.Edit{{Op: edit.Rename, Path: "x", New: "y", Mode: 0o755}},
		},
		"similarityRename": {
			in:   "diff --git a/p.py b/q.py\nsimilarity index 90%\n--- a/p.py\n+++ b/q.py\n@@ -1 +1 @@\n-1\n+2\n",
			want: []edit.Edit{{Op: edit.Rename, Path: "p.py", New: "q.py"}, rep("q.py", "1\n", "2\n", 1, "-+")},
		},
		"outOfRootKept": {
			in:   "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ @@\n-1\n+2\n",
			want: []edit.Edit{rep("../../etc/passwd", "1\n", "2\n", 0, "-+")},
		},
		"sqlCommentNotHeader": {
			in:   "--- a/q.sql\n+++ b/q.sql\n@@ @@\n--- note\n+++ other\n SELECT 1;\n",
			want: []edit.Edit{ctx(rep("q.sql", "-- note\nSELECT 1;\n", "++ other\nSELECT 1;\n", 0, "-+ "), 0, 1)},
		},
		"elisionNotBeforeEnd": {
			in:   "--- a/x\n+++ b/x\n@@ @@\n-1\n+2\n...\nprose\n",
			want: []edit.Edit{rep("x", "1\n", "2\n", 0, "-+")},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := checkParse(t, []byte(tt.in), edit.FormatUDiff)
			if len(errs) != tt.errs {
				t.Errorf("Parse(%q) errors = %v, want %d", tt.in, errs, tt.errs)
			}
			if got := stripSpan(edits); tt.errs == 0 && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) =\n%+v\nwant\n%+v", tt.in, got, tt.want)
			}
			if tt.errs > 0 && len(edits) > 0 {
				t.Errorf("Parse(%q) = %+v with errors, want no edit", tt.in, edits)
			}
		})
	}
}

// TestParseUDiffSpans checks that each hunk's edit points at its header line
// and spans exactly the hunk, and that prose after the diff stays outside.
func TestParseUDiffSpans(t *testing.T) {
	src := "intro\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n@@ -9 +9 @@\n-8\n+9\n\nafter\n"
	edits, errs := checkParse(t, []byte(src), edit.FormatAuto)
	if len(errs) != 0 || len(edits) != 2 {
		t.Fatalf("Parse = %+v, %v; want 2 edits", edits, errs)
	}
	for i, want := range []struct {
		line int
		span string
	}{{4, "@@ -1 +1 @@\n-1\n+2\n"}, {7, "@@ -9 +9 @@\n-8\n+9\n"}} {
		e := edits[i]
		if e.Line != want.line || src[e.Start:e.End] != want.span || e.Format != edit.FormatUDiff {
			t.Errorf("edit %d: line %d span %q format %q, want line %d span %q", i, e.Line, src[e.Start:e.End], e.Format, want.line, want.span)
		}
	}
}

// TestParseUDiffLinear guards against quadratic scanning: doubling the
// files of a diff of 10 hunks each must double the work (growth counts
// it).
func TestParseUDiffLinear(t *testing.T) {
	build := func(files int) []byte {
		var b strings.Builder
		for f := 0; f < files; f++ {
			b.WriteString("diff --git a/f" + strconv.Itoa(f) + ".py b/f" + strconv.Itoa(f) + ".py\n--- a/f" + strconv.Itoa(f) + ".py\n+++ b/f" + strconv.Itoa(f) + ".py\n")
			for h := 0; h < 10; h++ {
				b.WriteString("@@ -" + strconv.Itoa(h*10+1) + ",3 +" + strconv.Itoa(h*10+1) + ",3 @@\n ctx\n-old\n+new\n ctx\n")
			}
		}
		return []byte(b.String())
	}
	edits, errs := Parse(string(build(50)), Options{})
	if len(edits) != 500 || len(errs) != 0 {
		t.Fatalf("Parse = %d edits, %v; want 500 edits", len(edits), errs)
	}
	srcs := map[int][]byte{1: build(200), 2: build(400)}
	growth.Linear(t, "Parse of a diff", func(scale int) { Parse(string(srcs[scale]), Options{}) })
}

// sideEmpty stands in for side(kind) == "" where a hunk is judged before
// its texts are built; the two must agree, "\ No newline" markers too.
func TestHunkSideEmpty(t *testing.T) {
	line := func(kind byte, text string, noEOL bool) hunkLine {
		return hunkLine{kind: kind, text: text, noEOL: noEOL}
	}
	hunks := map[string][]hunkLine{
		"none":            nil,
		"onlyAdded":       {line('+', "a\n", false)},
		"context":         {line(' ', "a\n", false), line('+', "b\n", false)},
		"removed":         {line('-', "a\n", false)},
		"emptyNoEOL":      {line('-', "\n", true), line('+', "b\n", false)},
		"crlfNoEOL":       {line(' ', "\r\n", true)},
		"emptyThenLetter": {line('-', "\n", true), line('-', "x", true)},
		"blankContext":    {line(' ', "\n", false)},
	}
	for name, lines := range hunks {
		h := hunk{lines: lines}
		for _, kind := range []byte{'-', '+'} {
			if got, want := h.sideEmpty(kind), h.side(kind) == ""; got != want {
				t.Errorf("%s: sideEmpty(%q) = %v, side is %q", name, kind, got, h.side(kind))
			}
		}
	}
}
