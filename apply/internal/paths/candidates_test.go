package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A web project as a model sees it, for the path tests below.
var webTree = tree{
	"web_app/app.py":                     "def main():\n    pass\n",
	"web_app/templates/index.html":       "<html></html>\n",
	"Controllers/CatalogController.cs":   "class CatalogController {}\n",
	"Controllers/HomeController.cs":      "class HomeController {}\n",
	"lib/util.py":                        "def helper():\n    return 42\n",
	"tests/util.py":                      "import lib\n",
	"src/pkg/a/config.go":                "package a\n",
	"src/pkg/b/config.go":                "package b\n",
	"docs/guide.md":                      "# Guide\n\nThe quick brown fox jumps.\n",
	".git/config":                        "[core]\n",
	"node_modules/left-pad/package.json": "{}\n",
}

// The walk for path candidates visits a bounded number of entries, so a
// huge tree cannot make a failing apply slow, and does not follow a
// symlink out of the root.
func TestTreeFilesBounded(t *testing.T) {
	root := t.TempDir()
	big := tree{}
	const limit = 50
	for i := range 4 * limit {
		big[fmt.Sprintf("gen/d%02d/f%03d.txt", i%20, i)] = ""
	}
	big["top.txt"] = ""
	writeTree(t, root, big)
	r := openRoot(t, root)
	files := treeFiles(r, limit)
	if len(files) >= limit {
		t.Errorf("walk listed %d files, want fewer than %d", len(files), limit)
	}
	if !slices.Contains(files, "top.txt") {
		t.Errorf("walk missed top.txt, nearest the root")
	}
}

func TestTreeFilesStaysInRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	writeTree(t, dir, tree{"outside/only_outside.py": "x\n", "tree/in.py": "y\n", "tree/.hg/store.py": ""})
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(root, "ext")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("in.py", filepath.Join(root, "alias.py")); err != nil {
		t.Fatal(err)
	}
	files := treeFiles(openRoot(t, root), maxWalk)
	if !slices.Equal(files, []string{"in.py"}) {
		t.Errorf("treeFiles = %q, want only in.py", files)
	}
}

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// The search for files holding an edit's text reads within one budget per
// apply: once it is spent, later failing edits read nothing.
func TestHoldingTextBudget(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, webTree)
	r := openRoot(t, root)
	ix := &Index{files: treeFiles(r, maxWalk), budget: maxScanTotal}
	if got := holdingText(r, ix, "The quick brown fox"); !slices.Equal(got, []string{"docs/guide.md"}) {
		t.Fatalf("holdingText = %q, want docs/guide.md", got)
	}
	ix.budget = 10 // less than any file holding the text
	if got := holdingText(r, ix, "The quick brown fox"); got != nil || ix.budget != 0 {
		t.Errorf("holdingText past the budget = %q (budget %d), want nothing read", got, ix.budget)
	}
}

// Many failing edits against a tree of many small files share the budget:
// once it is spent, no file is looked at again, and a search cut short
// names nothing rather than the files it happened to reach.
func TestHoldingTextBudgetCountsFiles(t *testing.T) {
	root := t.TempDir()
	big := tree{}
	for i := range 40 {
		big[fmt.Sprintf("d/f%02d.txt", i)] = "hay and more hay\n"
	}
	big["d/f00.txt"] = "needle\n" // the first looked at: reached, but the search is cut short after it
	writeTree(t, root, big)
	r := openRoot(t, root)
	ix := &Index{files: treeFiles(r, maxWalk), budget: 10 * scanFileCost}
	if got := holdingText(r, ix, "needle"); got != nil {
		t.Errorf("holdingText cut short = %q, want nothing", got)
	}
	if ix.budget != 0 {
		t.Errorf("budget left = %d, want it spent", ix.budget)
	}
}
