package parse

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/edapply/edapply/internal/growth"
)

// TestParseTreeLinear checks that the tree's questions stay cheap: many
// ambiguous blocks, quoted fences and lenient JSON calls against a large
// file, and many one-word lines the tree is asked about. Doubling them
// must double the work (growth counts it); timing is for benchmarks.
func TestParseTreeLinear(t *testing.T) {
	type input struct {
		src  []byte
		tree fstest.MapFS
	}
	make1 := func(scale int) input {
		var file strings.Builder
		for i := 0; file.Len() < scale<<20; i++ {
			file.WriteString("line " + strconv.Itoa(i) + "\n=======\n")
		}
		var b strings.Builder
		for i := 0; b.Len() < scale<<19; i++ {
			b.WriteString("a.txt\n```\n<<<<<<< SEARCH\nline 5\n=======\nline 6\n=======\nx\n=======\ny\n>>>>>>> REPLACE\n```\n")
			b.WriteString("a.txt\n```\nline 7\n=======\n```\n")
			b.WriteString("word" + strconv.Itoa(i) + "\n```\n#!/bin/sh\n```\n")
			b.WriteString("{\"path\": \"a.txt\", \"old_string\": \"\\d\tx\", \"new_string\": \"y\"}\n")
		}
		return input{[]byte(b.String()), fstest.MapFS{"a.txt": &fstest.MapFile{Data: []byte(file.String())}}}
	}
	inputs := map[int]input{1: make1(1), 2: make1(2)}
	growth.Linear(t, "Parse with a tree", func(scale int) {
		if edits, _ := Parse(string(inputs[scale].src), Options{Tree: inputs[scale].tree}); len(edits) == 0 {
			t.Errorf("Parse: no edits")
		}
	})
}

// readCounter is a Tree that counts the files read from it.
type readCounter struct {
	fstest.MapFS
	reads int
}

func (c *readCounter) ReadFile(name string) ([]byte, error) {
	c.reads++
	return c.MapFS.ReadFile(name)
}

// TestDiffHeaderEndsHunk checks that a hunk header ends the hunk before
// it even when the file holds a line that reads the same (a document
// quoting a diff), and that telling where a well-formed diff's hunks end
// reads no file of the tree: a line of the file that lost its leading
// space is the only reason to look.
func TestDiffHeaderEndsHunk(t *testing.T) {
	doc := "a\nb\n@@ -4,2 +4,2 @@\nd\ne\n"
	tree := &readCounter{MapFS: fstest.MapFS{"notes.md": &fstest.MapFile{Data: []byte(doc)}}}
	src := "--- a/notes.md\n+++ b/notes.md\n" +
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n" +
		"@@ -4,2 +4,2 @@\n d\n-e\n+E\n"
	edits, errs := Parse(src, Options{Tree: tree})
	if len(errs) > 0 {
		t.Fatalf("Parse: %v", errs.Err())
	}
	var got []string
	for _, e := range edits {
		got = append(got, e.Old+"->"+e.New)
	}
	want := []string{"a\nb\n->a\nB\n", "d\ne\n->d\nE\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("edits = %q, want %q", got, want)
	}
	if tree.reads != 0 {
		t.Errorf("the tree was read %d times for a diff whose hunks all begin with a header", tree.reads)
	}
}

// TestBlockUnderDirectory: a block whose path line names a directory (by
// a trailing "/" or as the tree holds it) is refused saying so, naming the
// directory, rather than as a block that names no file; a word that is
// nothing in the tree still names no file.
func TestBlockUnderDirectory(t *testing.T) {
	tree := fstest.MapFS{"src/app.py": &fstest.MapFile{Data: []byte("a\n")}}
	block := "\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n"
	tests := []struct{ line, want string }{
		{"src", "SEARCH/REPLACE block is under src, a directory, not a file"},
		{"src/", "SEARCH/REPLACE block is under src, a directory, not a file"},
		{"`lib/`:", "SEARCH/REPLACE block is under lib, a directory, not a file"},
		{"nothing", "SEARCH/REPLACE block names no file"},
	}
	for _, tt := range tests {
		edits, errs := Parse(tt.line+block, Options{Tree: tree})
		if len(edits) != 0 || len(errs) != 1 || errs[0].Msg != tt.want {
			t.Errorf("%q: %d edits, errors %v; want the error %q", tt.line, len(edits), errs, tt.want)
			continue
		}
		if dir := strings.TrimRight(strings.Trim(tt.line, "`:"), "/"); tt.line != "nothing" && !strings.Contains(errs[0].Hint, "file in "+dir+",") {
			t.Errorf("%q: hint %q does not name the directory", tt.line, errs[0].Hint)
		}
	}
}
