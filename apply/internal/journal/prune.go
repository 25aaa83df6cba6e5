package journal

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
)

// A state base (see Dirs) gains a directory for every root ever
// applied in, each with up to HistorySize journals holding the original
// bytes of every file edited. A harness that applies in a fresh worktree
// or temp copy per task leaves thousands whose roots are gone. pruneStates
// removes those, a few at a time, a pass at most once a day.
const (
	// stateGrace is how long the state directory of a missing root is
	// kept after its last change: a disk unmounted over a long weekend or
	// a holiday, or a root renamed and renamed back, finds its history
	// still there. Long enough for that, short enough that a harness's
	// throwaway copies do not pile up for months.
	stateGrace = 7 * 24 * time.Hour
	// pruneInterval is how often a pass over a base starts at most.
	pruneInterval = 24 * time.Hour
	// pruneExamine and pruneRemove bound what one apply does: how many
	// state directories it examines (one lstat each for one in use, a
	// dozen system calls for an old one), and how many of them it removes
	// (unlinks and an rmdir, each a write of the file system's metadata).
	// A pass over a base of thousands goes on across as many applies as it
	// takes; even a harness that makes a new root for every apply leaves
	// fewer than pruneRemove a call.
	pruneExamine = 64
	pruneRemove  = 8
	// pruneStampName is the file in the base that says where its pass
	// is: it holds pruneDone, dated when the last pass ended, or, while a
	// pass is under way, pruneAt and where it goes on (see stateNames).
	pruneStampName = ".prune"
	pruneDone      = "-"
	pruneAt        = "@"
	// stateDirMax is the most entries a state directory edapply made
	// holds: HistorySize journals and the temp files of a few applies
	// killed while they saved theirs. One with more is left alone.
	stateDirMax = 64
	// rootPeek is how much of a journal is read for the root and the host
	// in its header: the root a path of at most a few KiB.
	rootPeek = 8 << 10
)

// pruneLimits bound one call of pruneStates: see pruneExamine.
type pruneLimits struct{ examine, remove int }

// A pruneRun says what one call of pruneStates did, for tests.
type pruneRun struct {
	examined, removed int
	passDone          bool
}

// pruneStates removes from the state base the state directories of roots
// that no longer exist, once nothing in them changed for stateGrace. It
// costs an apply one lstat of the base's stamp, unless a pass is due (the
// last ended pruneInterval ago) or under way: then it examines the next
// directories, within lim, and records where it stopped in the stamp, for
// the next call. A pass runs in one process at a time (a non-blocking
// lock on the stamp; the others go on without pruning). Every failure
// leaves things as they are: pruning is housekeeping, never a reason for
// an apply to fail.
func pruneStates(base string, now time.Time, lim pruneLimits) (run pruneRun) {
	stamp := filepath.Join(base, pruneStampName)
	if fi, err := os.Lstat(stamp); err == nil && passEnded(fi, now) {
		return run
	}
	f, err := os.OpenFile(stamp, stampOpenFlags, 0o600)
	if err != nil {
		return run
	}
	defer f.Close()
	if !fsio.TryLock(f) {
		return run
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return run
	}
	if passEnded(fi, now) {
		return run // another process ended a pass since the lstat above
	}
	var b [128]byte
	n, _ := f.ReadAt(b[:], 0)
	cursor, ok := strings.CutPrefix(string(b[:n]), pruneAt)
	if !ok {
		cursor = "" // a new pass
	}
	names, at, next, more, err := stateNames(base, cursor, lim.examine)
	if err != nil && cursor != "" {
		// A position the directory no longer takes: the pass starts over
		// rather than stop there for good.
		names, at, next, more, err = stateNames(base, "", lim.examine)
	}
	if err != nil {
		return run
	}
	host, _ := os.Hostname()
	for i, name := range names {
		if run.removed == lim.remove {
			next, more = at[i], true
			break
		}
		run.examined++
		if pruneStateDir(base, name, host, now) {
			run.removed++
		}
	}
	next = pruneAt + next
	if !more {
		next = pruneDone
	}
	run.passDone = !more
	if f.Truncate(0) == nil {
		if _, err := f.WriteAt([]byte(next), 0); err == nil && !more {
			setModTime(f, now)
		}
	}
	return run
}

