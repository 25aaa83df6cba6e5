package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/edapply/edapply/internal/testtree"
)

func TestListingOrderAndSkips(t *testing.T) {
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
	l := FS(fsys, MinBudget, nil)
	if !slices.Equal(l.Files, want) || l.Cut {
		t.Errorf("FS = %q (cut %v), want %q (breadth first, tool state and dependencies skipped)", l.Files, l.Cut, want)
	}
	// Preferring src/deep lists it before docs, pkg and web, but not the
	// files in another order.
	if l := FS(fsys, MinBudget, []string{"SRC", "deep"}); !slices.Equal(l.Files, want) {
		t.Errorf("FS preferring src/deep = %q, want %q", l.Files, want)
	}
	// Seven units: the root costs one to open and six for its entries.
	if l := FS(fsys, 7, nil); !slices.Equal(l.Files, []string{"a.go"}) || !l.Cut || l.Entries+l.Opened > 7 {
		t.Errorf("FS within 7 = %q (cut %v, %d entries, %d opened), want [a.go], cut", l.Files, l.Cut, l.Entries, l.Opened)
	}
}

// A directory of many entries is read only as far as the budget goes, in
// either kind of tree, and the walk says it was cut short.
func TestListingFlatDirectoryBounded(t *testing.T) {
	dir := t.TempDir()
	mapfs := fstest.MapFS{}
	for i := range 3000 {
		name := fmt.Sprintf("f%04d.txt", i)
		mapfs[name] = &fstest.MapFile{}
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := testtree.OpenRoot(t, dir)
	const budget = 400
	for name, l := range map[string]*Listing{"Root": Root(r, budget, nil), "FS": FS(mapfs, budget, nil), "DirFS": FS(os.DirFS(dir), budget, nil)} {
		if l.Entries+l.Opened > budget || !l.Cut || len(l.Files) > budget {
			t.Errorf("%s within %d: %d entries, %d opened, %d files, cut %v", name, budget, l.Entries, l.Opened, len(l.Files), l.Cut)
		}
	}
	if l := Root(r, MinBudget, nil); l.Entries != 3000 || len(l.Files) != 3000 || l.Cut {
		t.Errorf("whole walk: %d entries, %d files, cut %v; want 3000, 3000, not cut", l.Entries, len(l.Files), l.Cut)
	}
}

// A chain of nested directories is followed to MaxDepth and no further,
// and opening each costs its depth, so the chain costs a bounded amount:
// the directories of depth 1 to MaxDepth-1 each list their file.
func TestListingNestedChain(t *testing.T) {
	mapfs := fstest.MapFS{}
	p := ""
	for range MaxDepth + 20 {
		p += "d/"
		mapfs[p+"f.go"] = &fstest.MapFile{}
	}
	l := FS(mapfs, MinBudget, nil)
	if want := MaxDepth * (MaxDepth + 1) / 2; l.Opened > want {
		t.Errorf("walk opened %d names, want at most %d", l.Opened, want)
	}
	if !l.Cut || len(l.Files) != MaxDepth-1 {
		t.Errorf("walk of a chain past MaxDepth: %d files, cut %v; want %d, cut", len(l.Files), l.Cut, MaxDepth-1)
	}
}

func TestListingStaysInTree(t *testing.T) {
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
	r := testtree.OpenRoot(t, tree)
	for name, l := range map[string]*Listing{"Root": Root(r, MinBudget, nil), "FS": FS(os.DirFS(tree), MinBudget, nil)} {
		if !slices.Equal(l.Files, []string{"in.txt"}) {
			t.Errorf("%s = %q, want [in.txt]: symlinks neither listed nor followed", name, l.Files)
		}
	}
}
