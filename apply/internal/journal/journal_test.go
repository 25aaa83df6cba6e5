package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
)

// TestPruneJournalsTakesCleanStalesWord: beyond the history, a journal
// apply's cleanStale judged is removed or kept on its word, without being read
// again; one listed since (not in its map) is read, and kept while its
// apply may be under way.
func TestPruneJournalsTakesCleanStalesWord(t *testing.T) {
	dir := t.TempDir()
	host, _ := os.Hostname()
	var names []string
	for i := range HistorySize + 2 {
		// Every one reads as under way: not done, and written by init,
		// which is running on this machine.
		j := &Journal{Root: "/gone", ID: fmt.Sprintf("%016x", i), Time: time.Unix(0, int64(1000-i)), PID: 1, Host: host}
		name := filepath.Join(dir, j.FileName())
		if _, err := fsio.WriteFileAtomic(name, j.Pieces(), false); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if got := List([]string{dir}); !slices.Equal(got, names) {
		t.Fatalf("listJournals = %q, want %q", got, names)
	}
	judged, unjudged := names[HistorySize], names[HistorySize+1]
	Prune(names, map[string]bool{judged: false})
	if _, err := os.Lstat(judged); !os.IsNotExist(err) {
		t.Errorf("the journal cleanStale judged finished is still there (%v)", err)
	}
	if _, err := os.Lstat(unjudged); err != nil {
		t.Errorf("the journal of an apply that may be under way was removed: %v", err)
	}
	for _, name := range names[:HistorySize] {
		if _, err := os.Lstat(name); err != nil {
			t.Errorf("a journal of the history was removed: %v", err)
		}
	}
}

// TestListJournalFilesPaths: the journals of several state directories,
// each given however its caller spelled it, are listed as
// filepath.Join(dir, name), newest first across the directories; the
// journal temp files apart; anything else is left out.
func TestListJournalFilesPaths(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	name := func(ns int64) string {
		return (&Journal{ID: fmt.Sprintf("%016x", ns), Time: time.Unix(0, ns)}).FileName()
	}
	files := map[string][]string{
		a: {name(30), name(10), ".journal-123.tmp", "notes.txt"},
		b: {name(20), name(40), ".journal-x.tmp"},
	}
	for dir, ns := range files {
		for _, n := range ns {
			if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	sep := string(filepath.Separator)
	spelled := []string{a + sep, b + sep + "." + sep + sep}
	names, temps := ListFiles(spelled)
	want := []string{filepath.Join(b, name(40)), filepath.Join(a, name(30)), filepath.Join(b, name(20)), filepath.Join(a, name(10))}
	if !slices.Equal(names, want) {
		t.Errorf("journals %q, want %q", names, want)
	}
	if want := []string{filepath.Join(a, ".journal-123.tmp")}; !slices.Equal(temps, want) {
		t.Errorf("temps %q, want %q", temps, want)
	}
}

// TestPruneBytes: past the bytes HistoryBytes allows, the older journals
// go, all of them from the first that takes the history past the bound;
// the newest stays whatever its size, and one whose apply may be under
// way stays too.
func TestPruneBytes(t *testing.T) {
	historyBytes = 10_000
	t.Cleanup(func() { historyBytes = HistoryBytes })
	host, _ := os.Hostname()
	// save writes journals of the given sizes of original bytes, newest
	// first; the busy ones read as under way (not done, of a running
	// process on this machine: init).
	save := func(sizes []int, busy map[int]bool) []string {
		dir := t.TempDir()
		var names []string
		for i, n := range sizes {
			j := &Journal{Root: "/r", ID: fmt.Sprintf("%016x", i), Time: time.Unix(0, int64(1000-i)), Done: !busy[i], Host: host,
				Files: []File{{Path: "f", Existed: true, Before: make([]byte, n), Exists: true}}}
			if busy[i] {
				j.PID = 1
			}
			name := filepath.Join(dir, j.FileName())
			if _, err := fsio.WriteFileAtomic(name, j.Pieces(), false); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
		return names
	}
	for _, c := range []struct {
		name  string
		sizes []int
		busy  map[int]bool
		kept  []bool
	}{
		{"within the bound", []int{3000, 3000, 3000}, nil, []bool{true, true, true}},
		{"the fourth passes it", []int{3000, 3000, 3000, 3000, 10}, nil, []bool{true, true, true, false, false}},
		{"the newest alone passes it", []int{20_000, 10, 10}, nil, []bool{true, false, false}},
		{"one under way is kept", []int{20_000, 10, 10}, map[int]bool{1: true}, []bool{true, true, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := save(c.sizes, c.busy)
			Prune(names, nil)
			for i, name := range names {
				_, err := os.Lstat(name)
				if kept := err == nil; kept != c.kept[i] {
					t.Errorf("journal %d of %d bytes: kept %v, want %v", i, c.sizes[i], kept, c.kept[i])
				}
			}
		})
	}
}
