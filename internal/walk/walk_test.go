package walk

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
)

func files(fsys fstest.MapFS, limit int) []string {
	var got []string
	Files(fsys, limit, func(rel string) bool {
		got = append(got, rel)
		return true
	})
	return got
}

func TestFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"a.go":                    {},
		"src/b.go":                {},
		"src/deep/c.go":           {},
		".git/config":             {},
		"web/node_modules/x.js":   {},
		"web/app.js":              {},
		"pkg/__pycache__/m.pyc":   {},
		"docs/.cache/index.json":  {},
		"docs/guide.md":           {},
		"src/deep/deeper/last.go": {},
	}
	want := []string{"a.go", "docs/guide.md", "src/b.go", "web/app.js", "src/deep/c.go", "src/deep/deeper/last.go"}
	if got := files(fsys, 1000); !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q (breadth first, tool state and dependencies skipped)", got, want)
	}
	// Five entries: the root's six are cut after a.go, .git, docs, pkg, src.
	if got := files(fsys, 5); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("Files with limit 5 = %q, want [a.go]", got)
	}
	var first []string
	Files(fsys, 1000, func(rel string) bool {
		first = append(first, rel)
		return len(first) < 2
	})
	if !slices.Equal(first, want[:2]) {
		t.Errorf("a visit returning false stops the walk: got %q", first)
	}
}

func TestFilesStaysInTree(t *testing.T) {
	base := t.TempDir()
	tree := filepath.Join(base, "tree")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{tree, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tree, "in.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(tree, "out")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(tree, "link.txt")); err != nil {
		t.Skip(err)
	}
	var got []string
	Files(os.DirFS(tree), 1000, func(rel string) bool {
		got = append(got, rel)
		return true
	})
	if !slices.Equal(got, []string{"in.txt"}) {
		t.Errorf("Files = %q, want [in.txt]: symlinks neither listed nor followed", got)
	}
}
