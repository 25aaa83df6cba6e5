//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
)

const day = 24 * time.Hour

var defaultLimits = pruneLimits{pruneExamine, pruneRemove}

// setTimes dates each of paths at when, in order: a directory's own time
// last, after the files written in it.
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
	dir = filepath.Join(base, hashHex([]byte(root)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	j := &Journal{Root: root, ID: "00112233445566ff", Time: when, PID: 1, Host: host, Done: true}
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

// TestPruneStates: a state directory is removed only when it is one
// edapply made, nothing in it changed for the grace, and its root is gone
// (or it holds no journal); everything else in the base is left as it
// is, symlinks and names of another form included.
func TestPruneStates(t *testing.T) {
	now := time.Now()
	old, young := now.Add(-30*day), now.Add(-stateGrace+day)
	host, _ := os.Hostname()
	tmp := t.TempDir()
	base := filepath.Join(tmp, "state")
	gone := func(name string) string { return filepath.Join(tmp, "gone", name) }
	there := filepath.Join(tmp, "there")
	if err := os.Mkdir(there, 0o755); err != nil {
		t.Fatal(err)
	}

	removed, kept := map[string]string{}, map[string]string{}
	removed["missing root, past the grace"], _ = stateFor(t, base, gone("a"), host, old)
	kept["missing root, within the grace"], _ = stateFor(t, base, gone("b"), host, young)
	kept["existing root, past the grace"], _ = stateFor(t, base, there, host, old)
	kept["missing root on another machine"], _ = stateFor(t, base, gone("c"), host+"-elsewhere", old)

	// A journal whose name says it is recent, though its times are old.
	d, j := stateFor(t, base, gone("d"), host, young)
	setTimes(t, old, j, d)
	kept["journal named within the grace"] = d

	// One written since the others, the directory's time kept old.
	d, _ = stateFor(t, base, gone("e"), host, old)
	late := filepath.Join(d, ".journal-42.tmp")
	os.WriteFile(late, nil, 0o600)
	setTimes(t, young, late)
	setTimes(t, old, d)
	kept["a file changed within the grace"] = d

	empty := filepath.Join(base, hashHex([]byte(gone("f"))))
	os.Mkdir(empty, 0o700)
	setTimes(t, old, empty)
	removed["no journal, past the grace"] = empty
	emptyYoung := filepath.Join(base, hashHex([]byte(gone("g"))))
	os.Mkdir(emptyYoung, 0o700)
	setTimes(t, young, emptyYoung)
	kept["no journal, within the grace"] = emptyYoung

	d = filepath.Join(base, hashHex([]byte(gone("h"))))
	os.Mkdir(d, 0o700)
	os.WriteFile(filepath.Join(d, ".journal-7.tmp"), []byte("half a journal"), 0o600)
	setTimes(t, old, filepath.Join(d, ".journal-7.tmp"), d)
	removed["only a journal's temp file"] = d

	d = filepath.Join(base, hashHex([]byte(gone("i"))))
	os.Mkdir(d, 0o700)
	os.WriteFile(filepath.Join(d, "journal"), []byte("edapply journal 4\n"), 0o600)
	setTimes(t, old, filepath.Join(d, "journal"), d)
	kept["a file no release names a journal"] = d
	d, _ = stateFor(t, base, gone("s"), host, old)
	moved := filepath.Join(base, hashHex([]byte(gone("r"))))
	if err := os.Rename(d, moved); err != nil {
		t.Fatal(err)
	}
	setTimes(t, old, moved)
	kept["a journal naming a root that is not the directory's"] = moved

	d, j = stateFor(t, base, gone("j"), host, old)
	os.WriteFile(j, []byte("edapply journal 5\n\x01garbage"), 0o600)
	setTimes(t, old, j, d)
	kept["a damaged journal"] = d

	d, _ = stateFor(t, base, gone("k"), host, old)
	os.WriteFile(filepath.Join(d, "notes.txt"), []byte("mine"), 0o600)
	setTimes(t, old, filepath.Join(d, "notes.txt"), d)
	kept["a file edapply does not make"] = d

	d, _ = stateFor(t, base, gone("l"), host, old)
	os.Mkdir(filepath.Join(d, "sub"), 0o700)
	setTimes(t, old, filepath.Join(d, "sub"), d)
	kept["a subdirectory"] = d

	// A journal's name on a symlink, to a file outside that must stay.
	outside := filepath.Join(tmp, "outside")
	os.WriteFile(outside, []byte("precious"), 0o600)
	d = filepath.Join(base, hashHex([]byte(gone("m"))))
	os.Mkdir(d, 0o700)
	link := filepath.Join(d, (&Journal{ID: "0123456789abcdef", Time: old}).FileName())
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	setTimes(t, old, d)
	kept["a symlink named as a journal"] = d

	// A state directory's name on a symlink, to a directory that would be
	// removed under its own name.
	elsewhere := filepath.Join(tmp, "elsewhere")
	target, targetJournal := stateFor(t, elsewhere, gone("n"), host, old)
	symName := filepath.Join(base, filepath.Base(target))
	if err := os.Symlink(target, symName); err != nil {
		t.Fatal(err)
	}
	// Names of another form, and a file with a state directory's name.
	for _, n := range []string{"notes", strings.ToUpper(hashHex([]byte(gone("o")))), hashHex([]byte(gone("p")))[:63]} {
		os.Mkdir(filepath.Join(base, n), 0o700)
		setTimes(t, old, filepath.Join(base, n))
		kept["named "+n] = filepath.Join(base, n)
	}
	file := filepath.Join(base, hashHex([]byte(gone("q"))))
	os.WriteFile(file, nil, 0o600)
	setTimes(t, old, file)
	kept["a file"] = file

	run := pruneStates(base, now, defaultLimits)
	if !run.passDone || run.removed != len(removed) {
		t.Errorf("pruneStates = %+v, want the pass done and %d removed", run, len(removed))
	}
	for what, d := range removed {
		if exists(d) {
			t.Errorf("%s: kept, want removed", what)
		}
	}
	for what, d := range kept {
		if !exists(d) {
			t.Errorf("%s: removed, want kept", what)
		}
	}
	for _, p := range []string{link, outside, symName, targetJournal, filepath.Join(kept["a file edapply does not make"], "notes.txt")} {
		if !exists(p) {
			t.Errorf("%s was removed", p)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the file a symlink leads to holds %q", b)
	}
}

// TestPruneStatesOnceADay: a pass that ended is not begun again before a
// day has gone by (nor after the clock went back less than a day); a
// pass under way goes on at every call, within its limits, each
// directory examined once, until it ends.
func TestPruneStatesOnceADay(t *testing.T) {
	now := time.Now()
	host, _ := os.Hostname()
	tmp := t.TempDir()
	base := filepath.Join(tmp, "state")
	there := t.TempDir()
	var stale []string
	for _, r := range []string{"a", "b", "c"} {
		d, _ := stateFor(t, base, filepath.Join(tmp, "gone", r), host, now.Add(-30*day))
		stale = append(stale, d)
	}
	stateFor(t, base, there, host, now.Add(-30*day))
	stateFor(t, base, filepath.Join(tmp, "gone", "young"), host, now.Add(-day))

	examined := 0
	for call := 1; ; call++ {
		run := pruneStates(base, now, pruneLimits{examine: 2, remove: 1})
		examined += run.examined
		if run.examined == 0 || run.examined > 2 || run.removed > 1 {
			t.Fatalf("call %d: %+v, want 1 or 2 directories examined, at most 1 removed", call, run)
		}
		if run.passDone {
			break
		}
	}
	if examined != 5 {
		t.Errorf("the pass examined %d directories, want each of the 5 once", examined)
	}
	for _, d := range stale {
		if exists(d) {
			t.Errorf("%s kept", d)
		}
	}

	later, _ := stateFor(t, base, filepath.Join(tmp, "gone", "later"), host, now.Add(-30*day))
	for _, at := range []time.Time{now, now.Add(23 * time.Hour), now.Add(-23 * time.Hour)} {
		if run := pruneStates(base, at, defaultLimits); run.examined != 0 {
			t.Errorf("at %v from the pass: %+v, want nothing done", at.Sub(now), run)
		}
	}
	if !exists(later) {
		t.Fatal("a directory was removed by a pass that was not due")
	}
	if run := pruneStates(base, now.Add(25*time.Hour), defaultLimits); !run.passDone || run.removed != 1 || exists(later) {
		t.Errorf("a day later: %+v, want a pass that removes the one stale directory", run)
	}
}

// TestPruneStatesContention: while another process holds the base's
// stamp, a pass is not begun, and nothing is removed.
func TestPruneStatesContention(t *testing.T) {
	now := time.Now()
	host, _ := os.Hostname()
	tmp := t.TempDir()
	base := filepath.Join(tmp, "state")
	d, _ := stateFor(t, base, filepath.Join(tmp, "gone"), host, now.Add(-30*day))
	other, err := os.OpenFile(filepath.Join(base, pruneStampName), stampOpenFlags, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if !fsio.TryLock(other) {
		t.Fatal("cannot lock the stamp")
	}
	if run := pruneStates(base, now, defaultLimits); run != (pruneRun{}) || !exists(d) {
		t.Errorf("with the stamp locked: %+v, directory kept %v; want nothing done", run, exists(d))
	}
	other.Close()
	if run := pruneStates(base, now, defaultLimits); run.removed != 1 || exists(d) {
		t.Errorf("with the stamp free: %+v, want the stale directory removed", run)
	}
}

// TestPruneStatesBadCursor: a stamp whose position the directory does
// not take (damaged, or from another system) starts the pass over, and
// it ends.
func TestPruneStatesBadCursor(t *testing.T) {
	now := time.Now()
	host, _ := os.Hostname()
	for _, cursor := range []string{pruneAt + "-5", pruneAt + "x", pruneAt + "99999999999999999999"} {
		tmp := t.TempDir()
		base := filepath.Join(tmp, "state")
		d, _ := stateFor(t, base, filepath.Join(tmp, "gone"), host, now.Add(-30*day))
		if err := os.WriteFile(filepath.Join(base, pruneStampName), []byte(cursor), 0o600); err != nil {
			t.Fatal(err)
		}
		for call := 0; call < 3 && exists(d); call++ {
			pruneStates(base, now, defaultLimits)
		}
		if exists(d) {
			t.Errorf("stamp %q: the stale directory is still there after three calls", cursor)
		}
		if run := pruneStates(base, now, defaultLimits); run.examined != 0 {
			t.Errorf("stamp %q: %+v after the pass; want it ended", cursor, run)
		}
	}
}

// TestStateNames: called again from the cursor each call returns, a
// lister gives every state directory name of the base once, a batch at a
// time, and no other name, while the names it gave are removed between
// calls as a pass removes them; from the cursor it gives beside a name,
// that name comes first.
func TestStateNames(t *testing.T) {
	for what, list := range map[string]func(string, string, int) ([]string, []string, string, bool, error){
		"stateNames": stateNames, "stateNamesSorted": stateNamesSorted,
	} {
		t.Run(what, func(t *testing.T) {
			base := t.TempDir()
			if names, at, next, more, err := list(base, "", 7); len(names)+len(at) != 0 || next != "" || more || err != nil {
				t.Fatalf("an empty base: %q, %q, %q, %v, %v", names, at, next, more, err)
			}
			want := map[string]bool{}
			for i := range 300 {
				n := hashHex([]byte{byte(i), byte(i >> 8)})
				want[n] = true
				os.Mkdir(filepath.Join(base, n), 0o700)
			}
			for _, n := range []string{pruneStampName, "notes", strings.ToUpper(hashHex(nil))} {
				os.WriteFile(filepath.Join(base, n), nil, 0o600)
			}
			seen := map[string]bool{}
			cursor := ""
			for call := 0; ; call++ {
				names, at, next, more, err := list(base, cursor, 7)
				if err != nil || len(names) > 7 || len(at) != len(names) || more && (len(names) != 7 || next == "") {
					t.Fatalf("call %d: %d names, %d cursors, next %q, more %v, %v", call, len(names), len(at), next, more, err)
				}
				for i := range names {
					if again, _, _, _, _ := list(base, at[i], 1); len(again) != 1 || again[0] != names[i] {
						t.Fatalf("call %d: from the cursor of %q: %q", call, names[i], again)
					}
				}
				for i, n := range names {
					if !want[n] || seen[n] {
						t.Fatalf("call %d gave %q (a state directory: %v; given before: %v)", call, n, want[n], seen[n])
					}
					seen[n] = true
					if i%2 == 0 {
						os.Remove(filepath.Join(base, n))
					}
				}
				if !more {
					break
				}
				cursor = next
			}
			if len(seen) != len(want) {
				t.Errorf("a pass gave %d of the %d state directories", len(seen), len(want))
			}
		})
	}
}

// TestPruneJournalTemps: of what ListFiles lists in a root's state
// directory, a journal's temp file unchanged for the grace is removed; a
// younger one, and anything not a regular file, stays, as does every file
// of another name; a directory reached through a symlink is never
// touched; a call removes at most its limit, the next goes on.
func TestPruneJournalTemps(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "state", "0123")
	other := filepath.Join(tmp, "other")
	for _, d := range []string{dir, other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// now is ahead of the clock, so that everything made by the test
	// without a time set is old: a symlink's own time cannot be set.
	now := time.Now().Add(2 * day)
	old, young := now.Add(-journalTempGrace-time.Minute), now.Add(-journalTempGrace+time.Minute)
	file := func(name string, when time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("half a journal"), 0o600); err != nil {
			t.Fatal(err)
		}
		setTimes(t, when, p)
		return p
	}
	stale := file(".journal-123.tmp", old)
	fresh := file(".journal-456.tmp", young)
	var othersNamed []string
	for _, n := range []string{".journal-x.tmp", ".journal-.tmp", ".journal-12.tmpx", "journal-12.tmp", "notes.txt"} {
		othersNamed = append(othersNamed, file(n, old))
	}
	target := filepath.Join(other, ".journal-9.tmp")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	setTimes(t, old, target)
	link := filepath.Join(dir, ".journal-789.tmp")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	subdir := filepath.Join(dir, ".journal-321.tmp")
	if err := os.Mkdir(subdir, 0o700); err != nil {
		t.Fatal(err)
	}
	setTimes(t, old, subdir)

	journals, temps := ListFiles([]string{dir})
	if len(journals) != 0 || len(temps) != 4 {
		t.Fatalf("listJournalFiles = %q, %q; want no journal and 4 temp names", journals, temps)
	}
	run := pruneJournalTemps(temps, now, defaultLimits)
	if run.removed != 1 || exists(stale) {
		t.Errorf("removed %d, the stale temp kept %v; want 1, false", run.removed, exists(stale))
	}
	for _, p := range append([]string{fresh, link, target, subdir}, othersNamed...) {
		if !exists(p) {
			t.Errorf("%s was removed", p)
		}
	}

	// Through a symlink to the directory: left as it is.
	linkedDir := filepath.Join(tmp, "state", "4567")
	if err := os.Symlink(other, linkedDir); err != nil {
		t.Fatal(err)
	}
	if run := pruneJournalTemps([]string{filepath.Join(linkedDir, ".journal-9.tmp")}, now, defaultLimits); run.removed != 0 || !exists(target) {
		t.Errorf("through a symlinked directory: removed %d; want 0", run.removed)
	}

	var many []string
	for i := range 10 {
		many = append(many, file(".journal-"+strconv.Itoa(1000+i)+".tmp", old))
	}
	if run := pruneJournalTemps(many, now, pruneLimits{64, 8}); run.removed != 8 {
		t.Errorf("10 stale temps, a limit of 8: removed %d", run.removed)
	}
	if run := pruneJournalTemps(many, now, pruneLimits{64, 8}); run.removed != 2 {
		t.Errorf("the next call removed %d; want the 2 left", run.removed)
	}
	if run := pruneJournalTemps([]string{fresh, fresh, fresh}, now, pruneLimits{2, 8}); run.examined != 2 {
		t.Errorf("examined %d with a limit of 2", run.examined)
	}
}
