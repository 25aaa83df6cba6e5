package apply

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testhook"
)

// withHook installs h as testhook.Commit for the duration of the test.
func withHook(t *testing.T, h func(step, p string)) {
	testhook.Commit = h
	t.Cleanup(func() { testhook.Commit = nil })
}

// txnCase is a transaction touching every kind of change: a modification
// (with a mode to keep), a creation in new directories, a deletion and a
// rename.
func txnCase(t *testing.T) (root string, before tree, edits []edit.Edit) {
	root = t.TempDir()
	before = tree{"a.txt": "a\n", "b.txt": "b\n", "del.txt": "del\n", "mv.txt": "mv\n"}
	writeTree(t, root, before)
	if err := os.Chmod(filepath.Join(root, "a.txt"), 0o751); err != nil {
		t.Fatal(err)
	}
	edits = []edit.Edit{
		replace("a.txt", "a\n", "A\n"),
		{Op: edit.Create, Path: "new/deep/n.txt", New: "n\n"},
		replace("b.txt", "b\n", "B\n"),
		{Op: edit.Delete, Path: "del.txt"},
		{Op: edit.Rename, Path: "mv.txt", New: "moved/mv.txt"},
	}
	return root, before, edits
}

// unchanged checks that root holds exactly before, with a.txt's mode, no
// directory the commit made and no temp file.
func unchanged(t *testing.T, root string, before tree) {
	t.Helper()
	diffTrees(t, "tree", readTree(t, root), before)
	if _, ok := before["new/deep/n.txt"]; ok {
		// Another process's file there keeps the directories alive.
		delete(before, "new/deep/n.txt")
		os.RemoveAll(filepath.Join(root, "new"))
	}
	if m := mode(t, filepath.Join(root, "a.txt")).Perm(); m != 0o751 {
		t.Errorf("a.txt mode = %v, want 0751", m)
	}
	for _, d := range []string{"new", "moved"} {
		if _, err := os.Lstat(filepath.Join(root, d)); !os.IsNotExist(err) {
			t.Errorf("directory %s left behind: %v", d, err)
		}
	}
	noTemps(t, root)
}

func TestCommitAll(t *testing.T) {
	root, _, edits := txnCase(t)
	var steps []string
	withHook(t, func(step, p string) { steps = append(steps, step+" "+p) })
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err != nil || !res.OK {
		t.Fatalf("Apply: %v", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "A\n", "b.txt": "B\n", "new/deep/n.txt": "n\n", "moved/mv.txt": "mv\n"})
	if m := mode(t, filepath.Join(root, "a.txt")).Perm(); m != 0o751 {
		t.Errorf("a.txt mode = %v, want 0751", m)
	}
	noTemps(t, root)
	// The journal is saved before anything in the tree changes (it names
	// the temp files and directories to come), every temp is written
	// before the first rename, and deletions come last.
	got := strings.Join(steps, ",")
	want := "journal ,mkdir a.txt,temp a.txt,mkdir new/deep/n.txt,temp new/deep/n.txt,mkdir b.txt,temp b.txt,mkdir moved/mv.txt,temp moved/mv.txt," +
		"rename a.txt,rename new/deep/n.txt,rename b.txt,rename moved/mv.txt,remove del.txt,remove mv.txt,done "
	if got != want {
		t.Errorf("steps =\n%s\nwant\n%s", got, want)
	}
}

func TestCommitDrift(t *testing.T) {
	for _, at := range []string{"a.txt", "b.txt", "new/deep/n.txt", "del.txt", "mv.txt"} {
		t.Run(strings.ReplaceAll(at, "/", "∕"), func(t *testing.T) {
			root, before, edits := txnCase(t)
			withHook(t, func(step, p string) {
				if (step == "rename" || step == "remove") && p == at {
					// Another process writes the file between planning and
					// the rename.
					os.WriteFile(filepath.Join(root, at), []byte("theirs\n"), 0o644)
				}
			})
			res, err := Apply(context.Background(), edits, testOpts(t, root))
			if err == nil || res.OK || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeOutOfDate || res.Errors[0].Path != at {
				t.Fatalf("Apply = %v, want OUT_OF_DATE for %s", err, at)
			}
			// Their write stands; everything else is as before.
			before[at] = "theirs\n"
			unchanged(t, root, before)
		})
	}
}

// TestCommitDriftSameSize has another process rewrite a file in place
// with as many bytes between planning and the rename: its times tell, or
// when it changed too recently for them to (see fileStamp), its bytes.
func TestCommitDriftSameSize(t *testing.T) {
	root, before, edits := txnCase(t)
	withHook(t, func(step, p string) {
		if step == "rename" && p == "b.txt" {
			os.WriteFile(filepath.Join(root, p), []byte("c\n"), 0o644)
		}
	})
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err == nil || res.OK || len(res.Errors) != 1 || res.Errors[0].Code != edit.CodeOutOfDate || res.Errors[0].Path != "b.txt" {
		t.Fatalf("Apply = %v, want OUT_OF_DATE for b.txt", err)
	}
	before["b.txt"] = "c\n"
	unchanged(t, root, before)
}

