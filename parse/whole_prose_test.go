package parse

import (
	"testing"
	"testing/fstest"

	"github.com/edapply/edapply/edit"
)

func TestWholeProseNamesFile(t *testing.T) {
	tree := fstest.MapFS{
		"client/src/App.js":   {Data: []byte("old\n")},
		"client/src/index.js": {Data: []byte("x\n")},
		"server/index.js":     {Data: []byte("y\n")},
		"main.go":             {Data: []byte("package main\n")},
	}
	for _, tc := range []struct {
		name  string
		reply string
		f     edit.Format
		path  string // "" : no edit
		errs  int
	}{
		{"a path in prose", "Here's the updated `handleImageChange` function in `client/src/App.js`:\n\n```js\nfunction f() {}\n```\n", edit.FormatWhole, "client/src/App.js", 0},
		{"a base name the tree holds once", "Then, update `App.js` as follows:\n\n```js\nnew\n```\n", edit.FormatWhole, "client/src/App.js", 0},
		{"a base name at the root", "Now main.go becomes:\n```go\npackage main\n```\n", edit.FormatWhole, "main.go", 0},
		{"a name ending the line", "The new version of client/src/App.js\n```js\nnew\n```\n", edit.FormatWhole, "client/src/App.js", 0},
		{"a base name the tree holds twice", "Then, update `index.js` as follows:\n\n```js\nnew\n```\n", edit.FormatWhole, "", 0},
		{"two files named", "Move code from `main.go` to `client/src/App.js`:\n\n```js\nnew\n```\n", edit.FormatWhole, "", 0},
		{"no file named", "Here's the `handleImageChange` function:\n\n```js\nnew\n```\n", edit.FormatWhole, "", 0},
		{"prose that does not introduce", "I changed `client/src/App.js` and more things here.\n\n```js\nnew\n```\n", edit.FormatWhole, "", 0},
		{"auto keeps it a quote", "Then, update `App.js` as follows:\n\n```js\nnew\n```\n", edit.FormatAuto, "", 0},
		{"cut off inside the fence", "Then, update `App.js` as follows:\n\n```js\nnew\n", edit.FormatWhole, "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edits, errs := Parse(tc.reply, Options{Format: tc.f, Tree: tree})
			if len(errs) != tc.errs {
				t.Fatalf("%d errors (%v), want %d", len(errs), errs.Err(), tc.errs)
			}
			if tc.path == "" {
				if len(edits) != 0 {
					t.Fatalf("edits %+v, want none", edits)
				}
				return
			}
			if len(edits) != 1 || edits[0].Op != edit.Rewrite || edits[0].Path != tc.path {
				t.Fatalf("edits %+v, want one rewrite of %s", edits, tc.path)
			}
			if edits[0].Tentative {
				t.Errorf("-f whole marks the rewrite tentative")
			}
		})
	}
}
