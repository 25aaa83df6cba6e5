package apply

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testtree"
)

func pathsOf(cs []edit.Candidate) []string {
	var ps []string
	for _, c := range cs {
		if c.LineStart != 0 || c.LineEnd != 0 || c.Excerpt != "" {
			ps = append(ps, fmt.Sprintf("line candidate %d-%d", c.LineStart, c.LineEnd))
			continue
		}
		ps = append(ps, c.Path)
	}
	return ps
}

// A path with "\" separators and no file of that name names the "/" path,
// in every op; a new file goes under "/" directories.
func TestApplyBackslashPaths(t *testing.T) {
	for _, c := range []struct {
		name  string
		e     edit.Edit
		path  string // the file that must change
		after string
	}{
		{"replace", replace(`Controllers\CatalogController.cs`, "class CatalogController {}", "class CatalogController { int x; }"),
			"Controllers/CatalogController.cs", "class CatalogController { int x; }\n"},
		{"rewrite", edit.Edit{Op: edit.Rewrite, Path: `web_app\app.py`, New: "print(1)\n"}, "web_app/app.py", "print(1)\n"},
		{"createUnderNewDir", edit.Edit{Op: edit.Create, Path: `src\pages\index.astro`, New: "---\n"}, "src/pages/index.astro", "---\n"},
		{"emptySearchCreates", replace(`Views\Home\Index.cshtml`, "", "<p/>\n"), "Views/Home/Index.cshtml", "<p/>\n"},
		{"dotSegments", replace(`.\web_app\..\lib\util.py`, "42", "43"), "lib/util.py", "def helper():\n    return 43\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			want := tree{}
			for k, v := range webTree {
				want[k] = v
			}
			want[c.path] = c.after
			res := applyCase(t, root, webTree, []edit.Edit{c.e}, want, "")
			if got := res.Files[0].Path; got != c.path {
				t.Errorf("receipt path = %q, want %q", got, c.path)
			}
		})
	}
	t.Run("literalNameWins", func(t *testing.T) {
		// A name that holds a backslash on disk is that file.
		root := t.TempDir()
		before := tree{`odd\name.txt`: "x\n", "odd/name.txt": "y\n"}
		applyCase(t, root, before, []edit.Edit{replace(`odd\name.txt`, "x", "X")},
			tree{`odd\name.txt`: "X\n", "odd/name.txt": "y\n"}, "")
	})
	t.Run("escapeStaysOutside", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "tree")
		applyCase(t, root, webTree, []edit.Edit{{Op: edit.Create, Path: `web_app\..\..\x.txt`, New: "x"}}, nil, string(edit.CodeOutOfRoot))
	})
}

