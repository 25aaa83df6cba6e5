package apply

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// A panic while the reply is planned or checked is a defect of edapply:
// Apply returns INTERNAL, names the panic and where it started, writes
// nothing, and does not panic itself (an MCP server that calls it keeps
// serving).
func TestDefectIsInternal(t *testing.T) {
	const before = "package a\n\nvar x = 1\n"
	edits := []edit.Edit{{Op: edit.Replace, Path: "a.go", Old: "var x = 1\n", New: "var x = 2\n", Count: 1}}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, opts *Options)
		where string
	}{
		{"planning", func(t *testing.T, opts *Options) {
			opts.Progress = func(done, total int) { panic("planted in planning") }
		}, "planted in planning"},
		{"the check", func(t *testing.T, opts *Options) {
			plant(t, func(string, []byte, fs.FileMode) ([]byte, fs.FileMode) {
				var counts []int
				counts[len(edits)]++ // past the end: the runtime's own panic
				return nil, 0
			})
		}, "index out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tree{"a.go": before})
			opts := testOpts(t, dir)
			tc.setup(t, &opts)
			res, err := Apply(context.Background(), edits, opts)
			if !errors.Is(err, &edit.Error{Code: edit.CodeInternal}) || res == nil || res.OK || len(res.Errors) != 1 {
				t.Fatalf("err %v, result %+v: want one INTERNAL", err, res)
			}
			if msg := res.Errors[0].Msg; !strings.Contains(msg, tc.where) || !strings.Contains(msg, "nothing was written") || !strings.Contains(msg, " at apply.") {
				t.Errorf("message %q does not name the panic, where it started and that nothing was written", msg)
			}
			diffTrees(t, "after a defect", readTree(t, dir), tree{"a.go": before})
		})
	}
}
