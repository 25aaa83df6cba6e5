package normalize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
	"github.com/edapply/edapply/parse"
)

// TestNormalize renders each format's regions from what was applied. Each
// case names the applied text per edit index; edits without an entry stay
// as written.
func TestNormalize(t *testing.T) {
	type ap = Applied
	tests := map[string]struct {
		in      string
		applied []Applied
		want    string
		kept    bool // Reply reports an edit left as written
	}{
		"searchReplace": {
			in:      "Fix:\n\na.go\n```go\n<<<<<<< SEARCH\n  x := 1  \n=======\n  x := 2\n>>>>>>> REPLACE\n```\nDone.\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "\tx := 1\n", New: "\tx := 2\n", Line: 3}},
			want:    "Fix:\n\na.go\n```go\n<<<<<<< SEARCH\n\tx := 1\n=======\n\tx := 2\n>>>>>>> REPLACE\n```\nDone.\n",
		},
		"searchReplaceInherited": {
			in: "a.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nc \n=======\nd\n>>>>>>> REPLACE\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "a\n", New: "b\n", Line: 1},
				{Index: 1, Op: edit.Replace, Path: "a.go", Old: "c\n", New: "d\n", Line: 2}},
			want: "a.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n",
		},
		"searchReplaceCRLFResponse": {
			in:      "a.go\r\n<<<<<<< SEARCH\r\nx \r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "x\r\n", New: "y\r\n", Line: 1}},
			want:    "a.go\r\n<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n",
		},
		"searchReplaceFailedKept": {
			in:   "a.go\n<<<<<<< SEARCH\nx \n=======\ny\n>>>>>>> REPLACE\n",
			want: "a.go\n<<<<<<< SEARCH\nx \n=======\ny\n>>>>>>> REPLACE\n",
		},
		// The file's own text holds a divider: the block cannot carry it
		// with the model's markers, so the canonical form stands in, the
		// divider escaped with a backslash as the reader takes it.
		"searchReplaceMarkerInText": {
			in:      "doc.md\n```\n<<<<<<< SEARCH\nx \n=======\ny\n>>>>>>> REPLACE\n```\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "doc.md", Old: "x\n=======\n", New: "y\n", Line: 1}},
			want:    "doc.md\n```\n<<<<<<< SEARCH\nx\n\\=======\n=======\ny\n>>>>>>> REPLACE\n```\n",
		},
		// A file line that is a backslash and a marker cannot be said: the
		// reader drops the backslash. The edit is left as written.
		"searchReplaceEscapedMarkerInText": {
			in:      "doc.md\n```\n<<<<<<< SEARCH\nx \n=======\ny\n>>>>>>> REPLACE\n```\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "doc.md", Old: "x\n\\=======\n", New: "y\n", Line: 1}},
			want:    "doc.md\n```\n<<<<<<< SEARCH\nx \n=======\ny\n>>>>>>> REPLACE\n```\n",
			kept:    true,
		},
		"searchReplaceRepairedElsewhere": {
			in:      "a.go\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\nok\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "b.go", Old: "x\n", New: "y\n", Line: 1, Repaired: true}},
			want:    "b.go\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\nok\n",
		},
		"udiffNumbersAndHeader": {
			in: "```diff\n--- a.go.orig\n+++ a.go\n@@ -90,2 +90,2 @@ func f() {\n x\n-y\n+z\n@@ ... @@\n p  \n-q\n+r\n```\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "x\ny\n", New: "x\nz\n", Line: 2},
				{Index: 1, Op: edit.Replace, Path: "a.go", Old: "p\nq\n", New: "p\nr\n", Line: 10}},
			want: "```diff\n--- a/a.go\n+++ b/a.go\n@@ -2,2 +2,2 @@ func f() {\n x\n-y\n+z\n@@ -10,2 +10,2 @@\n p\n-q\n+r\n```\n",
		},
		"udiffShiftedOldSide": {
			in: "--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,2 @@\n a\n+b\n@@ -5,1 +6,1 @@\n-c\n+d\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "a\n", New: "a\nb\n", Line: 1},
				{Index: 1, Op: edit.Replace, Path: "a.go", Old: "c\n", New: "d\n", Line: 6}},
			want: "--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,2 @@\n a\n+b\n@@ -5,1 +6,1 @@\n-c\n+d\n",
		},
		"udiffNoFinalNewline": {
			in:      "--- a/a.go\n+++ b/a.go\n@@ @@\n-x\n+y\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "x", New: "y", Line: 4}},
			want:    "--- a/a.go\n+++ b/a.go\n@@ -4,1 +4,1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n",
		},
		// The applied lines would read as a file header inside the hunk:
		// the section becomes a canonical block, header and all.
		"udiffCanonical": {
			in:      "Intro.\n--- a/q.sql\n+++ b/q.sql\n@@ @@\n-x\n+y\nBye.\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "q.sql", Old: "-- a.sql\n", New: "++ b.sql\n", Line: 1}},
			want:    "Intro.\nq.sql\n```\n<<<<<<< SEARCH\n-- a.sql\n=======\n++ b.sql\n>>>>>>> REPLACE\n```\nBye.\n",
		},
		"json": {
			in:      "Call:\n{\"path\": \"a.go\", \"old_string\": \"x  \\n\", \"new_string\": \"y\\n\", \"note\": \"<keep>\"}\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "x\n", New: "y <&>\n", Line: 1}},
			want:    "Call:\n{\"path\": \"a.go\", \"old_string\": \"x\\n\", \"new_string\": \"y <&>\\n\", \"note\": \"<keep>\"}\n",
		},
		"jsonArrayOneLine": {
			in: "[{\"path\":\"a\",\"old_str\":\"1 \\n\",\"new_str\":\"2\\n\"},{\"path\":\"a\",\"old_str\":\"3 \\n\",\"new_str\":\"4\\n\"}]\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a", Old: "1\n", New: "2\n", Line: 1},
				{Index: 1, Op: edit.Replace, Path: "a", Old: "3\n", New: "4\n", Line: 3}},
			want: "[{\"path\":\"a\",\"old_str\":\"1\\n\",\"new_str\":\"2\\n\"},{\"path\":\"a\",\"old_str\":\"3\\n\",\"new_str\":\"4\\n\"}]\n",
		},
		"jsonMultiEdit": {
			in: "{\"file_path\": \"a\", \"edits\": [\n  {\"old_string\": \"1 \\n\", \"new_string\": \"2\\n\"},\n  {\"old_string\": \"3\\n\", \"new_string\": \"4\\n\"}\n]}\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a", Old: "1\n", New: "2\n", Line: 1},
				{Index: 1, Op: edit.Replace, Path: "a", Old: "3\n", New: "4\n", Line: 3}},
			want: "{\"file_path\": \"a\", \"edits\": [\n  {\"old_string\": \"1\\n\", \"new_string\": \"2\\n\"},\n  {\"old_string\": \"3\\n\", \"new_string\": \"4\\n\"}\n]}\n",
		},
		"jsonArguments": {
			in:      "{\"function\": {\"name\": \"edit\", \"arguments\": \"{\\\"path\\\": \\\"a\\\", \\\"old_string\\\": \\\"x \\\\n\\\", \\\"new_string\\\": \\\"y\\\\n\\\"}\"}}\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a", Old: "x\n", New: "y\n", Line: 1}},
			want:    "{\"function\": {\"name\": \"edit\", \"arguments\": \"{\\\"path\\\": \\\"a\\\", \\\"old_string\\\": \\\"x\\\\n\\\", \\\"new_string\\\": \\\"y\\\\n\\\"}\"}}\n",
		},
		"codex": {
			in: "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    x = 1 \n+    x = 2\n*** Add File: b.py\n+print(1)  \n*** End Patch\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.py", Old: "    x = 1\n", New: "    x = 2\n", Line: 2},
				{Index: 1, Op: edit.Create, Path: "b.py", New: "print(1)\n"}},
			want: "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    x = 1\n+    x = 2\n*** Add File: b.py\n+print(1)\n*** End Patch\n",
		},
		"codexPlusOnly": {
			in:      "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n+    y = 2  \n*** End Patch\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.py", Old: "def f():\n", New: "def f():\n    y = 2\n", Line: 1}},
			want:    "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n+    y = 2\n*** End Patch\n",
		},
		"whole": {
			in:      "a.txt\n```\nhello  \n```\n",
			applied: []ap{{Index: 0, Op: edit.Rewrite, Path: "a.txt", New: "hello"}},
			want:    "a.txt\n```\nhello\n```\n",
		},
		// The fences after the block make the third fence, not the second,
		// close it: the rendering is read back in place, not alone.
		"wholeClosedByLaterFence": {
			in:      ".A\n```\n``` \n```\n\n````\n````",
			applied: []ap{{Index: 0, Op: edit.Rewrite, Path: ".A", New: "```\n"}},
			want:    ".A\n```\n```\n```\n\n````\n````",
		},
		// Alone, the canonical block reads back; before those fences it
		// would take them in: the edit is left as written.
		"canonicalWholeClosedByLaterFence": {
			in:      ".A\n```\nx \n```\n\n````\n````",
			applied: []ap{{Index: 0, Op: edit.Rewrite, Path: "b.txt", New: "```\n", Repaired: true}},
			want:    ".A\n```\nx \n```\n\n````\n````",
			kept:    true,
		},
		// A line that ends in CR: the reader would take the CR for part of
		// a CRLF ending, so no block can say it.
		"wholeLineEndingInCR": {
			in:      ".A\n```\n\r\r\r \n```\n",
			applied: []ap{{Index: 0, Op: edit.Rewrite, Path: ".A", New: "\r\r\r\n"}},
			want:    ".A\n```\n\r\r\r \n```\n",
			kept:    true,
		},
		"searchReplaceLineEndingInCR": {
			in:      "a.go\n<<<<<<< SEARCH\nx\n=======\ny\r \n>>>>>>> REPLACE\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.go", Old: "x\n", New: "y\r\r\n", Line: 1}},
			want:    "a.go\n<<<<<<< SEARCH\nx\n=======\ny\r \n>>>>>>> REPLACE\n",
			kept:    true,
		},
		"createSearchReplace": {
			in:      "new.txt\n```\n<<<<<<< SEARCH\n=======\nhi \n>>>>>>> REPLACE\n```\n",
			applied: []ap{{Index: 0, Op: edit.Create, Path: "new.txt", New: "hi\n"}},
			want:    "new.txt\n```\n<<<<<<< SEARCH\n=======\nhi\n>>>>>>> REPLACE\n```\n",
		},
		// An XML tool call is never rendered again: a write whose file
		// kept no final newline reads as sent, and a search matched
		// loosely is left as written, the edit named in the error.
		"xmlWriteNoFinalNewline": {
			in:      "<write_to_file>\n<path>a.txt</path>\n<content>\na\nb\n</content>\n</write_to_file>\n",
			applied: []ap{{Index: 0, Op: edit.Rewrite, Path: "a.txt", New: "a\nb"}},
			want:    "<write_to_file>\n<path>a.txt</path>\n<content>\na\nb\n</content>\n</write_to_file>\n",
		},
		"xmlSearchMatchedLoosely": {
			in:      "<search_and_replace>\n<path>a.py</path>\n<search>x = 1</search>\n<replace>x = 2</replace>\n</search_and_replace>\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a.py", Old: "x  = 1", New: "x = 2", Line: 1}},
			want:    "<search_and_replace>\n<path>a.py</path>\n<search>x = 1</search>\n<replace>x = 2</replace>\n</search_and_replace>\n",
			kept:    true,
		},
		"replaceAllLeft": {
			in:      "{\"path\": \"a\", \"old_string\": \"x \", \"new_string\": \"y\", \"replace_all\": true}\n",
			applied: []ap{{Index: 0, Op: edit.Replace, Path: "a", Old: "x", New: "y", Line: 1}},
			want:    "{\"path\": \"a\", \"old_string\": \"x \", \"new_string\": \"y\", \"replace_all\": true}\n",
			kept:    true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := parse.Parse(tc.in, parse.Options{})
			if len(errs) > 0 {
				t.Fatalf("Parse: %v", errs.Err())
			}
			got, err := Reply([]byte(tc.in), edits, tc.applied)
			if (err != nil) != tc.kept {
				t.Errorf("Reply error = %v, want kept %v", err, tc.kept)
			}
			if string(got) != tc.want {
				t.Errorf("Reply =\n%s\nwant\n%s", got, tc.want)
			}
			if tc.kept {
				return
			}
			// What is rendered reads back as what was applied.
			back, errs := parse.Parse(string(got), parse.Options{})
			if len(errs) > 0 || len(back) != len(edits) {
				t.Fatalf("normalized output parses to %d edits, %v", len(back), errs.Err())
			}
			for _, a := range tc.applied {
				b := back[a.Index]
				old := strings.ReplaceAll(b.Old, "\r\n", "\n")
				if b.Op == edit.Replace && old != strings.ReplaceAll(a.Old, "\r\n", "\n") && !strings.HasPrefix(a.New, a.Old) {
					t.Errorf("edit %d reads back with Old %q, want %q", a.Index, b.Old, a.Old)
				}
			}
		})
	}
}

