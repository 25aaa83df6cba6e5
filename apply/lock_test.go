//go:build unix

package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/edit"
)

// TestConcurrentApplies: applies running at once in one root, each
// replacing its own line of a shared file and writing a file of its own,
// all succeed, and every edit they report applied is on disk.
func TestConcurrentApplies(t *testing.T) {
	const n = 16
	root := t.TempDir()
	var shared strings.Builder
	before := tree{}
	for i := range n {
		fmt.Fprintf(&shared, "line %d\n", i)
		before[fmt.Sprintf("own%d.txt", i)] = "mine\n"
	}
	before["shared.txt"] = shared.String()
	writeTree(t, root, before)
	opts := testOpts(t, root)
	var wg sync.WaitGroup
	results := make([]*Result, n)
	for i := range n {
		wg.Go(func() {
			results[i], _ = Apply(context.Background(), []edit.Edit{
				replace("shared.txt", fmt.Sprintf("line %d\n", i), fmt.Sprintf("LINE %d\n", i)),
				replace(fmt.Sprintf("own%d.txt", i), "mine\n", fmt.Sprintf("edited by %d\n", i)),
			}, opts)
		})
	}
	wg.Wait()
	want := tree{}
	var all strings.Builder
	for i, res := range results {
		if !res.OK {
			t.Errorf("apply %d failed: %v", i, res.Errors.Err())
		}
		fmt.Fprintf(&all, "LINE %d\n", i)
		want[fmt.Sprintf("own%d.txt", i)] = fmt.Sprintf("edited by %d\n", i)
	}
	want["shared.txt"] = all.String()
	diffTrees(t, "tree", readTree(t, root), want)
	noTemps(t, root)
}

// holdLock takes root's lock as another apply would and returns its
// release.
func holdLock(t *testing.T, root string) func() {
	t.Helper()
	unlock, e := lockRoot(context.Background(), root, -1)
	if e != nil {
		t.Fatal(e)
	}
	return unlock
}

func TestLockTimeout(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	unlock := holdLock(t, root)
	defer unlock()
	opts := testOpts(t, root)
	opts.LockTimeout = -1 // no wait
	res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts)
	if err == nil || !hasCode(res.Errors, edit.CodeIO) || !strings.Contains(err.Error(), "another edapply") {
		t.Fatalf("Apply with the lock held = %v, want IO_ERROR naming the other edapply", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "a\n"})
	if res, err := Undo(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "another edapply") {
		t.Fatalf("Undo with the lock held = %v, want the lock's error", res.Errors)
	}
	// A dry run writes nothing and takes no lock.
	opts.DryRun = true
	if _, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A")}, opts); err != nil {
		t.Fatalf("dry run with the lock held: %v", err)
	}
}

// TestLockWait: an apply that finds the lock held waits, and goes ahead
// once it is released, on what the holder left.
func TestLockWait(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n"})
	unlock := holdLock(t, root)
	waiting := make(chan struct{})
	fsio.LockWaitHook = func() { close(waiting) }
	t.Cleanup(func() { fsio.LockWaitHook = nil })
	done := make(chan error, 1)
	go func() {
		_, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "b", "B")}, testOpts(t, root))
		done <- err
	}()
	<-waiting
	// The waiting apply plans only once the holder is done: it sees b.
	writeTree(t, root, tree{"a.txt": "b\n"})
	unlock()
	if err := <-done; err != nil {
		t.Fatalf("Apply after the wait: %v", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"a.txt": "B\n"})
}

// TestRollbackAfterForeignWrite: while one apply's check runs, the root is
// not locked: another apply commits, to a file the first one also wrote.
// The first one's check fails; its rollback puts back its other file,
// keeps the second apply's edit (and says so), and leaves the second
// apply's journal, which undo then takes back.
func TestRollbackAfterForeignWrite(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"a.txt": "a\n", "shared.txt": "one\ntwo\n"})
	opts := testOpts(t, root)
	checking := opts
	// The verification says it runs, waits for the test, and fails.
	started, finish := make(chan struct{}), make(chan struct{})
	checking.Verify = func(context.Context, string) (string, error) {
		close(started)
		<-finish
		return "", errors.New("tests failed")
	}
	done := make(chan *Result, 1)
	go func() {
		res, _ := Apply(context.Background(), []edit.Edit{replace("a.txt", "a", "A"), replace("shared.txt", "one", "ONE")}, checking)
		done <- res
	}()
	<-started
	other := opts
	other.LockTimeout = -1 // the lock is free while a verification runs
	res, err := Apply(context.Background(), []edit.Edit{replace("shared.txt", "two", "TWO")}, other)
	if err != nil {
		t.Fatalf("apply during the verification: %v", err)
	}
	close(finish)
	first := <-done
	if first.OK || !hasCode(first.Errors, edit.CodeCheckFailed) {
		t.Fatalf("first apply = %v, want CHECK_FAILED", first.Errors)
	}
	var left *edit.Error
	for _, e := range first.Errors {
		if e.Code == edit.CodeOutOfDate {
			left = e
		}
	}
	if left == nil || left.Path != "shared.txt" || !strings.Contains(left.Msg, "not restored") {
		t.Errorf("first apply's errors = %v, want shared.txt named as not restored", first.Errors)
	}
	diffTrees(t, "after the rollback", readTree(t, root), tree{"a.txt": "a\n", "shared.txt": "ONE\nTWO\n"})
	// The second apply's journal is still there, and its own.
	if _, err := os.Stat(res.Journal); err != nil {
		t.Fatalf("second apply's journal: %v", err)
	}
	if _, err := Undo(context.Background(), opts); err != nil {
		t.Fatalf("Undo of the second apply: %v", err)
	}
	diffTrees(t, "after undo", readTree(t, root), tree{"a.txt": "a\n", "shared.txt": "ONE\ntwo\n"})
}
