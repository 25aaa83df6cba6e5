package parse

import (
	"slices"
	"strings"
	"testing"
)

// TestOptionsFile: with Options.File, the edits that name no file edit
// it, in every format that may leave the file out; the edits that name
// one keep theirs, and a block after them inherits it as before. Without
// File they stay refused, with a hint that names FileArg.
func TestOptionsFile(t *testing.T) {
	const sr = "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
	tests := map[string]struct {
		in    string
		paths []string // each edit's path, in order
	}{
		"bareBlock":       {sr, []string{"f.py"}},
		"namedBlockKeeps": {"b.py\n" + sr, []string{"b.py"}},
		// A block without a path after one with a path edits the
		// previous block's file, as it always has.
		"inheritsNamed":   {sr + "\nb.py\n" + sr + "\n" + sr, []string{"f.py", "b.py", "b.py"}},
		"hunkNoHeader":    {"```diff\n@@ -1 +1 @@\n-x\n+y\n```\n", []string{"f.py"}},
		"hunkWithHeaders": {"--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-x\n+y\n", []string{"b.py"}},
		"callNoPath":      {`{"old_string": "x", "new_string": "y"}` + "\n", []string{"f.py"}},
		"textEditorNoPath": {`{"command": "str_replace", "old_str": "x", "new_str": "y"}` + "\n",
			[]string{"f.py"}},
		"callWithPath": {`{"path": "b.py", "old_string": "x", "new_string": "y"}` + "\n", []string{"b.py"}},
		"multiEditNoPath": {`{"edits": [{"old_string": "x", "new_string": "y"}, {"old_string": "z", "new_string": "w"}]}` + "\n",
			[]string{"f.py", "f.py"}},
		"zedPairs":    {"<edits>\n<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n</edits>\n", []string{"f.py"}},
		"zedNamed":    {"b.py\n<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n", []string{"b.py"}},
		"xmlNoPath":   {"<search_and_replace>\n<search>x</search>\n<replace>y</replace>\n</search_and_replace>\n", []string{"f.py"}},
		"codexNamesA": {"*** Begin Patch\n*** Update File: b.py\n@@\n-x\n+y\n*** End Patch\n", []string{"b.py"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := Parse(tt.in, Options{File: "./f.py", FileArg: "--file PATH"})
			if len(errs) > 0 {
				t.Fatalf("Parse(%q) with File: errors %v", tt.in, errs)
			}
			var got []string
			for _, e := range edits {
				got = append(got, e.Path)
			}
			if strings.Join(got, " ") != strings.Join(tt.paths, " ") {
				t.Errorf("Parse(%q) with File = paths %q, want %q", tt.in, got, tt.paths)
			}
			if !slices.Contains(tt.paths, "f.py") {
				return // every edit names its file: nothing to refuse without File
			}
			edits, errs = Parse(tt.in, Options{FileArg: "--file PATH"})
			for _, e := range edits {
				if e.Path == "f.py" || e.Path == "" {
					t.Errorf("Parse(%q) without File read an edit of %q", tt.in, e.Path)
				}
			}
			if len(errs) == 0 || !strings.Contains(errs[0].Hint, "--file PATH") {
				t.Errorf("Parse(%q) without File = errors %v, want one whose hint names --file PATH", tt.in, errs)
			}
		})
	}
}

// TestOptionsFileArgHint: without FileArg, the hint of an edit that names
// no file names no option.
func TestOptionsFileArgHint(t *testing.T) {
	_, errs := Parse("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", Options{})
	if len(errs) != 1 || strings.Contains(errs[0].Hint, "name the file with") {
		t.Errorf("errors %v, want one whose hint names no option", errs)
	}
	_, errs = Parse("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", Options{FileArg: `apply_edits' "path"`})
	if len(errs) != 1 || !strings.HasSuffix(errs[0].Hint, `, or name the file with apply_edits' "path".`) {
		t.Errorf("errors %v, want one whose hint names apply_edits' path", errs)
	}
}
