// Package testtree writes the working trees that tests of apply and of
// its internal packages edit: one copy of each fixture for every package
// that tests path resolution.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// A Tree maps slash-separated paths to file contents.
type Tree map[string]string

// Write writes tr under dir, making the directories its paths need.
func Write(t testing.TB, dir string, tr Tree) {
	t.Helper()
	for name, content := range tr {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Web is a web project as a model sees it, for the tests of the files a
// wrong path probably means.
var Web = Tree{
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

// EscapeSandbox makes a tree at sandbox/o1/o2/tree with files and a
// directory beside it, outside, and symlinks in it that point out and in.
func EscapeSandbox(t testing.TB) (sandbox, root string) {
	t.Helper()
	sandbox = t.TempDir()
	root = filepath.Join(sandbox, "o1", "o2", "tree")
	Write(t, sandbox, Tree{
		"o1/secret.txt":         "secret\n",
		"o1/o2/outdir/x":        "x\n",
		"o1/o2/tree/a.txt":      "a\n",
		"o1/o2/tree/target.txt": "target\n",
		"o1/o2/tree/sub/s.txt":  "s\n",
	})
	for link, target := range map[string]string{
		"out":         filepath.Join(sandbox, "o1/secret.txt"),
		"outrel":      "../../secret.txt",
		"dangling":    "../../nothing.txt",
		"danglingAbs": filepath.Join(sandbox, "nothing.txt"),
		"outdir":      "../outdir",
		"sub/up":      "../../outdir",
		"loop":        "loop",
		"link":        "target.txt",
		"sub/link2":   "../target.txt",
		"absin":       filepath.Join(root, "target.txt"),
		"newlink":     "sub/new.txt",
		"subdir":      "sub",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return sandbox, root
}

// OpenRoot opens dir as an os.Root closed when the test ends.
func OpenRoot(t testing.TB, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