// The JSON and Windows forms of another machine's absolute path stay
// OUT_OF_ROOT, with the file of the tree whose path is the longest suffix
// of it as a path candidate and a hint naming it.
func TestApplyForeignAbsolutePathCandidates(t *testing.T) {
	for _, c := range []struct {
		p    string
		want []string
	}{
		{"/home/ubuntu/storm/web_app/app.py", []string{"web_app/app.py"}},
		{`D:\work\20240726\web_app\app.py`, []string{"web_app/app.py"}},
		{`C:\src\MyShop\Controllers\CatalogController.cs`, []string{"Controllers/CatalogController.cs"}},
		{`\\build01\share\repo\lib\util.py`, []string{"lib/util.py"}},
		{"/srv/x/pkg/a/config.go", []string{"src/pkg/a/config.go"}},
		{"/srv/x/config.go", nil}, // two files end the same way, by base name only: no guess
		{"/etc/passwd", nil},
		{"/tmp/.git/config", nil}, // state directories are not searched
	} {
		t.Run(strings.NewReplacer("/", "∕", `\`, "⧵").Replace(c.p), func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, webTree)
			before := readTree(t, root)
			res, err := Apply(context.Background(), []edit.Edit{replace(c.p, "def main", "def start")}, testOpts(t, root))
			if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeOutOfRoot {
				t.Fatalf("Apply = %v, want one OUT_OF_ROOT", err)
			}
			diffTrees(t, "tree", readTree(t, root), before)
			e := res.Errors[0]
			if got := pathsOf(e.Candidates); !slices.Equal(got, c.want) {
				t.Errorf("candidates = %q, want %q", got, c.want)
			}
			if len(c.want) > 0 && !strings.Contains(e.Hint, c.want[0]) {
				t.Errorf("hint %q does not name %s", e.Hint, c.want[0])
			}
			if e.Path != c.p {
				t.Errorf("error path = %q, want it as written", e.Path)
			}
		})
	}
}

// FILE_NOT_FOUND names the files the path probably means: the longest
// common ending, a unique base name, the same ending without case, or the
// files that hold the text to find. None is applied.
func TestApplyFileNotFoundCandidates(t *testing.T) {
	for _, c := range []struct {
		name string
		e    edit.Edit
		want []string
	}{
		{"wrongDirectory", replace("app/app.py", "pass", "return"), []string{"web_app/app.py"}},
		{"missingLeadingDirectory", replace("pkg/a/config.go", "package a", "package aa"), []string{"src/pkg/a/config.go"}},
		{"baseNameUnique", replace("CatalogController.cs", "{}", "{ }"), []string{"Controllers/CatalogController.cs"}},
		{"caseDiffers", replace("controllers/catalogcontroller.cs", "{}", "{ }"), []string{"Controllers/CatalogController.cs"}},
		{"baseNameShared", replace("src/util.py", "nothing like it", "x"), nil},
		{"baseNameSharedTextDecides", replace("src/util.py", "def helper():\n    return 42\n", "x"), []string{"lib/util.py"}},
		{"textElsewhere", replace("notes.md", "The quick brown fox jumps.", "The fox."), []string{"docs/guide.md"}},
		{"textInStateDirIgnored", replace("x.cfg", "[core]", "[x]"), nil},
		{"deleteWrongDir", edit.Edit{Op: edit.Delete, Path: "templates/index.html"}, []string{"web_app/templates/index.html"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, webTree)
			before := readTree(t, root)
			res, err := Apply(context.Background(), []edit.Edit{c.e}, testOpts(t, root))
			if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeFileNotFound {
				t.Fatalf("Apply = %v, want one FILE_NOT_FOUND", err)
			}
			diffTrees(t, "tree", readTree(t, root), before)
			if got := pathsOf(res.Errors[0].Candidates); !slices.Equal(got, c.want) {
				t.Errorf("candidates = %q, want %q", got, c.want)
			}
			if len(c.want) > 0 && !strings.Contains(res.Errors[0].Hint, c.want[0]) {
				t.Errorf("hint %q does not name %s", res.Errors[0].Hint, c.want[0])
			}
		})
	}
}

// A placeholder is never a directory: a path under one that does not
// exist is refused in every op that would create it, with the file of the
// same base name as candidate; a real new directory is created.
func TestApplyPlaceholderDirectories(t *testing.T) {
	ops := map[string]func(p string) edit.Edit{
		"rewrite":     func(p string) edit.Edit { return edit.Edit{Op: edit.Rewrite, Path: p, New: "print(2)\n"} },
		"emptySearch": func(p string) edit.Edit { return replace(p, "", "print(2)\n") },
		"create":      func(p string) edit.Edit { return edit.Edit{Op: edit.Create, Path: p, New: "print(2)\n"} },
		"renameTo":    func(p string) edit.Edit { return edit.Edit{Op: edit.Rename, Path: "lib/util.py", New: p} },
	}
	for _, c := range []struct {
		p    string
		code edit.Code // "" when the path is a real new file
		want []string
	}{
		{"path/to/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"Path/To/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"/path/to/app.py", edit.CodeOutOfRoot, []string{"web_app/app.py"}},
		{"your/project/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"your_project/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"YourApp/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"<project>/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"{repo}/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"$PROJECT_DIR/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"project_root/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"path_to_repo/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{".../app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"…/web_app/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"~/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"web_app/your_module/app.py", edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"path/to/brand_new.py", edit.CodeFileNotFound, nil},
		{`path\to\app.py`, edit.CodeFileNotFound, []string{"web_app/app.py"}},
		{"internal/cache/lru.go", "", nil},
		{"path/lru.go", "", nil},         // "path" alone is a real directory name
		{"to/lru.go", "", nil},           // and so is "to"
		{"src/[...slug].astro", "", nil}, // "..." inside a name is no placeholder
		{"app/[...slug]/page.tsx", "", nil},
	} {
		for opName, op := range ops {
			t.Run(strings.ReplaceAll(c.p, "/", "∕")+"/"+opName, func(t *testing.T) {
				root := t.TempDir()
				writeTree(t, root, webTree)
				before := readTree(t, root)
				res, err := Apply(context.Background(), []edit.Edit{op(c.p)}, testOpts(t, root))
				if c.code == "" {
					if err != nil {
						t.Fatalf("Apply(%q) = %v, want it created", c.p, err)
					}
					return
				}
				if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != c.code {
					t.Fatalf("Apply(%q) = %v, want one %s", c.p, err, c.code)
				}
				diffTrees(t, "tree", readTree(t, root), before)
				if got := pathsOf(res.Errors[0].Candidates); !slices.Equal(got, c.want) {
					t.Errorf("candidates = %q, want %q", got, c.want)
				}
			})
		}
	}
	t.Run("messageNamesThePlaceholder", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, webTree)
		res, _ := Apply(context.Background(), []edit.Edit{{Op: edit.Create, Path: "path/to/your_app/x.py", New: "x"}}, testOpts(t, root))
		if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Msg, "path/to/your_app/ is a placeholder") {
			t.Errorf("errors = %v, want one naming path/to/your_app/", res.Errors)
		}
	})
	t.Run("everyEditOfThePath", func(t *testing.T) {
		// Each edit that names a placeholder's path fails on its own, the
		// same path named again or after a real one.
		root := t.TempDir()
		writeTree(t, root, webTree)
		ph := edit.Edit{Op: edit.Create, Path: "path/to/your_app/x.py", New: "x"}
		res, _ := Apply(context.Background(), []edit.Edit{ph, ph, {Op: edit.Create, Path: "web_app/y.py", New: "y"}, ph}, testOpts(t, root))
		var failed []int
		for _, e := range res.Errors {
			if e.Code == edit.CodeFileNotFound && strings.Contains(e.Msg, "path/to/your_app/ is a placeholder") {
				failed = append(failed, e.Edit)
			}
		}
		if !slices.Equal(failed, []int{0, 1, 3}) {
			t.Errorf("edits refused for the placeholder: %v, want [0 1 3] (errors %v)", failed, res.Errors)
		}
	})
	t.Run("existingDirectoryOfThatName", func(t *testing.T) {
		// A tree that has path/to/ has it for real.
		root := t.TempDir()
		before := tree{"path/to/keep.txt": "k\n"}
		applyCase(t, root, before, []edit.Edit{{Op: edit.Create, Path: "path/to/new.txt", New: "n\n"}},
			tree{"path/to/keep.txt": "k\n", "path/to/new.txt": "n\n"}, "")
	})
	t.Run("existingFileUnderPlaceholderName", func(t *testing.T) {
		root := t.TempDir()
		before := tree{"your_project/app.py": "a\n"}
		applyCase(t, root, before, []edit.Edit{replace("your_project/app.py", "a", "b")}, tree{"your_project/app.py": "b\n"}, "")
	})
}

// An absolute path inside the root, or under a --path-prefix, is the
// relative path everywhere the receipt names it.
func TestApplyAbsolutePathsShownRelative(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, webTree)
	opts := testOpts(t, root)
	opts.DryRun = true
	opts.PathPrefixes = []string{"/repo", `C:\work\shop`}
	res, err := Apply(context.Background(), []edit.Edit{
		replace(filepath.Join(root, "web_app", "app.py"), "pass", "return 1"),
		replace("/repo/lib/util.py", "42", "43"),
		replace(`c:\work\shop\Controllers\HomeController.cs`, "{}", "{ }"),
		{Op: edit.Rename, Path: "/repo/docs/guide.md", New: filepath.Join(root, "docs", "README.md")},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path+">"+f.NewPath)
	}
	want := []string{"web_app/app.py>", "lib/util.py>", "Controllers/HomeController.cs>", "docs/guide.md>docs/README.md"}
	if !slices.Equal(got, want) {
		t.Errorf("receipt paths = %q, want %q", got, want)
	}

	// A failure on such a path names it relative too.
	res, _ = Apply(context.Background(), []edit.Edit{replace("/repo/lib/util.py", "absent text", "x")}, opts)
	if len(res.Errors) != 1 || res.Errors[0].Path != "lib/util.py" {
		t.Errorf("errors = %v, want one on lib/util.py", res.Errors)
	}
}

// --path-prefix maps only what lies under it, component by component, and
// cannot be used to leave the root.
func TestApplyPathPrefix(t *testing.T) {
	for _, c := range []struct {
		p, prefix string
		code      edit.Code // "" when lib/util.py is edited
	}{
		{"/repo/lib/util.py", "/repo", ""},
		{"/repo/lib/util.py", "/repo/", ""},
		{"/workspace/proj/lib/util.py", "/workspace/proj", ""},
		{"/repo/lib/util.py", "", edit.CodeOutOfRoot},
		{"/repo2/lib/util.py", "/repo", edit.CodeOutOfRoot},
		{"/repo/../etc/lib/util.py", "/repo", edit.CodeOutOfRoot},
		{"/repo/lib/../../x/util.py", "/repo", edit.CodeOutOfRoot},
		{`D:\repo\lib\util.py`, `d:\repo`, ""},
		{`D:\repo\lib\util.py`, "/repo", edit.CodeOutOfRoot},
		{"/repo/lib/util.py", "repo", edit.CodeOutOfRoot}, // a relative prefix is no mount point
	} {
		t.Run(strings.NewReplacer("/", "∕", `\`, "⧵").Replace(c.p+" under "+c.prefix), func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, webTree)
			opts := testOpts(t, root)
			if c.prefix != "" {
				opts.PathPrefixes = []string{c.prefix}
			}
			res, err := Apply(context.Background(), []edit.Edit{replace(c.p, "42", "43")}, opts)
			if c.code == "" {
				if err != nil || res.Files[0].Path != "lib/util.py" {
					t.Fatalf("Apply = %v, want lib/util.py edited", err)
				}
				return
			}
			if err == nil || res.Errors[0].Code != c.code {
				t.Fatalf("Apply = %v, want %s", err, c.code)
			}
			if c.code == edit.CodeOutOfRoot && !strings.Contains(c.p, "..") {
				if got := pathsOf(res.Errors[0].Candidates); !slices.Equal(got, []string{"lib/util.py"}) {
					t.Errorf("candidates = %q, want lib/util.py", got)
				}
			}
		})
	}
}

// Read, the model's first step, refuses a wrong path with the same path
// candidates as an edit of it.
func TestReadPathCandidates(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, webTree)
	for p, want := range map[string][]string{
		"app.py":                            {"web_app/app.py"},
		"/home/ubuntu/storm/web_app/app.py": {"web_app/app.py"},
		"util.py":                           nil,
	} {
		_, err := Read(Options{Root: root}, p, 0, 1, 0)
		if err == nil {
			t.Fatalf("Read(%q) succeeded", p)
		}
		if got := pathsOf(err.Candidates); !slices.Equal(got, want) {
			t.Errorf("Read(%q) candidates = %q, want %q", p, got, want)
		}
	}
	if w, err := Read(Options{Root: root}, `web_app\app.py`, 0, 1, 0); err != nil || w.Path != "web_app/app.py" {
		t.Errorf(`Read(web_app\app.py) = %v, %v; want web_app/app.py`, w, err)
	}
}

func TestReadPathPrefix(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, webTree)
	w, err := Read(Options{Root: root, PathPrefixes: []string{"/testbed"}}, "/testbed/lib/util.py", 0, 1, 0)
	if err != nil || w.Path != "lib/util.py" {
		t.Fatalf("Read = %v, %v; want lib/util.py", w, err)
	}
	if _, err := Read(Options{Root: root}, "/testbed/lib/util.py", 0, 1, 0); err == nil || err.Code != edit.CodeOutOfRoot {
		t.Errorf("Read without the prefix = %v, want OUT_OF_ROOT", err)
	}
}

// A web project as a model sees it, for the path tests below.
var webTree = tree(testtree.Web)
