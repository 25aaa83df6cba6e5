package parse

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func TestParseCodex(t *testing.T) {
	env := func(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }
	tests := map[string]struct {
		in   string
		want []edit.Edit
		errs int
	}{
		"update": {
			in:   env("*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", Old: "    return 1\n", New: "    return 2\n", Count: 1, Anchors: []string{"def f():"}, Marks: "-+"}},
		},
		"closedAnchor": {
			in:   env("*** Update File: a.py\n@@ def f(): @@\n-    return 1\n+    return 2\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", Old: "    return 1\n", New: "    return 2\n", Count: 1, Anchors: []string{"def f():"}, Marks: "-+"}},
		},
		"firstChunkWithoutAt": {
			in:   env("*** Update File: a.py\n x\n-y\n+z\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", Old: "x\ny\n", New: "x\nz\n", Count: 1, Marks: " -+"}},
		},
		"plusOnlyAfterAnchor": {
			in:   env("*** Update File: a.py\n@@ import os\n+import sys\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", Old: "import os\n", New: "import os\nimport sys\n", Count: 1, Marks: " +"}},
		},
		"plusOnlyAnchoredAtEOF": {
			in:   env("*** Update File: a.py\n@@ class A:\n+x = 1\n*** End of File\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", New: "x = 1\n", Count: 1, Anchors: []string{"class A:"}, AtEOF: true, Marks: "+"}},
		},
		"indentedDirectives": {
			in:   "  *** Begin Patch\n  *** Delete File: x.txt\n  *** End Patch\n",
			want: []edit.Edit{{Op: edit.Delete, Path: "x.txt"}},
		},
		"moveOnly": {
			in:   env("*** Update File: a\n*** Move to: b/c\n"),
			want: []edit.Edit{{Op: edit.Rename, Path: "a", New: "b/c"}},
		},
		"pathWithSpace": {
			in:   env("*** Add File: my dir/x.md\n+hi\n"),
			want: []edit.Edit{{Op: edit.Create, Path: "my dir/x.md", New: "hi\n"}},
		},
		"addEmpty": {
			in:   env("*** Add File: empty.txt\n"),
			want: []edit.Edit{{Op: edit.Create, Path: "empty.txt"}},
		},
		"deleteListsContent": {
			in:   env("*** Delete File: a.txt\n-line one\n-line two\n"),
			want: []edit.Edit{{Op: edit.Delete, Path: "a.txt"}},
		},
		"tabContext": {
			in:   env("*** Update File: m.go\n@@\n\tx := 1\n-\ty := 2\n+\ty := 3\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "m.go", Old: "\tx := 1\n\ty := 2\n", New: "\tx := 1\n\ty := 3\n", Count: 1, Marks: " -+"}},
		},
		"keptAfterRemoved": {
			// The kept x is the second line of the two: only the marks say so.
			in:   env("*** Update File: t.txt\n@@\n-x\n x\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "t.txt", Old: "x\nx\n", New: "x\n", Count: 1, Marks: "- "}},
		},
		"blanksLostTheirSpace": {
			in:   env("*** Update File: a.py\n@@\n a\n\n-b\n+c\n\n d\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", Old: "a\n\nb\n\nd\n", New: "a\n\nc\n\nd\n", Count: 1, Marks: "  -+  "}},
		},
		"plusOnlyAppends": {
			in:   env("*** Update File: a.py\n@@\n+x\n\n+y\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", New: "x\n\ny\n", Count: 1, AtEOF: true, Marks: "+++"}},
		},
		"trailingBlanksTrimmed": {
			in:   env("*** Update File: a.py\n@@\n-x\n+y\n\n\n"),
			want: []edit.Edit{{Op: edit.Replace, Path: "a.py", Old: "x\n", New: "y\n", Count: 1, Marks: "-+"}},
		},
		"indentedEnvelope": {
			// The indented End Patch ends the chunk instead of being a context line.
			in:   "  *** Begin Patch\n  *** Update File: a\n@@\n-x\n+y\n  *** End Patch\n",
			want: []edit.Edit{{Op: edit.Replace, Path: "a", Old: "x\n", New: "y\n", Count: 1, Marks: "-+"}},
		},
		"updateNoChanges":  {in: env("*** Update File: a.py\n"), errs: 1},
		"anchorNoLines":    {in: env("*** Update File: a.py\n@@ def f():\n"), errs: 1},
		"badPath":          {in: env("*** Delete File: \n"), errs: 1},
		"unknownDirective": {in: env("*** Frobnicate File: a\n"), errs: 1},
		"truncated":        {in: "*** Begin Patch\n*** Add File: a\n+x\n", errs: 1},
		"truncatedByNext": {
			in:   "*** Begin Patch\n*** Add File: a\n+x\n*** Begin Patch\n*** Add File: b\n+y\n*** End Patch\n",
			want: []edit.Edit{{Op: edit.Create, Path: "b", New: "y\n"}},
			errs: 1,
		},
		"addRejectsContext": {in: env("*** Add File: a\n+x\n y\n"), errs: 1},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := checkParse(t, []byte(tt.in), edit.FormatCodex)
			if len(errs) != tt.errs {
				t.Errorf("Parse(%q) errors = %v, want %d", tt.in, errs, tt.errs)
			}
			if got := stripSpan(edits); !reflect.DeepEqual(got, tt.want) && (len(got) > 0 || len(tt.want) > 0) {
				t.Errorf("Parse(%q) =\n%+v\nwant\n%+v", tt.in, got, tt.want)
			}
		})
	}
}

