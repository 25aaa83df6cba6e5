package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/report"
)

// A server told where its client's model sees the tree (--path-prefix)
// edits the file an absolute path there names; without it, the path is
// OUT_OF_ROOT with the file meant as a path candidate.
func TestEditFilePathPrefix(t *testing.T) {
	for _, c := range []struct {
		prefixes []string
		ok       bool
	}{{[]string{"/workspace"}, true}, {nil, false}} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "src", "a.py"), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		st, ct := sdk.NewInMemoryTransports()
		ss, err := New(Options{Root: root, StateDir: t.TempDir(), Version: "test", PathPrefixes: c.prefixes}).Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rd report.ReadOutput
		rres := call(t, cs, "read_file", map[string]any{"path": "/workspace/src/a.py"}, &rd)
		if c.ok == rres.IsError {
			t.Errorf("with %q: read_file = %s", c.prefixes, resultText(rres))
		}
		var r report.Receipt
		res := call(t, cs, "edit_file", map[string]any{"path": "/workspace/src/a.py",
			"edits": []map[string]any{{"old_string": "x = 1\n", "new_string": "x = 2\n"}}}, &r)
		cs.Close()
		ss.Wait()
		got := readFile(t, root, "src/a.py")
		switch {
		case c.ok && (res.IsError || got != "x = 2\n" || r.Files[0].Path != "src/a.py"):
			t.Errorf("with %q: %s; src/a.py = %q", c.prefixes, resultText(res), got)
		case !c.ok && (!res.IsError || got != "x = 1\n" || len(r.Errors) != 1 || r.Errors[0].Code != "OUT_OF_ROOT" ||
			len(r.Errors[0].Candidates) != 1 || r.Errors[0].Candidates[0].Path != "src/a.py"):
			t.Errorf("without a prefix: %+v; src/a.py = %q", r, got)
		}
	}
}
