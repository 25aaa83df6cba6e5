package report

import (
	"bytes"
	"testing"

	"github.com/edapply/edapply/apply"
)

// An empty file the reply creates and moves is created where it ends,
// never renamed from a path that held nothing; an empty file renamed is
// a rename.
func TestDiffEmptyFileMoved(t *testing.T) {
	for name, c := range map[string]struct {
		f    apply.FileResult
		want string
	}{
		"createdAndMoved": {apply.FileResult{Path: "n.txt", NewPath: "m.txt", Op: "create", After: []byte{}},
			"diff /dev/null b/m.txt\n--- /dev/null\n+++ b/m.txt\n"},
		"renamed": {apply.FileResult{Path: "a.txt", NewPath: "b.txt", Op: "rename", Before: []byte{}, After: []byte{}},
			"diff a/a.txt b/b.txt\nrename from a.txt\nrename to b.txt\n"},
	} {
		var buf bytes.Buffer
		if err := Diff(&buf, &apply.Result{Files: []*apply.FileResult{&c.f}}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("%s: %q, want %q", name, buf.String(), c.want)
		}
	}
}
