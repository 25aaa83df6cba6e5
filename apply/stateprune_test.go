package apply

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/edit"
)

// TestApplyPrunesStates: an apply removes the stale state of a root gone
// since, keeps its own, and undo goes on working; the next apply, the
// same day, examines nothing.
func TestApplyPrunesStates(t *testing.T) {
	host, _ := os.Hostname()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	writeTree(t, root, tree{"a.txt": "1\n"})
	opts := Options{Root: root, StateDir: filepath.Join(tmp, "state")}
	monthAgo := time.Now().Add(-30 * day)
	stale, _ := stateFor(t, opts.StateDir, filepath.Join(tmp, "gone"), host, monthAgo)
	mine, _ := stateFor(t, opts.StateDir, root, host, monthAgo)

	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "1", "2")}, opts); err != nil {
		t.Fatal(err)
	}
	if exists(stale) || !exists(mine) {
		t.Errorf("after an apply: stale kept %v, the root's own kept %v; want false, true", exists(stale), exists(mine))
	}
	stale2, _ := stateFor(t, opts.StateDir, filepath.Join(tmp, "gone2"), host, monthAgo)
	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "2", "3")}, opts); err != nil {
		t.Fatal(err)
	}
	if !exists(stale2) {
		t.Error("a second apply the same day pruned again")
	}
	if cps, err := History(opts); err != nil || len(cps) != 3 {
		t.Fatalf("History = %d checkpoints, %v; want 3", len(cps), err)
	}
	for _, want := range []string{"2\n", "1\n"} {
		if _, err := Undo(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, root)["a.txt"]; got != want {
			t.Errorf("a.txt = %q, want %q", got, want)
		}
	}
}

// TestApplyPrunesJournalTemps: an apply removes the stale journal temp
// files of its root's state directory, a killed apply's, and keeps a
// fresh one and any other name; it does so only holding the root's lock,
// so an apply that cannot take it, or a dry run, leaves them.
func TestApplyPrunesJournalTemps(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	writeTree(t, root, tree{"a.txt": "1\n"})
	opts := Options{Root: root, StateDir: filepath.Join(tmp, "state")}
	dir := filepath.Join(opts.StateDir, HashBytes([]byte(root)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	put := func(name string, when time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("half a journal"), 0o600); err != nil {
			t.Fatal(err)
		}
		setTimes(t, when, p)
		return p
	}
	stale := put(".journal-1001.tmp", now.Add(-48*time.Hour))
	fresh := put(".journal-1002.tmp", now)
	otherName := put(".journal-1003.tmp.keep", now.Add(-48*time.Hour))

	unlock, e := lockRoot(context.Background(), root, -1)
	if e != nil {
		t.Fatal(e)
	}
	held := opts
	held.LockTimeout = -1
	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "1", "2")}, held); err == nil {
		t.Fatal("an apply went ahead while the root's lock was held")
	}
	unlock()
	dry := opts
	dry.DryRun = true
	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "1", "2")}, dry); err != nil {
		t.Fatal(err)
	}
	if !exists(stale) {
		t.Fatal("the stale temp was removed without the root's lock")
	}

	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "1", "2")}, opts); err != nil {
		t.Fatal(err)
	}
	if exists(stale) || !exists(fresh) || !exists(otherName) {
		t.Errorf("after an apply: stale kept %v, fresh kept %v, another name kept %v; want false, true, true",
			exists(stale), exists(fresh), exists(otherName))
	}
	if got := readTree(t, root)["a.txt"]; got != "2\n" {
		t.Errorf("a.txt = %q, want %q", got, "2\n")
	}
}

// TestJournalSaveAfterPrune: a state directory removed by another
// process's pruning between its making and the journal's writing is made
// again, and the apply keeps its undo.
func TestJournalSaveAfterPrune(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "1\n"})
	opts := testOpts(t, root)
	removed := false
	journal.SaveHook = func(dir string) {
		if !removed {
			removed = os.Remove(dir) == nil
		}
	}
	t.Cleanup(func() { journal.SaveHook = nil })
	res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "1", "2")}, opts)
	if err != nil || !removed {
		t.Fatalf("Apply: %v; state directory removed before the journal's writing: %v", err, removed)
	}
	if res.Journal == "" || res.NoUndo != "" {
		t.Fatalf("journal %q, no undo %q; want the journal saved", res.Journal, res.NoUndo)
	}
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, root)["a.txt"]; got != "1\n" {
		t.Errorf("a.txt after undo = %q", got)
	}
}

const day = 24 * time.Hour

// setTimes dates each of paths at when, in order.
func setTimes(t *testing.T, when time.Time, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

// stateFor makes base's state directory for root, holding one journal of
// an apply made at when on host, every time in it dated when. It returns
// the directory and the journal.
func stateFor(t *testing.T, base, root, host string, when time.Time) (dir, jname string) {
	t.Helper()
	dir = filepath.Join(base, HashBytes([]byte(root)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	j := &journal.Journal{Root: root, ID: "00112233445566ff", Time: when, PID: 1, Host: host, Done: true}
	jname = filepath.Join(dir, j.FileName())
	if _, err := fsio.WriteFileAtomic(jname, j.Pieces(), false); err != nil {
		t.Fatal(err)
	}
	setTimes(t, when, jname, dir)
	return dir, jname
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
