package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestReadOnlyRefused: a file without write permission is IO_ERROR, named,
// and nothing of the transaction is written; ForceReadOnly replaces it,
// keeping its mode.
func TestReadOnlyRefused(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("the superuser may write any file; TestWritableBy covers the rule")
	}
	root := t.TempDir()
	writeTree(t, root, tree{"ro.txt": "ro\n", "rw.txt": "rw\n"})
	if err := os.Chmod(filepath.Join(root, "ro.txt"), 0o444); err != nil {
		t.Fatal(err)
	}
	opts := testOpts(t, root)
	edits := []edit.Edit{replace("rw.txt", "rw", "RW"), replace("ro.txt", "ro", "RO")}
	res, err := Apply(context.Background(), edits, opts)
	if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeIO || res.Errors[0].Path != "ro.txt" ||
		!strings.Contains(res.Errors[0].Msg, "not writable by this user") {
		t.Fatalf("Apply = %v, want one IO_ERROR naming ro.txt not writable", res.Errors)
	}
	diffTrees(t, "refused", readTree(t, root), tree{"ro.txt": "ro\n", "rw.txt": "rw\n"})

	opts.ForceReadOnly = true
	if _, err := Apply(context.Background(), edits, opts); err != nil {
		t.Skip("a file the user may not write cannot be replaced here:", err)
	}
	diffTrees(t, "forced", readTree(t, root), tree{"ro.txt": "RO\n", "rw.txt": "RW\n"})
	if m := mode(t, filepath.Join(root, "ro.txt")).Perm(); m != 0o444 {
		t.Errorf("ro.txt mode = %v, want 0444 kept", m)
	}
}