func TestNormalizeBadIndex(t *testing.T) {
	src := []byte("a\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n")
	edits, _ := parse.Parse(string(src), parse.Options{})
	if _, err := Reply(src, edits, []Applied{{Index: 3}}); err == nil {
		t.Error("Reply with an out-of-range index: no error")
	}
}

// TestLineShifts checks lineShifts against its definition, summed edit by
// edit: a hunk's old-side line is its line less what the earlier edits
// above it in the same file added.
func TestLineShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 200 {
		var applied []Applied
		for i := range rng.IntN(40) {
			a := Applied{Index: i, Op: edit.Replace, Path: []string{"a", "b"}[rng.IntN(2)], Line: 1 + rng.IntN(30),
				Old: strings.Repeat("x\n", rng.IntN(4)), New: strings.Repeat("y\n", rng.IntN(4))}
			if rng.IntN(10) == 0 {
				a.Op = edit.Create
			}
			applied = append(applied, a)
		}
		rng.Shuffle(len(applied), func(i, j int) { applied[i], applied[j] = applied[j], applied[i] })
		n := &normalizer{edits: make([]edit.Edit, len(applied))}
		n.lineShifts(applied)
		want := make([]int, len(applied))
		for i, a := range applied {
			if a.Op != edit.Replace {
				continue
			}
			shift := 0
			for _, b := range applied {
				if b.Op == edit.Replace && b.Index < a.Index && b.Path == a.Path && b.Line < a.Line {
					shift += syntax.CountLines(b.New) - syntax.CountLines(b.Old)
				}
			}
			want[applied[i].Index] = a.Line - shift
		}
		if !slices.Equal(n.oldLine, want) {
			t.Fatalf("round %d: lineShifts = %v, want %v", round, n.oldLine, want)
		}
	}
}