// TestParseCodexAuto checks that envelopes win over the other readers in
// auto mode: a chunk line "--- a/x" after "+++ b/x" would start a diff.
func TestParseCodexAuto(t *testing.T) {
	src := "*** Begin Patch\n*** Update File: q.sql\n@@\n--- a/x\n+++ b/x\n*** End Patch\n"
	edits, errs := checkParse(t, []byte(src), edit.FormatAuto)
	want := []edit.Edit{{Op: edit.Replace, Path: "q.sql", Old: "-- a/x\n", New: "++ b/x\n", Count: 1, Marks: "-+"}}
	if len(errs) != 0 || !reflect.DeepEqual(stripSpan(edits), want) {
		t.Errorf("Parse = %+v, %v; want %+v", edits, errs, want)
	}
	if len(edits) == 1 && (edits[0].Format != edit.FormatCodex || edits[0].Line != 3) {
		t.Errorf("edit format %q line %d, want codex line 3", edits[0].Format, edits[0].Line)
	}
}

// TestParseCodexSkipsBrokenEnvelope checks that after an unexpected line the
// rest of the envelope is skipped, not read as a headerless diff hunk.
func TestParseCodexSkipsBrokenEnvelope(t *testing.T) {
	src := "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\nand also:\n@@ -3 +3 @@\n-p\n+q\n*** End Patch\n"
	edits, errs := checkParse(t, []byte(src), edit.FormatAuto)
	if len(edits) != 0 || len(errs) != 1 || errs[0].Line != 6 {
		t.Errorf("Parse(%q) = %+v, %v; want one error at line 6", src, edits, errs)
	}
}

// TestParseCodexErrorTakesBackItsEdits: an envelope's edits are recorded
// as they are read and taken back when it turns out broken, however many
// there were; the edits before it stay, in order, and so do those after
// it.
func TestParseCodexErrorTakesBackItsEdits(t *testing.T) {
	for _, chunks := range []int{1, editChunk - 1, editChunk + 1, 3*editChunk + 7} {
		var b strings.Builder
		b.WriteString("a.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\n")
		b.WriteString("*** Begin Patch\n")
		for i := range chunks {
			fmt.Fprintf(&b, "*** Update File: f%d.txt\n@@\n-old %d\n+new %d\n", i, i, i)
		}
		b.WriteString("and also:\n*** End Patch\n\nb.txt\n<<<<<<< SEARCH\np\n=======\nq\n>>>>>>> REPLACE\n")
		edits, errs := checkParse(t, []byte(b.String()), edit.FormatAuto)
		if len(errs) != 1 || len(edits) != 2 || edits[0].Path != "a.txt" || edits[1].Path != "b.txt" || edits[1].Block != 1 {
			t.Errorf("%d chunks: %d edits %+v, errors %v; want the two blocks' edits and one error", chunks, len(edits), edits, errs)
		}
	}
}
