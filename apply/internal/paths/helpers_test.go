package paths

import (
	"os"
	"path/filepath"
	"testing"
)

type tree map[string]string

func writeTree(t *testing.T, dir string, tr tree) {
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

// escapeSandbox makes a tree at sandbox/o1/o2/tree with files and a
// directory beside it, outside, and symlinks in it that point out and in.
func escapeSandbox(t *testing.T) (sandbox, root string) {
	sandbox = t.TempDir()
	root = filepath.Join(sandbox, "o1", "o2", "tree")
	writeTree(t, sandbox, tree{
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
