package apply

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/edapply/edapply/internal/testhook"
)

// countSyncs counts the fsyncs made (testhook.Sync) for the duration of
// the test.
func countSyncs(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	testhook.Sync = func() { n.Add(1) }
	t.Cleanup(func() { testhook.Sync = nil })
	return &n
}

// TestNoSync runs the same apply and undo with and without NoSync: by
// default the journal, its directory and every staged file are synced;
// with NoSync nothing is, and the files, the journal and undo come out
// the same.
func TestNoSync(t *testing.T) {
	syncs := countSyncs(t)
	for _, noSync := range []bool{false, true} {
		root, before, edits := txnCase(t)
		opts := Options{Root: root, StateDir: t.TempDir(), NoSync: noSync}
		syncs.Store(0)
		res, err := Apply(context.Background(), edits, opts)
		if err != nil || !res.OK || res.Journal == "" {
			t.Fatalf("NoSync=%v: apply: ok=%v journal=%q err=%v", noSync, res.OK, res.Journal, err)
		}
		applied := syncs.Load()
		after := readTree(t, root)
		if maps.Equal(after, before) {
			t.Fatalf("NoSync=%v: apply changed nothing", noSync)
		}
		syncs.Store(0)
		if res, err := Undo(context.Background(), opts); err != nil || !res.OK {
			t.Fatalf("NoSync=%v: undo: %v", noSync, err)
		}
		undone := syncs.Load()
		if got := readTree(t, root); !maps.Equal(got, before) {
			t.Errorf("NoSync=%v: undo left %v, want %v", noSync, got, before)
		}
		t.Logf("NoSync=%v: %d syncs to apply, %d to undo", noSync, applied, undone)
		// Four files staged each way (apply: a.txt, b.txt, new/deep/n.txt
		// and the rename's target; undo: a.txt, b.txt, del.txt, mv.txt),
		// the journal and its directory.
		if !noSync && (applied < 6 || undone < 6) {
			t.Errorf("default: %d syncs to apply, %d to undo; want every staged file, the journal and its directory synced", applied, undone)
		}
		if noSync && (applied != 0 || undone != 0) {
			t.Errorf("NoSync: %d syncs to apply, %d to undo; want none", applied, undone)
		}
	}
}

// TestSyncOrder records a commit's steps and fsyncs in order: the journal
// and its directory are synced before the first temp file exists (so that
// undo can name every file a power cut leaves), and each of the four
// staged files once, all before the first rename (so that a rename
// publishes whole bytes); nothing else is synced.
func TestSyncOrder(t *testing.T) {
	var events []string
	testhook.Sync = func() { events = append(events, "sync") }
	testhook.Commit = func(step, _ string) { events = append(events, step) }
	t.Cleanup(func() { testhook.Sync, testhook.Commit = nil, nil })
	root, _, edits := txnCase(t)
	res, err := Apply(context.Background(), edits, Options{Root: root, StateDir: t.TempDir()})
	if err != nil || !res.OK {
		t.Fatalf("apply: %v", err)
	}
	firstTemp, firstRename := slices.Index(events, "temp"), slices.Index(events, "rename")
	journal := slices.Index(events, "journal")
	if journal < 0 || firstTemp < 0 || firstRename < 0 {
		t.Fatalf("steps %v: want journal, temp and rename", events)
	}
	count := func(from, to int) int { return strings.Count(strings.Join(events[from:to], " "), "sync") }
	if n := count(journal, firstTemp); n != 2 {
		t.Errorf("%d syncs between the journal and the first temp file, want 2 (the journal, its directory): %v", n, events)
	}
	if n := count(firstTemp, firstRename); n != 4 {
		t.Errorf("%d syncs between the first temp file and the first rename, want 4 (one per staged file): %v", n, events)
	}
	if n := count(0, len(events)); n != 6 {
		t.Errorf("%d syncs in all, want 6: %v", n, events)
	}
}
