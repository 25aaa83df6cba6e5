package apply

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/edit"
)

func TestUndoRoundTrip(t *testing.T) {
	root, before, edits := txnCase(t)
	opts := testOpts(t, root)
	if _, err := Apply(context.Background(), edits, opts); err != nil {
		t.Fatal(err)
	}
	// The state lives outside the tree.
	ents, _ := os.ReadDir(opts.StateDir)
	dirs := 0
	for _, e := range ents {
		if e.IsDir() {
			dirs++
		}
	}
	if dirs != 1 {
		t.Fatalf("state dir holds %d directories, want one per root", dirs)
	}
	res, err := Undo(context.Background(), opts)
	if err != nil || !res.OK {
		t.Fatalf("Undo: %v", err)
	}
	// a.txt's mode 0751 comes back too.
	unchanged(t, root, before)
	ops := map[string]string{}
	for _, f := range res.Files {
		ops[f.Path] = f.Op
	}
	want := map[string]string{"a.txt": "modify", "b.txt": "modify", "new/deep/n.txt": "delete", "del.txt": "create", "mv.txt": "create", "moved/mv.txt": "delete"}
	for p, op := range want {
		if ops[p] != op {
			t.Errorf("undo op for %s = %q, want %q", p, ops[p], op)
		}
	}

	// Once undone, there is nothing left to undo.
	res, err = Undo(context.Background(), opts)
	if err == nil || !hasCode(res.Errors, edit.CodeUsage) || hasCode(res.Errors, edit.CodeFileNotFound) {
		t.Errorf("second Undo = %v, want USAGE nothing to undo", err)
	}
	unchanged(t, root, before)
}

func TestUndoOutOfDate(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n", "b.txt": "b\n"})
	opts := testOpts(t, root)
	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A"), replace("b.txt", "b", "B")}, opts); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("mine\n"), 0o644)
	res, err := Undo(context.Background(), opts)
	if err == nil || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeOutOfDate || res.Errors[0].Path != "b.txt" {
		t.Fatalf("Undo = %v, want OUT_OF_DATE for b.txt", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "A\n", "b.txt": "mine\n"})

	// Put b.txt back as the apply left it: undo goes through, and a file
	// already as it was before is fine too.
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644)
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatalf("Undo: %v", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "a\n", "b.txt": "b\n"})
}

func TestUndoLastApplyOnly(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "1\n"})
	opts := testOpts(t, root)
	for _, e := range []edit.Edit{replace("a.txt", "1", "2"), replace("a.txt", "2", "3")} {
		if _, err := Apply(context.Background(), []edit.Edit{e}, opts); err != nil {
			t.Fatal(err)
		}
	}
	// A failed apply and a dry run record nothing.
	Apply(context.Background(), []edit.Edit{replace("a.txt", "nope", "x")}, opts)
	dry := opts
	dry.DryRun = true
	Apply(context.Background(), []edit.Edit{replace("a.txt", "3", "4")}, dry)
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, root)["a.txt"]; got != "2\n" {
		t.Errorf("a.txt = %q, want the state before the last apply", got)
	}
}

func TestUndoDryRun(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	opts := testOpts(t, root)
	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts); err != nil {
		t.Fatal(err)
	}
	dry := opts
	dry.DryRun = true
	res, err := Undo(context.Background(), dry)
	if err != nil || len(res.Files) != 1 || string(res.Files[0].After) != "a\n" {
		t.Fatalf("Undo dry run = %+v, %v", res, err)
	}
	if got := readTree(t, root)["a.txt"]; got != "A\n" {
		t.Errorf("dry-run undo wrote: a.txt = %q", got)
	}
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Errorf("Undo after a dry run: %v", err)
	}
}

func TestStateDirInsideRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	opts := Options{Root: root, StateDir: filepath.Join(root, ".state")}
	res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts)
	if err == nil || !hasCode(res.Errors, edit.CodeIO) {
		t.Fatalf("Apply = %v, want IO_ERROR for a state dir inside the root", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "a\n"})

	// The default is used when StateDir is empty, and never lands in the
	// tree, even when the tree holds every default: then there is no undo.
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("HOME", root)
	t.Setenv("TMPDIR", filepath.Join(root, "tmp"))
	opts.StateDir = ""
	res, err = Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts)
	if err != nil || res.Journal != "" || !strings.Contains(res.NoUndo, "undo journal") {
		t.Fatalf("Apply = %v, journal %q, no undo %q; want success without a journal, saying so", err, res.Journal, res.NoUndo)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "A\n"})

	// With the temp directory outside the tree, the journal goes there.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	res, err = Apply(context.Background(), []edit.Edit{replace("a.txt", "A", "B")}, opts)
	if err != nil || !strings.HasPrefix(res.Journal, tmp) {
		t.Fatalf("Apply = %v, journal %q; want one under %s", err, res.Journal, tmp)
	}
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "A\n"})
}

// TestCleanStale: the temp files a killed apply left are removed by the
// next apply or undo, which find them named in its journal, unless the
// process that wrote the journal may still be running. A journal whose
// commit finished is not looked into.
func TestCleanStale(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1) to get a finished process's PID:", err)
	}
	for name, tc := range map[string]struct {
		pid      int
		removed  bool
		viaApply bool
		finished bool // the journal says its commit finished
	}{
		"deadUndo":     {dead.Process.Pid, true, false, false},
		"deadApply":    {dead.Process.Pid, true, true, false},
		"running":      {1, false, true, false}, // init: alive, and not us
		"finishedDead": {dead.Process.Pid, false, true, true},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"a.txt": "a\n", "b.txt": "b\n"})
			opts := testOpts(t, root)
			if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts); err != nil {
				t.Fatal(err)
			}
			// Make it the journal of an apply killed after saving it: one
			// that names a temp file still there, and a process.
			rs := mustResolver(t, root)
			dirs, err := journal.Dirs(opts.StateDir, rs.Abs, rs.Real)
			if err != nil {
				t.Fatal(err)
			}
			jname := journal.List(dirs)[0]
			data, err := os.ReadFile(jname)
			if err != nil {
				t.Fatal(err)
			}
			j, err := journal.Decode(data)
			if err != nil || len(j.Temps) != 1 || !j.Done {
				t.Fatalf("journal %q: %+v, %v; want one temp file and done", data, j, err)
			}
			j.PID, j.Done = tc.pid, tc.finished
			if _, err := fsio.WriteFileAtomic(jname, j.Pieces(), true); err != nil {
				t.Fatal(err)
			}
			tmp := filepath.Join(root, j.Temps[0])
			os.WriteFile(tmp, []byte("A\n"), 0o600)

			if tc.viaApply {
				Apply(context.Background(), []edit.Edit{replace("b.txt", "b", "B")}, opts)
			} else if _, err := Undo(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(tmp); os.IsNotExist(err) != tc.removed {
				t.Errorf("temp file removed = %v, want %v", os.IsNotExist(err), tc.removed)
			}
		})
	}
}

func mustResolver(t *testing.T, root string) *paths.Resolver {
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	rs, err := paths.NewResolver(r, root)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
