package parse

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/edapply/edapply/edit"
)

// diffBrief is the part of a diff's edit the name tests state.
func diffBrief(e edit.Edit) string {
	if e.Op == edit.Rename {
		return fmt.Sprintf("rename %s %s", e.Path, e.New)
	}
	return fmt.Sprintf("%v %s", e.Op, e.Path)
}

// TestDiffNames: which file a diff's header names, as patch and git apply
// read it, with and without -p, and which sections create a file without
// naming /dev/null.
func TestDiffNames(t *testing.T) {
	strip := func(n int) *int { return &n }
	const hunk = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
	const adds = "@@ -0,0 +1,2 @@\n+a\n+b\n"
	tests := map[string]struct {
		in    string
		tree  []string // files of the tree; nil for no tree
		strip *int
		want  []string // diffBrief of each edit
		err   string   // an error's message holds this
	}{
		"git prefixes":              {in: "--- a/x.py\n+++ b/x.py\n" + hunk, want: []string{"replace x.py"}},
		"mnemonic index and tree":   {in: "--- i/x.py\n+++ w/x.py\n" + hunk, want: []string{"replace x.py"}},
		"mnemonic commit and index": {in: "--- c/src/x.py\n+++ i/src/x.py\n" + hunk, want: []string{"replace src/x.py"}},
		"mnemonic object":           {in: "--- o/x.py\n+++ w/x.py\n" + hunk, want: []string{"replace x.py"}},
		"not a mnemonic pair":       {in: "--- w/x.py\n+++ i/x.py\n" + hunk, tree: []string{"i/x.py"}, want: []string{"replace i/x.py"}},
		"diff -r of two directories": {in: "--- old/src/x.py\t2024-01-01\n+++ new/src/x.py\t2024-01-01\n" + hunk, tree: []string{"src/x.py"},
			want: []string{"replace src/x.py"}},
		"diff -r without a tree": {in: "--- old/src/x.py\n+++ new/src/x.py\n" + hunk, want: []string{"replace src/x.py"}},
		"diff -r one level down": {in: "--- v1/old/x.py\n+++ v1/new/x.py\n" + hunk, tree: []string{"x.py"}, want: []string{"replace x.py"}},
		"diff -r run at the root": {in: "--- old/x.py\n+++ new/x.py\n" + hunk, tree: []string{"old/x.py", "new/x.py"},
			want: []string{"replace old/x.py"}},
		"backup and file":     {in: "--- calc.py.orig\n+++ calc.py\n" + hunk, tree: []string{"calc.py", "calc.py.orig"}, want: []string{"replace calc.py"}},
		"only the old exists": {in: "--- lao\n+++ tzu\n" + hunk, tree: []string{"lao"}, want: []string{"replace lao"}},
		"only the new exists": {in: "--- lao\n+++ tzu\n" + hunk, tree: []string{"tzu"}, want: []string{"replace tzu"}},
		"both exist":          {in: "--- lao\n+++ tzu\n" + hunk, tree: []string{"lao", "tzu"}, want: []string{"replace lao"}},
		// Without the tree's word, "--- lao" and "+++ tzu" are a removed
		// "-- lao" and an added "++ tzu" of a hunk with no header.
		"bare words, no tree": {in: "--- lao\n+++ tzu\n" + hunk, err: "no file header"},
		"moved in a git diff": {in: "diff --git a/x.py b/y.py\nsimilarity index 90%\nrename from x.py\nrename to y.py\n--- a/x.py\n+++ b/y.py\n" + hunk,
			want: []string{"rename x.py y.py", "replace y.py"}},

		"-p0 keeps a/":        {in: "--- a/x.py\n+++ b/x.py\n" + hunk, strip: strip(0), tree: []string{"a/x.py"}, want: []string{"replace a/x.py"}},
		"-p1":                 {in: "--- old/src/x.py\n+++ new/src/x.py\n" + hunk, strip: strip(1), want: []string{"replace src/x.py"}},
		"-p2":                 {in: "--- a/b/src/x.py\n+++ b/b/src/x.py\n" + hunk, strip: strip(2), want: []string{"replace src/x.py"}},
		"-p1 on a plain diff": {in: "--- x.py\n+++ x.py\n" + hunk, strip: strip(1), err: "-p 1 strips every component"},
		"-p2 on git renames": {in: "diff --git a/d/x.py b/d/y.py\nsimilarity index 90%\nrename from d/x.py\nrename to d/y.py\n--- a/d/x.py\n+++ b/d/y.py\n" + hunk,
			strip: strip(2), want: []string{"rename x.py y.py", "replace y.py"}},
		"-p2 on a new file": {in: "--- /dev/null\n+++ b/d/n.txt\n" + adds, strip: strip(2), want: []string{"create n.txt"}},
		// Without "---"/"+++" lines the "diff --git" names name the file,
		// stripped as -p says, as git apply strips them.
		"git empty new file":          {in: "diff --git a/n.txt b/n.txt\nnew file mode 100644\n", want: []string{"create n.txt"}},
		"-p0 on a git empty new file": {in: "diff --git a/n.txt b/n.txt\nnew file mode 100644\n", strip: strip(0), want: []string{"create b/n.txt"}},
		"-p0 on a git empty deleted file": {in: "diff --git a/d.txt b/d.txt\ndeleted file mode 100644\n", strip: strip(0), tree: []string{"a/d.txt"},
			want: []string{"delete a/d.txt"}},
		"-p2 on a git empty new file": {in: "diff --git a/d/n.txt b/d/n.txt\nnew file mode 100644\n", strip: strip(2), want: []string{"create n.txt"}},
		"-p0 on quoted git names, and ---/+++": {in: "diff --git \"a/x y.txt\" \"b/x y.txt\"\n--- \"a/x y.txt\"\n+++ \"b/x y.txt\"\n" + hunk, strip: strip(0),
			tree: []string{"a/x y.txt"}, want: []string{"replace a/x y.txt"}},
		"-p0 on quoted git names": {in: "diff --git \"a/x y.txt\" \"b/x y.txt\"\nnew file mode 100644\n", strip: strip(0), err: "as written, for -p 0"},

		"svn new file": {in: "Index: n.txt\n===================================================================\n--- n.txt\t(revision 0)\n+++ n.txt\t(working copy)\n" + adds,
			want: []string{"create n.txt"}},
		"svn nonexistent":   {in: "--- n.txt\t(nonexistent)\n+++ n.txt\t(working copy)\n" + adds, want: []string{"create n.txt"}},
		"svn tab lost":      {in: "--- src/x.py (revision 12)\n+++ src/x.py (working copy)\n" + hunk, want: []string{"replace src/x.py"}},
		"svn new, tab lost": {in: "--- n.txt (revision 0)\n+++ n.txt (working copy)\n" + adds, want: []string{"create n.txt"}},
		"bzr added file": {in: "=== added file 'n.txt'\n--- n.txt\t1970-01-01 00:00:00 +0000\n+++ n.txt\t2024-01-01 00:00:00 +0000\n" + adds,
			want: []string{"create n.txt"}},
		"bzr modified file": {in: "=== modified file 'x.py'\n--- x.py\t2024-01-01 00:00:00 +0000\n+++ x.py\t2024-01-02 00:00:00 +0000\n" + hunk,
			want: []string{"replace x.py"}},
		"-0,0 on a missing file": {in: "--- n.txt\n+++ n.txt\n" + adds, tree: []string{"x.py"}, want: []string{"create n.txt"}},
		"diff -N's new file": {in: "--- old/n.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ new/n.txt\t2024-01-01 00:00:00.000000000 +0000\n" + adds,
			tree: []string{"x.py"}, want: []string{"create n.txt"}},
		// The file is there: the lines go before its first line, as patch
		// puts them.
		"-0,0 on an existing file": {in: "--- x.py\n+++ x.py\n" + adds, tree: []string{"x.py"}, want: []string{"replace x.py"}},
		"-0,0 without a tree":      {in: "--- n.txt\n+++ n.txt\n" + adds, want: []string{"replace n.txt"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			opts := Options{Strip: tt.strip}
			if tt.tree != nil {
				fsys := fstest.MapFS{}
				for _, f := range tt.tree {
					fsys[f] = &fstest.MapFile{Data: []byte("a\nb\n")}
				}
				opts.Tree = fsys
			}
			edits, errs := Parse(tt.in, opts)
			var got []string
			for _, e := range edits {
				got = append(got, diffBrief(e))
			}
			if tt.err != "" {
				if len(errs) == 0 || !strings.Contains(errs[0].Msg, tt.err) {
					t.Fatalf("errors %v, want one saying %q (edits %v)", errs, tt.err, got)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("edits %q, want %q", got, tt.want)
			}
		})
	}
}