func TestCommitFailMidway(t *testing.T) {
	for _, at := range []string{"a.txt", "b.txt", "moved/mv.txt", "del.txt", "mv.txt"} {
		t.Run(strings.ReplaceAll(at, "/", "∕"), func(t *testing.T) {
			root, before, edits := txnCase(t)
			withHook(t, func(step, p string) {
				if p != at {
					return
				}
				switch step {
				case "rename":
					// Lose the staged temp file: the rename fails.
					tmps, _ := filepath.Glob(filepath.Join(root, path.Dir(p), ".edapply-*.tmp"))
					for _, tmp := range tmps {
						os.Remove(tmp)
					}
				case "remove":
					// Removal cannot be made to fail for root (tests run as
					// root here); removing the file first fails the step at
					// its drift check instead, after every rename.
					os.Remove(filepath.Join(root, p))
				}
			})
			res, err := Apply(context.Background(), edits, testOpts(t, root))
			if err == nil || res.OK {
				t.Fatalf("Apply succeeded despite the failure at %s", at)
			}
			if at == "del.txt" || at == "mv.txt" {
				delete(before, at) // removed by the hook, not by edapply
			}
			unchanged(t, root, before)
			if res.Errors[0].Path != at {
				t.Errorf("error = %v, want one about %s", res.Errors[0], at)
			}
		})
	}
}

func TestCommitCancelled(t *testing.T) {
	root, before, edits := txnCase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	withHook(t, func(step, p string) {
		if step == "rename" && p == "b.txt" {
			cancel() // as SIGINT would: a.txt and n.txt are already in place
		}
	})
	res, err := Apply(ctx, edits, testOpts(t, root))
	if err == nil || res.OK || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("Apply = %v, want IO_ERROR interrupted", err)
	}
	unchanged(t, root, before)
}

// manyCase is a transaction big enough to be staged and placed on several
// goroutines (txn's parallelMin): modifications spread over a few directories,
// a creation in a new one and a deletion.
func manyCase(t *testing.T) (root string, before tree, edits []edit.Edit, after tree) {
	root = t.TempDir()
	before, after = tree{}, tree{}
	for i := range 40 {
		p := fmt.Sprintf("d%d/f%02d.txt", i%3, i)
		before[p] = fmt.Sprintf("line %d\n", i)
		after[p] = fmt.Sprintf("LINE %d\n", i)
		edits = append(edits, replace(p, before[p], after[p]))
	}
	before["gone.txt"] = "gone\n"
	edits = append(edits, edit.Edit{Op: edit.Create, Path: "new/n.txt", New: "n\n"}, edit.Edit{Op: edit.Delete, Path: "gone.txt"})
	after["new/n.txt"] = "n\n"
	writeTree(t, root, before)
	return root, before, edits, after
}

func TestCommitParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: the commit stays on one goroutine")
	}
	root, _, edits, after := manyCase(t)
	var steps []string
	withHook(t, func(step, p string) { steps = append(steps, step+" "+p) })
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err != nil || !res.OK {
		t.Fatalf("Apply: %v", err)
	}
	diffTrees(t, "tree", readTree(t, root), after)
	noTemps(t, root)
	// Whatever the interleaving: the journal first, every file's directory
	// and then its temp before the first rename, the removal after the last
	// rename.
	phase := map[string]int{"journal": 0, "mkdir": 1, "temp": 1, "rename": 2, "remove": 3, "done": 4}
	last, seen := 0, map[string]bool{}
	for _, st := range steps {
		step, p, _ := strings.Cut(st, " ")
		if phase[step] < last {
			t.Fatalf("%q after a later phase's step:\n%s", st, strings.Join(steps, "\n"))
		}
		last = phase[step]
		if step == "temp" && !seen["mkdir "+p] || seen[st] {
			t.Fatalf("%q out of order or twice:\n%s", st, strings.Join(steps, "\n"))
		}
		seen[st] = true
	}
	if len(steps) != 1+2*41+41+1+1 {
		t.Errorf("%d steps, want %d:\n%s", len(steps), 1+2*41+41+1+1, strings.Join(steps, "\n"))
	}
}

// A failure in either phase, on any of the goroutines, puts every file
// back and leaves no temp file.
func TestCommitParallelFail(t *testing.T) {
	for _, step := range []string{"temp", "rename"} {
		for _, at := range []string{"d0/f00.txt", "d1/f19.txt", "d0/f39.txt"} {
			t.Run(step+"-"+strings.ReplaceAll(at, "/", "∕"), func(t *testing.T) {
				root, before, edits, _ := manyCase(t)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				withHook(t, func(s, p string) {
					if s != step || p != at {
						return
					}
					if step == "temp" {
						cancel() // as SIGINT would, while other temps are written
						return
					}
					os.WriteFile(filepath.Join(root, at), []byte("theirs\n"), 0o644)
				})
				res, err := Apply(ctx, edits, testOpts(t, root))
				if err == nil || res.OK {
					t.Fatal("Apply succeeded despite the failure")
				}
				wantCode := edit.CodeIO
				if step == "rename" {
					wantCode = edit.CodeOutOfDate
					before[at] = "theirs\n"
				}
				if !hasCode(res.Errors, wantCode) {
					t.Errorf("errors = %v, want %s", res.Errors, wantCode)
				}
				diffTrees(t, "tree", readTree(t, root), before)
				noTemps(t, root)
				if _, err := os.Lstat(filepath.Join(root, "new")); !os.IsNotExist(err) {
					t.Errorf("directory new left behind: %v", err)
				}
			})
		}
	}
}
