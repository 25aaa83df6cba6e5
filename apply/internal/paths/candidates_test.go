package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testtree"
	"github.com/edapply/edapply/internal/walk"
)

var webTree = testtree.Web

// walked returns the index of the tree under r walked within budget
// units, the directories written names first.
func walked(r *os.Root, written string, budget int) *Index {
	ix := NewIndex(0)
	ix.walkBudget = budget
	ix.walk(r, written)
	return ix
}

// The walk for path candidates does a bounded amount of work, so a huge
// tree cannot make a failing apply slow, lists nearest the root first,
// and says when it was cut short.
func TestWalkBounded(t *testing.T) {
	root := t.TempDir()
	big := tree{}
	const limit = 50
	for i := range 4 * limit {
		big[fmt.Sprintf("gen/d%02d/f%03d.txt", i%20, i)] = ""
	}
	big["top.txt"] = ""
	writeTree(t, root, big)
	r := testtree.OpenRoot(t, root)
	ix := walked(r, "x.txt", limit)
	if len(ix.files) >= limit || ix.entries > limit {
		t.Errorf("walk listed %d files in %d entries, want fewer than %d", len(ix.files), ix.entries, limit)
	}
	if !slices.Contains(ix.files, "top.txt") {
		t.Errorf("walk missed top.txt, nearest the root")
	}
	if !ix.cut {
		t.Errorf("walk cut short does not say so")
	}
	if ix := walked(r, "x.txt", minWalk); ix.cut || len(ix.files) != len(big) {
		t.Errorf("whole walk: %d files (cut %v), want %d", len(ix.files), ix.cut, len(big))
	}
}

// A directory of many entries is read only as far as the budget goes, and
// no entry is stat'ed: its type comes from the directory.
func TestWalkFlatDirectory(t *testing.T) {
	root := t.TempDir()
	for i := range 3000 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := testtree.OpenRoot(t, root)
	const budget = 400
	ix := walked(r, "f0001.txt", budget)
	if ix.entries > budget || ix.stats != 0 || !ix.cut {
		t.Errorf("walk of 3000 entries within %d: looked at %d, stat'ed %d, cut %v; want at most %d, none, cut",
			budget, ix.entries, ix.stats, ix.cut, budget)
	}
	// Which entries a cut read reached depends on the file system: by base
	// name alone none of them is known to be the tree's one file of its name.
	if got := suffixMatches("f0001.txt", ix); got != nil {
		t.Errorf("suffixMatches by base name in a walk cut short = %q, want nothing", got)
	}
	if got := holdingText(r, ix, "anything"); got != nil || ix.stats != 0 {
		t.Errorf("holdingText in a walk cut short = %q after %d stats, want nothing, none", got, ix.stats)
	}
	ix = walked(r, "f0001.txt", minWalk)
	if ix.entries != 3000 || ix.stats != 0 || ix.cut {
		t.Errorf("whole walk looked at %d entries, stat'ed %d, cut %v; want 3000, none, not cut", ix.entries, ix.stats, ix.cut)
	}
	if got := suffixMatches("lib/f0001.txt", ix); !slices.Equal(got, []string{"f0001.txt"}) {
		t.Errorf("suffixMatches = %q, want f0001.txt", got)
	}
}

// A directory larger than its share of the budget is read in part, and
// the walk goes on to the rest of the tree.
func TestWalkHugeDirectoryShare(t *testing.T) {
	root := t.TempDir()
	tr := tree{"src/x/main.go": "package x\n"}
	for i := range 300 {
		tr[fmt.Sprintf("gen/f%03d.txt", i)] = ""
	}
	writeTree(t, root, tr)
	r := testtree.OpenRoot(t, root)
	ix := walked(r, "lib/x/main.go", 200)
	if !ix.cut || ix.entries > 200 {
		t.Errorf("walk within 200: cut %v, %d entries", ix.cut, ix.entries)
	}
	if got := suffixMatches("lib/x/main.go", ix); !slices.Equal(got, []string{"src/x/main.go"}) {
		t.Errorf("suffixMatches past a huge directory = %q, want src/x/main.go", got)
	}
}