// passEnded reports whether the stamp fi says a pass ended less than
// pruneInterval ago: it holds pruneDone alone, dated recently. A pass
// under way writes more; one killed before it wrote anything, nothing.
func passEnded(fi fs.FileInfo, now time.Time) bool {
	return fi.Mode().IsRegular() && fi.Size() == int64(len(pruneDone)) && recent(fi.ModTime(), now)
}

// PruneStatesBeside prunes the state base that holds the journal just
// saved: the base this apply's environment uses.
func PruneStatesBeside(Journal string) {
	pruneStates(filepath.Dir(filepath.Dir(Journal)), time.Now(), pruneLimits{pruneExamine, pruneRemove})
}

// recent reports whether t is less than pruneInterval away from now, on
// either side: a clock set back does not put the next pass off for as
// long as it went back.
func recent(t, now time.Time) bool {
	d := now.Sub(t)
	return d < pruneInterval && d > -pruneInterval
}

// isStateName reports whether name is one Dirs gives a root's
// state directory: the 64 lowercase hex digits of a SHA-256.
func isStateName(name string) bool {
	if len(name) != 64 {
		return false
	}
	for _, c := range []byte(name) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// stateNamesSorted returns the first batch state directory names in base
// after cursor (the last name a call examined, "" for none), in name
// order; for each, the cursor that lists it first (at); the cursor to go
// on from after them; and whether more follow. Without a directory
// position that lasts from one process to the next, each call reads the
// base's names anew, a chunk at a time, keeping only the batch.
func stateNamesSorted(base, cursor string, batch int) (names, at []string, next string, more bool, err error) {
	d, err := os.Open(base)
	if err != nil {
		return nil, nil, "", false, err
	}
	defer d.Close()
	for {
		chunk, err := d.Readdirnames(1024)
		for _, n := range chunk {
			if n <= cursor || !isStateName(n) {
				continue
			}
			if len(names) == batch {
				more = true
				if n > names[batch-1] {
					continue
				}
				names = names[:batch-1]
			}
			i, _ := slices.BinarySearch(names, n)
			names = slices.Insert(names, i, n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, "", false, err
		}
	}
	at = make([]string, len(names))
	for i := range names {
		at[i] = cursor
		if i > 0 {
			at[i] = names[i-1]
		}
	}
	if more {
		next = names[len(names)-1]
	}
	return names, at, next, more, nil
}

// pruneStateDir removes base's state directory name when it is one
// edapply made, unchanged for stateGrace, and for a root that is gone
// (host is this machine's name):
//
//   - a directory, not a symlink to one, holding nothing but regular
//     files of edapply's naming (journals, a journal's temp file), at
//     most stateDirMax of them;
//   - it and each of them last changed before now-stateGrace, and no
//     journal's name carries a later time;
//   - with journals: the newest that names the root whose SHA-256 is the
//     directory's name was written on this
//     machine, and that root does not exist. A root on another machine
//     cannot be seen from here, and a directory whose journals name no
//     root that hashes to its name is not judged.
//
// With no journal at all (an apply's history all undone, or only the temp
// file of an apply killed while it saved its journal) there is nothing an
// undo could use. It removes only the files it listed, then the directory
// if empty: an apply that saves a journal there meanwhile (its root made
// again) adds a name of its own, which keeps the directory and itself.
func pruneStateDir(base, name, host string, now time.Time) bool {
	cutoff := now.Add(-stateGrace)
	path := filepath.Join(base, name)
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() || !fi.ModTime().Before(cutoff) {
		return false
	}
	d, err := os.OpenRoot(path)
	if err != nil {
		return false
	}
	defer d.Close()
	if st, err := d.Stat("."); err != nil || !os.SameFile(st, fi) {
		return false // not the directory lstat saw
	}
	dh, err := d.Open(".")
	if err != nil {
		return false
	}
	ents, err := dh.ReadDir(stateDirMax + 1)
	dh.Close()
	if err != nil && err != io.EOF || len(ents) > stateDirMax {
		return false
	}
	var files, journals []string
	for _, e := range ents {
		n := e.Name()
		isJournal := IsName(n)
		if !isJournal && !isJournalTemp(n) {
			return false
		}
		fi, err := d.Lstat(n)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(cutoff) {
			return false
		}
		if isJournal && TimeOf(n) >= cutoff.UnixNano() {
			return false
		}
		files = append(files, n)
		if isJournal {
			journals = append(journals, n)
		}
	}
	if len(journals) > 0 {
		root, ok := stateRoot(d, name, host, journals)
		if !ok {
			return false
		}
		if _, err := os.Stat(root); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	for _, n := range files {
		d.Remove(n)
	}
	return rmdir(path) == nil
}

// isJournalTemp reports whether n is a name fsio.WriteFileAtomic gives a
// journal while it writes it: os.CreateTemp puts a decimal number where
// its pattern has "*".
func isJournalTemp(n string) bool {
	digits, ok := strings.CutPrefix(n, ".journal-")
	digits, ok2 := strings.CutSuffix(digits, ".tmp")
	if !ok || !ok2 || digits == "" || len(digits) > 20 {
		return false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// journalTempGrace is how long a journal's temp file in a root's own
// state directory is kept after its last change. Every journal of a root
// is written under the root's lock, which the apply that removes them
// holds, so none of them is being written; the age guards where the file
// system keeps no locks (see fsio.LockRoot): a write dates its file as it goes,
// and an hour is far past the longest a journal takes to write.
const journalTempGrace = time.Hour

// PruneTemps removes the stale ones of temps, the journal temp
// files ListFiles found in the root's own state directories, now
// and within the limits of one apply's pruning.
func PruneTemps(temps []string) {
	if len(temps) > 0 {
		pruneJournalTemps(temps, time.Now(), pruneLimits{pruneExamine, pruneRemove})
	}
}

// pruneJournalTemps removes those of temps (paths of journal temp files)
// that are regular files unchanged for journalTempGrace: what is left of
// an apply or an undo killed while it wrote its journal, which the
// state directory's pruning (pruneStates) never reaches while the root
// exists. The caller holds the root's lock. Each is looked at in its
// directory opened without following a symlink, and is never followed
// itself; lim bounds how many are looked at and removed, the rest waiting
// for the next apply. It returns what it did, for tests.
func pruneJournalTemps(temps []string, now time.Time, lim pruneLimits) (run pruneRun) {
	cutoff := now.Add(-journalTempGrace)
	var d *os.Root
	dir := ""
	defer func() {
		if d != nil {
			d.Close()
		}
	}()
	for _, p := range temps {
		if run.examined == lim.examine || run.removed == lim.remove {
			return run
		}
		run.examined++
		if filepath.Dir(p) != dir {
			if d != nil {
				d.Close()
			}
			dir = filepath.Dir(p)
			d = openDirNoFollow(dir)
		}
		if d == nil {
			continue
		}
		name := filepath.Base(p)
		fi, err := d.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(cutoff) {
			continue
		}
		if d.Remove(name) == nil {
			run.removed++
		}
	}
	return run
}

// openDirNoFollow opens the directory dir as a root, or returns nil when
// dir is not one or is a symlink (to one or not).
func openDirNoFollow(dir string) *os.Root {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	d, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	if st, err := d.Stat("."); err != nil || !os.SameFile(st, fi) {
		d.Close()
		return nil // not the directory lstat saw
	}
	return d
}

// stateRoot returns the root the state directory d, named name, is for,
// from its newest journal that names a root hashing to name and was
// written on this machine, host; false when the newest that names the
// root was written on another, or none names it.
func stateRoot(d *os.Root, name, host string, journals []string) (string, bool) {
	// Newest first: names sort as their times do.
	slices.SortFunc(journals, func(a, b string) int { return strings.Compare(b, a) })
	buf := make([]byte, rootPeek)
	for _, n := range journals {
		f, err := d.OpenFile(n, journalOpenFlags, 0)
		if err != nil {
			continue
		}
		fi, err := f.Stat()
		var k int
		if err == nil && fi.Mode().IsRegular() {
			k, _ = io.ReadFull(f, buf)
		}
		f.Close()
		root, h, ok := journalOrigin(buf[:k])
		if !ok || !filepath.IsAbs(root) || hashHex([]byte(root)) != name {
			continue
		}
		return root, h == host
	}
	return "", false
}

// journalOrigin reads the root and the host at the start b of a journal
// (see format.go): the root begins the header, the host follows the
// id, the time and the process. No checksum is checked: the caller
// trusts a root only when it hashes to the state directory's name.
func journalOrigin(b []byte) (root, host string, ok bool) {
	if _, ok := prelude(b); !ok {
		return "", "", false
	}
	d := decoder{b: b[len(journalMagic)+1:]}
	d.uvarint() // the header's length
	root = d.str()
	d.str()     // the id
	d.varint()  // the time
	d.uvarint() // the process
	host = d.str()
	return root, host, !d.bad
}
