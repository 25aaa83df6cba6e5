//go:build unix

package paths

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func TestResolve(t *testing.T) {
	_, root := escapeSandbox(t)
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rs, err := NewResolver(r, root)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"a.txt":             "a.txt",
		"./a.txt":           "a.txt",
		"x/../a.txt":        "a.txt",
		"sub//s.txt":        "sub/s.txt",
		"link":              "target.txt",
		"subdir/link2":      "target.txt",
		"subdir/new/x.go":   "sub/new/x.go",
		"missing/../a.txt":  "a.txt",
		"newlink":           "sub/new.txt",
		"sub/../subdir/s.t": "sub/s.t",
	} {
		got, perr := rs.Resolve(in)
		if perr != nil || got != want {
			t.Errorf("resolve(%q) = %q, %v; want %q", in, got, perr, want)
		}
	}
	if _, perr := rs.Resolve("a.txt/x"); perr == nil || perr.Code != edit.CodeIO {
		t.Errorf("resolve(a.txt/x) = %v, want IO_ERROR", perr)
	}
}

// A symlink checked out as a plain file (git core.symlinks=false) that
// points outside the root is judged like the link: OUT_OF_ROOT, whether the
// path goes through it as a directory or names it as the file.
func TestResolvePlainFileSymlinkStandIn(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"vendored":      "../../shared",
		"ext.go":        "../outside/ext.go\n",
		"inside":        "sub/target.go",
		"notes.txt":     "see ../README for details",
		"sub/target.go": "package sub\n",
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	r, err := NewResolver(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]edit.Code{
		"vendored/x.go": edit.CodeOutOfRoot,
		"ext.go":        edit.CodeOutOfRoot,
		"inside":        "", // points inside: an ordinary small file
		"notes.txt":     "", // prose, not a target
		"sub/target.go": "",
	} {
		_, e := r.Resolve(p)
		var got edit.Code
		if e != nil {
			got = e.Code
		}
		if got != want {
			t.Errorf("resolve(%q) code = %q, want %q (%v)", p, got, want, e)
		}
	}
}

// An absolute path inside the root is the corresponding relative path,
// judged like one; anything else absolute is OUT_OF_ROOT. The root is
// compared component by component, as given and with its symlinks
// evaluated, never by string prefix.
func TestResolveAbsolute(t *testing.T) {
	sandbox, root := escapeSandbox(t)
	writeTree(t, sandbox, tree{"o1/o2/tree2/x": "x\n"})
	alias := filepath.Join(sandbox, "alias")
	if err := os.Symlink(filepath.Join("o1", "o2", "tree"), alias); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root, alias} {
		r, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		rs, err := NewResolver(r, dir)
		if err != nil {
			t.Fatal(err)
		}
		for in, want := range map[string]string{
			root + "/a.txt":                    "a.txt",
			root + "/sub/s.txt":                "sub/s.txt",
			root + "//sub/./s.txt":             "sub/s.txt",
			root + "/sub/../a.txt":             "a.txt",
			root + "/link":                     "target.txt", // through a symlink inside
			root + "/new/dir/n.go":             "new/dir/n.go",
			root:                               ".",
			root + "/":                         ".",
			root + "/out":                      "OUT_OF_ROOT", // a symlink leading out
			root + "/sub/up/x":                 "OUT_OF_ROOT",
			root + "/dangling":                 "OUT_OF_ROOT",
			root + "2/x":                       "OUT_OF_ROOT", // a sibling whose name has the root's as a prefix
			root + "2":                         "OUT_OF_ROOT",
			filepath.Dir(root) + "/tree2/x":    "OUT_OF_ROOT",
			root + "/../tree2/x":               "OUT_OF_ROOT",
			root + "/../outdir/x":              "OUT_OF_ROOT",
			filepath.Dir(root):                 "OUT_OF_ROOT",
			sandbox + "/o1/secret.txt":         "OUT_OF_ROOT",
			alias + "2/a.txt":                  "OUT_OF_ROOT",
			"/":                                "OUT_OF_ROOT",
			"/etc/passwd":                      "OUT_OF_ROOT",
			"//server/share" + root + "/a.txt": "OUT_OF_ROOT", // UNC-like
			`\\server\share\a.txt`:             "OUT_OF_ROOT",
			`C:\tree\a.txt`:                    "OUT_OF_ROOT",
			`C:/tree/a.txt`:                    "OUT_OF_ROOT",
		} {
			got, perr := rs.Resolve(in)
			if perr != nil {
				got = string(perr.Code)
			}
			if got != want {
				t.Errorf("root %s: resolve(%q) = %q (%v), want %q", dir, in, got, perr, want)
			}
		}
		// A path through a symlink to the root is inside only when the
		// root was given that way: nothing outside the root is inspected.
		for in, want := range map[string]string{alias + "/a.txt": "a.txt", alias + "/subdir/link2": "target.txt"} {
			if dir == root {
				want = "OUT_OF_ROOT"
			}
			got, perr := rs.Resolve(in)
			if perr != nil {
				got = string(perr.Code)
			}
			if got != want {
				t.Errorf("root %s: resolve(%q) = %q (%v), want %q", dir, in, got, perr, want)
			}
		}
	}
}

// TestDoubleSlashPath: "//x" is an absolute path outside the root, named
// as one, not as a Windows path; under the root it is the file there.
func TestDoubleSlashPath(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rs, err := NewResolver(r, root)
	if err != nil {
		t.Fatal(err)
	}
	_, e := rs.relative("//x")
	if e == nil || e.Code != edit.CodeOutOfRoot || strings.Contains(e.Msg, "Windows") || !strings.Contains(e.Msg, "absolute path //x") {
		t.Errorf(`relative("//x") = %v, want OUT_OF_ROOT naming an absolute path`, e)
	}
	if rel, e := rs.relative("/" + filepath.ToSlash(root) + "/a.txt"); e != nil || rel != "a.txt" {
		t.Errorf("relative(//root/a.txt) = %q, %v; want a.txt", rel, e)
	}
}
