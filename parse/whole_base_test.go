package parse

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/edapply/edapply/edit"
)

// dirCounter counts the files the walk opens: the directories it lists.
type dirCounter struct {
	fstest.MapFS
	opens int
}

func (c *dirCounter) Open(name string) (fs.File, error) {
	c.opens++
	return c.MapFS.Open(name)
}

// Many fences named by a bare base name cost one walk of the tree, not
// one each.
func TestUniqueBaseWalksOnce(t *testing.T) {
	const fences = 300
	tree := &dirCounter{MapFS: fstest.MapFS{}}
	var b strings.Builder
	for i := range fences {
		tree.MapFS[fmt.Sprintf("src/d%03d/f%03d.js", i, i)] = &fstest.MapFile{Data: []byte("old\n")}
		fmt.Fprintf(&b, "Then, update `f%03d.js` as follows:\n\n```js\nnew\n```\n\n", i)
	}
	edits, errs := Parse(b.String(), Options{Format: edit.FormatWhole, Tree: tree})
	if len(errs) != 0 || len(edits) != fences {
		t.Fatalf("%d edits, errors %v; want %d", len(edits), errs.Err(), fences)
	}
	for i, e := range edits {
		if want := fmt.Sprintf("src/d%03d/f%03d.js", i, i); e.Path != want {
			t.Fatalf("edit of %q, want %s", e.Path, want)
		}
	}
	if dirs := fences + 2; tree.opens > dirs {
		t.Errorf("%d fences opened %d directories, want one walk of the tree's %d", fences, tree.opens, dirs)
	}
}

// A walk cut short by its budget names no file by base name, even one it
// found once: the tree may hold another of that name past the cut.
func TestUniqueBaseCutNamesNothing(t *testing.T) {
	tr := fstest.MapFS{"a/App.js": {Data: []byte("old\n")}, "z/App.js": {Data: []byte("other\n")}}
	for i := range 100 {
		tr[fmt.Sprintf("m/f%03d.txt", i)] = &fstest.MapFile{}
	}
	reply := "Then, update `App.js` as follows:\n\n```js\nnew\n```\n"
	defer func(f func(int) int) { baseWalkBudget = f }(baseWalkBudget)
	baseWalkBudget = func(int) int { return 60 } // half of m/ at most: z/ is reached too
	if edits, errs := Parse(reply, Options{Format: edit.FormatWhole, Tree: tr}); len(edits) != 0 || len(errs) != 0 {
		t.Errorf("walk cut short: edits %+v, errors %v; want none", edits, errs.Err())
	}
	// The same tree with z/App.js gone, walked whole, names a/App.js.
	delete(tr, "z/App.js")
	baseWalkBudget = func(int) int { return 1000 }
	if edits, _ := Parse(reply, Options{Format: edit.FormatWhole, Tree: tr}); len(edits) != 1 || edits[0].Path != "a/App.js" {
		t.Errorf("whole walk: edits %+v, want one of a/App.js", edits)
	}
	// Cut short again, the one file it did find is still not named.
	baseWalkBudget = func(int) int { return 60 }
	tree := &dirCounter{MapFS: tr}
	if edits, _ := Parse(reply, Options{Format: edit.FormatWhole, Tree: tree}); len(edits) != 0 {
		t.Errorf("walk cut short names %+v, want nothing", edits)
	}
	if tree.opens > 3 { // the root, a/ and m/, which the budget cuts
		t.Errorf("walk within 60 units opened %d directories, want at most 3", tree.opens)
	}
}
