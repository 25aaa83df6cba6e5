package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/edapply/edapply/internal/testhook"
)

// TestNoSyncReachesCommit runs apply and undo in process and counts the
// fsyncs the commit makes: some by default, none with --no-sync or with
// EDAPPLY_NO_SYNC set, and --no-sync=false overrides the variable.
func TestNoSyncReachesCommit(t *testing.T) {
	var syncs int
	testhook.Sync = func() { syncs++ }
	t.Cleanup(func() { testhook.Sync = nil })
	const reply = "a.txt\n```\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n"
	for _, c := range []struct {
		name string
		env  string // EDAPPLY_NO_SYNC
		flag []string
		want bool // syncs expected
	}{
		{"default", "", nil, true},
		{"flag", "", []string{"--no-sync"}, false},
		{"env", "1", nil, false},
		{"env false", "false", nil, true},
		{"flag overrides env", "true", []string{"--no-sync=false"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o666); err != nil {
				t.Fatal(err)
			}
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			t.Setenv(noSyncEnv, c.env)
			for _, args := range [][]string{append([]string{"apply", "-C", root}, c.flag...), append([]string{"undo", "-C", root}, c.flag...)} {
				syncs = 0
				cmd := newRootCmd()
				cmd.SetArgs(args)
				var out bytes.Buffer
				cmd.SetIn(bytes.NewBufferString(reply))
				cmd.SetOut(&out)
				cmd.SetErr(&out)
				if err := cmd.ExecuteContext(context.Background()); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, out.Bytes())
				}
				if got := syncs > 0; got != c.want {
					t.Errorf("%v with %s=%q: %d fsyncs, want syncs: %v", args, noSyncEnv, c.env, syncs, c.want)
				}
			}
			if b, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil || string(b) != "old\n" {
				t.Errorf("after apply and undo a.txt holds %q, %v; want it back as it was", b, err)
			}
		})
	}
}
