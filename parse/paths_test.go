package parse

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/edapply/edapply/edit"
)

// With a tree, a path written with "\" separators is the "/" file when the
// parser asks the tree about it, and a fence naming a file the tree does
// not have, beside edits in another format, is refused rather than
// created.
func TestParseTreeWindowsPathsAndQuotedNewFiles(t *testing.T) {
	var big strings.Builder
	for i := range 40 {
		big.WriteString("line " + strings.Repeat("x", i) + "\n")
	}
	tree := fstest.MapFS{
		"Controllers/HomeController.cs": &fstest.MapFile{Data: []byte(big.String())},
	}
	block := "Controllers\\HomeController.cs\n```\n<<<<<<< SEARCH\nline x\n=======\nline y\n>>>>>>> REPLACE\n```\n"
	for _, c := range []struct {
		name   string
		src    string
		edits  []string
		errors int
	}{
		{"quoteOfExistingFileWithBackslashes",
			"Here is part of it:\n\nControllers\\HomeController.cs\n```\nline x\nline xx\n```\n\n" + block,
			[]string{"replace Controllers\\HomeController.cs"}, 0},
		{"sameFileTwoSpellings",
			"Controllers\\HomeController.cs\n```\nall new\n```\n\nControllers/HomeController.cs\n```\n<<<<<<< SEARCH\nline x\n=======\nline y\n>>>>>>> REPLACE\n```\n",
			[]string{"replace Controllers/HomeController.cs"}, 0},
		{"missingFileBesideSearchReplace",
			"From the provided files:\nServices\\Cache.cs\n```\nclass Cache {}\n```\n\n" + block,
			[]string{"replace Controllers\\HomeController.cs"}, 1},
		{"newFileAmongWholeFiles",
			"Services/Cache.cs\n```\nclass Cache {}\n```\n\nServices/Store.cs\n```\nclass Store {}\n```\n",
			[]string{"rewrite Services/Cache.cs", "rewrite Services/Store.cs"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			es, errs := Parse(c.src, Options{Tree: tree})
			var got []string
			for _, e := range es {
				got = append(got, e.Op.String()+" "+e.Path)
			}
			if strings.Join(got, "|") != strings.Join(c.edits, "|") || len(errs) != c.errors {
				t.Fatalf("Parse = %q, %v; want %q and %d errors", got, errs, c.edits, c.errors)
			}
			for _, e := range errs {
				if e.Code != edit.CodeParse || e.Hint == "" {
					t.Errorf("error %v: want PARSE_ERROR with a hint", e)
				}
			}
		})
	}
}
