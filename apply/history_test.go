//go:build unix

package apply

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/edit"
)

// TestUndoHistory: undo takes the applies back newest first, each once,
// each refusing a file changed since; History lists them; the root keeps
// HistorySize of them.
func TestUndoHistory(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "1\n", "b.txt": "b\n"})
	opts := testOpts(t, root)
	step := func(from, to int) edit.Edit { return replace("a.txt", fmt.Sprint(from), fmt.Sprint(to)) }
	for i := 1; i < 4; i++ {
		if _, err := Apply(context.Background(), []edit.Edit{step(i, i+1)}, opts); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Apply(context.Background(), []edit.Edit{{Op: edit.Create, Path: "c.txt", New: "c\n"}}, opts); err != nil {
		t.Fatal(err)
	}
	cps, err := History(opts)
	if err != nil || len(cps) != 4 {
		t.Fatalf("History = %d checkpoints, %v; want 4", len(cps), err)
	}
	if f := cps[0].Files; len(f) != 1 || f[0].Path != "c.txt" || f[0].Op != "create" || cps[0].Err != nil {
		t.Errorf("newest checkpoint = %+v, want the creation of c.txt", cps[0])
	}
	for k := 1; k < len(cps); k++ {
		if !cps[k].Time.Before(cps[k-1].Time) || cps[k].ID == cps[k-1].ID {
			t.Errorf("checkpoints %d and %d are not newest first: %v, %v", k-1, k, cps[k-1].Time, cps[k].Time)
		}
	}

	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "after one undo", readTree(t, root), tree{"a.txt": "4\n", "b.txt": "b\n"})
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "after two", readTree(t, root), tree{"a.txt": "3\n", "b.txt": "b\n"})

	// A file changed since: the next step refuses, and stays refused.
	writeTree(t, root, tree{"a.txt": "mine\n"})
	if res, err := Undo(context.Background(), opts); err == nil || !hasCode(res.Errors, edit.CodeOutOfDate) {
		t.Fatalf("Undo over a changed file = %v, want OUT_OF_DATE", err)
	}
	writeTree(t, root, tree{"a.txt": "3\n"})
	for _, want := range []string{"2\n", "1\n"} {
		if _, err := Undo(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, root)["a.txt"]; got != want {
			t.Errorf("a.txt = %q, want %q", got, want)
		}
	}
	if res, err := Undo(context.Background(), opts); err == nil || !hasCode(res.Errors, edit.CodeUsage) {
		t.Errorf("Undo past the history = %v, want nothing to undo", err)
	}

	// Only the last HistorySize applies are kept.
	for i := 1; i < HistorySize+4; i++ {
		if _, err := Apply(context.Background(), []edit.Edit{step(i, i+1)}, opts); err != nil {
			t.Fatal(err)
		}
	}
	if cps, _ := History(opts); len(cps) != HistorySize {
		t.Errorf("History after %d applies = %d checkpoints, want %d", HistorySize+3, len(cps), HistorySize)
	}
}

// onlyJournal returns the file name of root's one journal.
func onlyJournal(t *testing.T, opts Options) string {
	t.Helper()
	rs := mustResolver(t, opts.Root)
	dirs, err := journal.Dirs(opts.StateDir, rs.Abs, rs.Real)
	if err != nil {
		t.Fatal(err)
	}
	names := journal.List(dirs)
	if len(names) != 1 {
		t.Fatalf("%d journals, want 1", len(names))
	}
	return names[0]
}

// TestUndoTamper: a journal changed by a byte anywhere but its status is
// refused before anything is written, with an error naming it.
func TestUndoTamper(t *testing.T) {
	for _, where := range []string{"content", "record", "header"} {
		t.Run(where, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"a.txt": "original bytes\n"})
			opts := testOpts(t, root)
			if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "original", "new")}, opts); err != nil {
				t.Fatal(err)
			}
			name := onlyJournal(t, opts)
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			var i int
			switch where {
			case "content":
				i = strings.LastIndex(string(data), "original")
			case "record":
				i = strings.LastIndex(string(data), "a.txt")
			case "header":
				i = strings.Index(string(data), root)
			}
			data[i+1] ^= 0x20
			if err := os.WriteFile(name, data, 0o600); err != nil {
				t.Fatal(err)
			}
			res, err := Undo(context.Background(), opts)
			if err == nil || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), name) {
				t.Fatalf("Undo of a tampered journal = %v, want IO_ERROR naming %s", err, name)
			}
			diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "new bytes\n"})
			if cps, _ := History(opts); len(cps) != 1 || cps[0].Err == nil {
				t.Errorf("History = %+v, want the journal marked unusable", cps)
			}
		})
	}
}

// TestJournalNotRegular: a FIFO, or a symlink to /dev/zero, where the
// newest journal should be is refused at once by undo, and an apply goes
// ahead past it (cleanStale must not block on it either).
func TestJournalNotRegular(t *testing.T) {
	for _, kind := range []string{"fifo", "devzero", "dir"} {
		t.Run(kind, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"a.txt": "a\n"})
			opts := testOpts(t, root)
			if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts); err != nil {
				t.Fatal(err)
			}
			real := onlyJournal(t, opts)
			// A name that sorts after the real journal's.
			name := filepath.Join(filepath.Dir(real), "j-99999999999999999999-ffffffffffffffff")
			var err error
			switch kind {
			case "fifo":
				err = syscall.Mkfifo(name, 0o600)
			case "devzero":
				err = os.Symlink("/dev/zero", name)
			case "dir":
				err = os.Mkdir(name, 0o700)
			}
			if err != nil {
				t.Skip(err)
			}
			res, err := Undo(context.Background(), opts)
			if err == nil || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), name) {
				t.Fatalf("Undo = %v, want IO_ERROR naming %s", err, name)
			}
			diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "A\n"})
			if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "A", "B")}, opts); err != nil {
				t.Fatalf("Apply past it: %v", err)
			}
		})
	}
}

// TestUndoNewestAcrossDirs: when the environment makes an apply's journal
// fall back to another state directory, undo takes that newer journal,
// not the older one in the preferred directory.
func TestUndoNewestAcrossDirs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "1\n"})
	state, cache := t.TempDir(), t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CACHE_HOME", cache)
	opts := Options{Root: root}
	if res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "1", "2")}, opts); err != nil || !strings.HasPrefix(res.Journal, state) {
		t.Fatalf("first Apply = %v, journal %q; want one under %s", err, res.Journal, state)
	}
	// The preferred directory cannot be written: the next journal falls
	// back to the cache directory.
	os.Chmod(filepath.Join(state, "edapply"), 0o500)
	t.Cleanup(func() { os.Chmod(filepath.Join(state, "edapply"), 0o700) })
	for _, d := range mustGlob(t, filepath.Join(state, "edapply", "*")) {
		os.Chmod(d, 0o500)
		t.Cleanup(func() { os.Chmod(d, 0o700) })
	}
	res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "2", "3")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Journal, cache) {
		if os.Geteuid() == 0 {
			t.Skip("root writes to a read-only directory")
		}
		t.Fatalf("second journal %q, want one under %s", res.Journal, cache)
	}
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "after undo", readTree(t, root), tree{"a.txt": "2\n"})
}

func mustGlob(t *testing.T, pattern string) []string {
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("glob %s: %v, %v", pattern, m, err)
	}
	return m
}