// A chain of nested directories is followed to maxDepth and no further,
// and opening each one costs the walk its depth, so the chain costs a
// bounded amount of work whatever its length.
func TestWalkNestedChain(t *testing.T) {
	root := t.TempDir()
	dir := root
	for i := range maxDepth + 20 {
		dir = filepath.Join(dir, "d")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if i == 9 || i == maxDepth+10 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("at%d.go", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := testtree.OpenRoot(t, root)
	ix := walked(r, "at9.go", minWalk)
	if want := maxDepth * (maxDepth + 1) / 2; ix.opened > want {
		t.Errorf("walk opened %d names, want at most %d", ix.opened, want)
	}
	if !ix.cut {
		t.Errorf("walk stopped at maxDepth does not say so")
	}
	if got := suffixMatches("x/d/at9.go", ix); len(got) != 1 || got[0] != strings.Repeat("d/", 10)+"at9.go" {
		t.Errorf("suffixMatches = %q, want the file ten deep", got)
	}
	if got := suffixMatches(fmt.Sprintf("d/at%d.go", maxDepth+10), ix); got != nil {
		t.Errorf("suffixMatches beyond maxDepth = %q, want nothing", got)
	}
	// A chain shallower than maxDepth costs the budget each directory's depth.
	ix = walked(r, "at9.go", 30)
	if ix.opened > 30 || ix.entries > 30 {
		t.Errorf("walk within 30 units opened %d names and looked at %d entries", ix.opened, ix.entries)
	}
}

// In a tree larger than the budget, the directories the wrong path names
// are listed first, so the file it means is found; a base name alone
// still names nothing there.
func TestWalkPrefersNamedDirectories(t *testing.T) {
	root := t.TempDir()
	big := tree{}
	for i := range 40 {
		for j := range 10 {
			big[fmt.Sprintf("src/a%02d/b%d/file%d.go", i, j, j)] = ""
		}
	}
	big["src/z/server/handlers/user.go"] = "package handlers\n"
	big["src/z/server/handlers/only.go"] = ""
	writeTree(t, root, big)
	r := testtree.OpenRoot(t, root)
	const budget = 200
	ix := walked(r, "/home/alice/proj/src/z/server/handlers/user.go", budget)
	if !ix.cut || ix.entries+ix.opened > budget {
		t.Fatalf("walk within %d: cut %v, %d entries, %d opened", budget, ix.cut, ix.entries, ix.opened)
	}
	if got := suffixMatches("/home/alice/proj/src/z/server/handlers/user.go", ix); !slices.Equal(got, []string{"src/z/server/handlers/user.go"}) {
		t.Errorf("suffixMatches = %q, want src/z/server/handlers/user.go", got)
	}
	if got := suffixMatches("only.go", ix); got != nil {
		t.Errorf("suffixMatches by base name in a walk cut short = %q, want nothing", got)
	}
	if whole := walked(r, "", minWalk); whole.cut || !slices.Contains(whole.files, "src/z/server/handlers/only.go") {
		t.Fatalf("whole walk cut %v", whole.cut)
	} else if got := suffixMatches("only.go", whole); !slices.Equal(got, []string{"src/z/server/handlers/only.go"}) {
		t.Errorf("suffixMatches by base name in a whole walk = %q", got)
	}
}

// Preferring the directories a path names changes the order of the walk,
// but not the files it lists nor their order: breadth first, each
// directory in name order.
func TestWalkOrderSameWhenGuided(t *testing.T) {
	root := t.TempDir()
	tr := tree{"a/x.txt": "", "a-b/x.txt": "", "a/b/c.txt": "", "b.txt": "", "z/q/r.txt": "", "z/a.txt": "", "A/y.txt": ""}
	writeTree(t, root, tr)
	r := testtree.OpenRoot(t, root)
	want := walk.FS(r.FS(), minWalk, nil).Files
	for _, written := range []string{"", "z/q/r.txt", "a/b/q/c.txt", "q/a-b/x.txt"} {
		if got := walked(r, written, minWalk).files; !slices.Equal(got, want) {
			t.Errorf("walk preferring %q lists %q, want %q", written, got, want)
		}
	}
}

// The search for files holding an edit's text reads within one budget per
// apply: once it is spent, later failing edits read nothing.
func TestHoldingTextBudget(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, webTree)
	r := testtree.OpenRoot(t, root)
	ix := walked(r, "", minWalk)
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
	r := testtree.OpenRoot(t, root)
	ix := walked(r, "", minWalk)
	ix.budget = 10 * scanFileCost
	if got := holdingText(r, ix, "needle"); got != nil {
		t.Errorf("holdingText cut short = %q, want nothing", got)
	}
	if ix.budget != 0 {
		t.Errorf("budget left = %d, want it spent", ix.budget)
	}
}

// When the walk was cut short the hint says so, whether a file is named
// or none is.
func TestAddCandidatesSaysCutShort(t *testing.T) {
	root := t.TempDir()
	tr := tree{"src/x/main.go": "package x\n", "src/y/only.go": "package y\n"}
	for i := range 300 {
		tr[fmt.Sprintf("gen/f%03d.txt", i)] = ""
	}
	writeTree(t, root, tr)
	r := testtree.OpenRoot(t, root)
	for _, c := range []struct {
		written, old string
		want         []string
		hint         string
	}{
		{"lib/x/main.go", "", []string{"src/x/main.go"}, "cut short"},
		{"only.go", "", nil, "too large to search whole"},
		{"nothing.go", "package y", nil, "too large to search whole"},
	} {
		ix := NewIndex(0)
		ix.walkBudget = 200
		err := &edit.Error{Code: edit.CodeFileNotFound, Msg: "no such file"}
		AddCandidates(r, &ix, err, c.written, c.old)
		var got []string
		for _, cand := range err.Candidates {
			got = append(got, cand.Path)
		}
		if !slices.Equal(got, c.want) || !strings.Contains(err.Hint, c.hint) {
			t.Errorf("%s: candidates %q, hint %q; want %q and a hint saying %q", c.written, got, err.Hint, c.want, c.hint)
		}
		// The same tree walked whole names the file by base name or by text.
		whole := NewIndex(0)
		err = &edit.Error{Code: edit.CodeFileNotFound, Msg: "no such file"}
		AddCandidates(r, &whole, err, c.written, c.old)
		if len(err.Candidates) == 0 || strings.Contains(err.Hint, "cut short") || strings.Contains(err.Hint, "too large") {
			t.Errorf("%s walked whole: candidates %v, hint %q", c.written, err.Candidates, err.Hint)
		}
	}
}

// The tree is walked once per index, however many failing edits ask:
// later ones read the index, not the tree.
func TestAddCandidatesWalksOnce(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, webTree)
	r := testtree.OpenRoot(t, root)
	var ix *Index
	var entries int
	for i, written := range []string{"app/lib/util.py", "web/templates/index.html", "Controllers/Nope.cs", "guide.md"} {
		err := &edit.Error{Code: edit.CodeFileNotFound, Msg: "no such file"}
		AddCandidates(r, &ix, err, written, "")
		if i == 0 {
			entries = ix.entries
		}
		if ix.entries != entries || ix.opened == 0 {
			t.Errorf("%s: the walk looked at %d entries, %d before it: walked again", written, ix.entries, entries)
		}
	}
	if entries == 0 || ix.cut {
		t.Errorf("walk of the web tree: %d entries, cut %v", entries, ix.cut)
	}
}
