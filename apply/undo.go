package apply

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/txn"
	"github.com/edapply/edapply/edit"
)

// A journal records what the last apply in a root changed, with the bytes it
// replaced, so Undo can put them back. It lives in the state directory,
// outside the tree, keyed by the root. Its file format is in journalfmt.go:
// a small header (what cleanStale needs), the file records, then the
// original contents as raw bytes.
type journal struct {
	Root  string // absolute
	ID    string // random: which apply this is, in its file name too
	Time  time.Time
	Files []journalFile
	Dirs  []string // directories the apply creates, parents first
	// Temps are the temp files the apply stages its new contents in,
	// root-relative; they are named before the journal is saved, so that
	// files left by an apply killed part way can be proven its own and
	// removed (see cleanStale).
	Temps []string
	PID   int    // the applying process, while it runs
	Host  string // the machine it ran on
	// Done says the commit finished: it left no temp file or directory
	// for cleanStale to remove.
	Done bool
	// saved is the journal file save wrote, for markDone.
	saved fs.FileInfo
}

type journalFile struct {
	Path      string // root-relative, resolved
	Existed   bool   // the file existed before
	Before    []byte // its bytes then
	BeforeSum uint64 // their contentSum, checked before undo writes them
	Mode      uint32 // its mode then
	Exists    bool   // the file exists after
	AfterLen  uint64 // the length of its bytes after (0 when deleted)
	AfterSum  uint64 // their contentSum
	// WasLink and IsLink say the path was, and is after, a symbolic
	// link: its bytes are then the link's target (see fsio.State.Link), and
	// undo puts a link back as a link.
	WasLink, IsLink bool
}

// contentSum is how the journal knows a file still holds what the apply
// wrote, so that undo overwrites no change made since: CRC-32C and CRC-32
// (IEEE) of the bytes, 64 bits between them, with the length beside it.
// Not the receipt's SHA-256: the journal is written before the first
// rename, so its check is on the commit's path, and both CRCs run on
// hardware instructions, fifteen times as fast (1.5 MB: 0.09 ms, against
// 0.7 ms). A check against chance, which is all undo needs: whoever
// crafts a collision only makes undo put back the file's original bytes.
func contentSum(b []byte) uint64 {
	return uint64(crc32c(b))<<32 | uint64(crc32.ChecksumIEEE(b))
}

// crcTableMin is the fewest bytes for which CRC-32C is worth the tables
// of the hardware's three-way CRC: making them takes 0.15 to 0.3 ms of
// CPU, as long as a loop over a plain table takes to sum 50 to 60 KB. A
// small apply, most of them, never makes them.
const crcTableMin = 32 << 10

// crc32c is the CRC-32C of b: through the hardware's tables (castagnoli)
// once they are made or when b is large enough to pay for them, else one
// byte at a time through a 256-entry table. Both give the same sum.
func crc32c(b []byte) uint32 { return crc32.Update(0, castagnoliFor(len(b)), b) }

// castagnoliFor is the table crc32c sums n bytes with.
func castagnoliFor(n int) *crc32.Table {
	if n < crcTableMin && !castagnoliMade.Load() {
		return castagnoliBytewise()
	}
	return castagnoli()
}

// castagnoli is CRC-32C's table from hash/crc32, made on first use rather
// than when the program starts: with SSE 4.2 making it fills the tables of
// the hardware's three-way CRC, which `edapply --version`, a dry run or a
// small apply has no use for. warmCastagnoli makes it on another core when
// an apply of at least crcTableMin bytes starts, well before its journal
// needs it.
var castagnoli = sync.OnceValue(func() *crc32.Table {
	t := crc32.MakeTable(crc32.Castagnoli)
	castagnoliMade.Store(true)
	return t
})

var castagnoliMade atomic.Bool

// castagnoliBytewise is CRC-32C's 256-entry table, built here because
// crc32.MakeTable(crc32.Castagnoli) makes the hardware's tables too; a
// table that is not the package's own makes crc32.Update sum bytewise.
var castagnoliBytewise = sync.OnceValue(func() *crc32.Table {
	t := new(crc32.Table)
	for i := range t {
		crc := uint32(i)
		for range 8 {
			if crc&1 == 1 {
				crc = crc>>1 ^ crc32.Castagnoli
			} else {
				crc >>= 1
			}
		}
		t[i] = crc
	}
	return t
})

var warmed sync.Once

func warmCastagnoli() { warmed.Do(func() { go castagnoli() }) }

// holds reports whether b is the content f was left with.
func (f *journalFile) holds(b []byte) bool {
	return uint64(len(b)) == f.AfterLen && contentSum(b) == f.AfterSum
}

// HistorySize is how many journals a root keeps: its last applies, which
// Undo takes back newest first.
const HistorySize = 10

// journalPrefix starts the file name of every journal in a state
// directory: journalPrefix, the time as 20 decimal digits of Unix
// nanoseconds, "-" and the 16 hex digits of its id, so that names sort
// as the journals' times do, in whichever directory each lies.
const journalPrefix = "j-"

func newJournal(root string, cs []txn.Change) *journal {
	j := &journal{Root: root, ID: fsio.RandomID(), Time: time.Now().UTC(), PID: os.Getpid()}
	j.Host, _ = os.Hostname()
	for _, c := range cs {
		jf := journalFile{Path: c.Path, Existed: c.Orig.Exists, Before: c.Orig.Data, Mode: uint32(c.Orig.Mode), Exists: c.Final.Exists,
			WasLink: c.Orig.Link, IsLink: c.Final.Link}
		jf.BeforeSum = contentSum(jf.Before)
		if c.Final.Exists {
			jf.AfterLen, jf.AfterSum = uint64(c.Final.Size()), chunksSum(c.Final.Chunks())
		}
		j.Files = append(j.Files, jf)
	}
	return j
}

// fileName is j's name in its state directory (see journalPrefix).
func (j *journal) fileName() string {
	return fmt.Sprintf("%s%020d-%s", journalPrefix, j.Time.UnixNano(), j.ID)
}

// isJournalName reports whether base is a name fileName makes.
func isJournalName(base string) bool {
	rest, ok := strings.CutPrefix(base, journalPrefix)
	if !ok || len(rest) != 20+1+16 || rest[20] != '-' {
		return false
	}
	for i, c := range []byte(rest) {
		if i != 20 && !('0' <= c && c <= '9' || i > 20 && 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// listJournals returns the file names of the root's journals in every
// state directory of dirs, newest first: apply and undo look in all of
// them, so that whichever the environment made the first usable, the
// newest journal is the one found. A directory that is not one (a
// symlink put there) is passed over.
func listJournals(dirs []string) []string {
	names, _ := listJournalFiles(dirs)
	return names
}

// listJournalFiles returns listJournals' names and, apart, the paths of
// the journal temp files the same directories hold (see
// pruneJournalTemps), in the order listed.
func listJournalFiles(dirs []string) (names, temps []string) {
	for _, dir := range dirs {
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			continue
		}
		ents, err := readDirNames(dir)
		if err != nil {
			continue
		}
		// Each name is one path element: joined to dir by concatenation,
		// not by a filepath.Join that would clean the whole path again.
		in := filepath.Join(dir, "_")
		in = in[:len(in)-1]
		for _, n := range ents {
			switch {
			case isJournalName(n):
				names = append(names, in+n)
			case isJournalTemp(n):
				temps = append(temps, in+n)
			}
		}
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(lastElem(b), lastElem(a)) })
	return names, temps
}

// lastElem is filepath.Base of a path that does not end in a separator.
func lastElem(p string) string { return p[strings.LastIndexByte(p, filepath.Separator)+1:] }

// readDirNames returns the names dir holds, sorted as os.ReadDir sorts
// them, with dir opened by fsio.OpenDir.
func readDirNames(dir string) ([]string, error) {
	d, err := fsio.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	slices.Sort(names)
	return names, err
}

// journalTime is the time in a journal's file name.
func journalTime(name string) int64 {
	var ns int64
	fmt.Sscanf(filepath.Base(name)[len(journalPrefix):][:20], "%d", &ns)
	return ns
}

// journalDirs returns where the journal for the root rs names may live, in
// order of preference: <state>/<SHA-256 of the absolute root>, where <state>
// is dir if set; else $XDG_STATE_HOME/edapply, the user cache directory's
// edapply, and the system temp directory's edapply-<uid>, skipping any that
// lies inside the root (a tree that holds the user's home, or a test's
// TMPDIR): the tree never gains edapply's files. An explicit dir inside the
// root is an error.
func journalDirs(dir string, rs *resolver) ([]string, error) {
	key := HashBytes([]byte(rs.abs))
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		if insideRoot(abs, rs) {
			return nil, fmt.Errorf("state directory %s is inside the root", abs)
		}
		return []string{filepath.Join(abs, key)}, nil
	}
	var bases []string
	if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		bases = append(bases, filepath.Join(x, "edapply"))
	}
	if c, err := os.UserCacheDir(); err == nil && filepath.IsAbs(c) {
		bases = append(bases, filepath.Join(c, "edapply"))
	}
	bases = append(bases, filepath.Join(os.TempDir(), fmt.Sprintf("edapply-%d", os.Getuid())))
	var dirs []string
	for _, b := range bases {
		if abs, err := filepath.Abs(b); err == nil && !insideRoot(abs, rs) {
			dirs = append(dirs, filepath.Join(abs, key))
		}
	}
	return dirs, nil
}

// insideRoot reports whether dir is the root or under it, judged on the
// nearest existing ancestor with its symlinks evaluated.
func insideRoot(dir string, rs *resolver) bool {
	d, rest := dir, ""
	for {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = filepath.Join(real, rest)
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		rest = filepath.Join(filepath.Base(d), rest)
		d = parent
	}
	for _, base := range []string{rs.abs, rs.real} {
		if rel, err := filepath.Rel(base, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// journalSaveHook, when set (by tests), is called by save with the state
// directory it is about to write the journal in.
var journalSaveHook func(dir string)

// save writes j atomically in the first of the state directories dirs
// that can be made and written, and returns its file name. newest is the
// root's newest journal so far (listJournals), which j's time is put
// after should the clock have gone back, so that undo takes j first.
// With no directory usable, it returns the last error: the caller goes
// on without undo, and says so.
func (j *journal) save(dirs []string, newest string, sync bool) (string, error) {
	if newest != "" && journalTime(newest) >= j.Time.UnixNano() {
		j.Time = time.Unix(0, journalTime(newest)+1).UTC()
	}
	lastErr := errors.New("no state directory outside the root")
	for _, dir := range dirs {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			lastErr = fmt.Errorf("%s: %s", dir, errMsg(err))
			continue
		}
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			lastErr = fmt.Errorf("%s is not a directory", dir)
			continue
		}
		name := filepath.Join(dir, j.fileName())
		if journalSaveHook != nil {
			journalSaveHook(dir)
		}
		var err error
		j.saved, err = fsio.WriteFileAtomic(name, j.pieces(), sync)
		if errors.Is(err, fs.ErrNotExist) && os.Mkdir(dir, 0o700) == nil {
			// Another process's pruneStates removed the directory, empty
			// and old, since it was made.
			j.saved, err = fsio.WriteFileAtomic(name, j.pieces(), sync)
		}
		if err == nil {
			return name, nil
		}
		lastErr = fmt.Errorf("%s: %s", dir, errMsg(err))
	}
	return "", lastErr
}

// remove removes j's journal, saved as name, when it is still the file
// save wrote: a rolled-back apply takes its own journal back, and no
// other.
func (j *journal) remove(name string) {
	if j.saved == nil {
		return
	}
	if fi, err := os.Lstat(name); err == nil && os.SameFile(fi, j.saved) {
		os.Remove(name)
	}
}

// pruneJournals removes the root's journals beyond the newest HistorySize,
// except one whose apply may still be under way (its check running).
// names are the root's journals, newest first (see listJournals); busy is
// what cleanStale learned of them in this apply, so that none is read
// twice: a name it holds is removed unless true, and only a name it does
// not hold (one listed since) is read here.
func pruneJournals(names []string, busy map[string]bool) {
	if len(names) <= HistorySize {
		return
	}
	for _, name := range names[HistorySize:] {
		b, seen := busy[name]
		if !seen {
			b = journalBusy(name)
		}
		if !b {
			os.Remove(name)
		}
	}
}

// journalBusy reports whether the apply that wrote the journal name may
// still be under way: its commit did not finish and its process may be
// running. A journal that cannot be read is not busy.
func journalBusy(name string) bool {
	if journalFinished(name) {
		return false
	}
	j, err := readJournalHeader(name)
	return err == nil && !j.Done && j.running()
}

// Undo restores the files the last Apply in opts.Root changed: modified
// files get their bytes and mode back, created files are removed, deleted
// files restored, renames reversed (as a removal and a restoration), and
// the directories it created removed when empty. It is
// one transaction, like Apply's commit. It refuses with OUT_OF_DATE when any
// of those files changed since that apply (a file already back as it was is
// skipped). When there is nothing to undo (no apply recorded, or it was
// undone already) the error is FILE_NOT_FOUND, naming no path. After a
// successful undo the journal is removed, so a second Undo has nothing to
// do. With opts.DryRun it reports what it would restore and writes nothing.
// Only Root, StateDir, LockTimeout and DryRun are read.
func Undo(ctx context.Context, opts Options) (*Result, error) {
	res := &Result{DryRun: opts.DryRun}
	fail := func(e *edit.Error) (*Result, error) {
		res.Errors.Add(e)
		return res, res.Errors.Err()
	}
	root, err := os.OpenRoot(opts.Root)
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot open root " + opts.Root + ": " + errMsg(err), Err: err})
	}
	defer root.Close()
	rs, err := newResolver(root, opts.Root)
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot resolve root " + opts.Root + ": " + errMsg(err), Err: err})
	}
	if !opts.DryRun {
		unlock, e := lockRoot(ctx, opts.Root, opts.LockTimeout)
		if e != nil {
			return fail(e)
		}
		defer unlock()
	}
	dirs, err := journalDirs(opts.StateDir, rs)
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot find the undo journal: " + errMsg(err), Err: err})
	}
	names := listJournals(dirs)
	if len(names) == 0 {
		return fail(&edit.Error{Code: edit.CodeFileNotFound, Edit: -1, Msg: "nothing to undo: no apply is recorded for this root",
			Hint: fmt.Sprintf("Undo takes back the last %d applies that wrote files in this root, newest first, each once.", HistorySize)})
	}
	name := names[0]
	j, data, jerr := loadJournal(name, rs)
	if jerr != nil {
		return fail(jerr)
	}

	// The files are read through the directory handles the commit then
	// writes through.
	dr := &fsio.Dirs{Root: root}
	defer dr.Close()
	// Nothing is written before the commit below: a cache of the walk
	// from the root serves every path.
	rc := resolveCache{rs: rs, dirs: dr}
	var cs []txn.Change
	for _, jf := range j.Files {
		// A path that was or is a link is the link's own entry, not its
		// target's (see fsio.State.Link).
		links := jf.WasLink || jf.IsLink
		resolve, load := rc.resolve, dr.Load
		if links {
			resolve, load = rc.entry, dr.LoadEntry
		}
		rel, perr := resolve(jf.Path)
		if perr == nil && rel != jf.Path {
			// A symlink appeared on the way since: the path is no longer
			// the file the journal recorded.
			perr = &edit.Error{Code: edit.CodeOutOfDate, Msg: "path now leads through a symlink to " + rel}
		}
		if perr != nil {
			perr.Path, perr.Edit = jf.Path, -1
			res.Errors.Add(perr)
			continue
		}
		now, lerr := load(rel)
		if lerr != nil {
			lerr.Path, lerr.Edit = jf.Path, -1
			res.Errors.Add(lerr)
			continue
		}
		before := fsio.State{Exists: jf.Existed, Data: jf.Before, Mode: fs.FileMode(jf.Mode), Exact: true, Link: jf.WasLink}
		if before.Data == nil && before.Exists {
			before.Data = []byte{}
		}
		switch {
		case now.Exists == jf.Exists && (!now.Exists || now.Link == jf.IsLink && jf.holds(now.Data)):
			cs = append(cs, txn.Change{Path: rel, Orig: now, Final: before})
			res.Files = append(res.Files, undoResult(rel, now, before))
		case before.Equal(now):
			// Already as it was: an interrupted commit or a manual revert.
		default:
			res.Errors.Add(&edit.Error{Code: edit.CodeOutOfDate, Path: jf.Path, Edit: -1,
				Msg:  "file changed since the last apply",
				Hint: "Undo would overwrite those changes; nothing was restored. Revert them first, or restore the file by hand."})
		}
	}
	if len(res.Errors) > 0 || opts.DryRun {
		res.OK = len(res.Errors) == 0
		return res, res.Errors.Err()
	}
	tx := &txn.Txn{Root: root, Changes: cs, Dirs: dr, NoSync: opts.NoSync}
	// The journal is rewritten first to name this undo's temp files (and
	// process) too, so that an undo killed part way leaves nothing the next
	// undo cannot judge and clean up.
	save := func(temps, _ []string) (func(), error) {
		j.Temps = append(j.Temps, temps...)
		j.Done = false // this undo's commit is under way
		j.PID = os.Getpid()
		j.Host, _ = os.Hostname()
		_, err := fsio.WriteFileAtomic(name, j.pieces(), !opts.NoSync)
		return func() { _, _ = fsio.WriteFileAtomic(name, [][]byte{data}, !opts.NoSync) }, err
	}
	if e := tx.Commit(ctx, save); e != nil {
		return fail(e)
	}
	j.removeLeftovers(dr, rs)
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		// The files are restored; a second undo would find them changed
		// and refuse, so this is reported but does no harm.
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "files restored, but the undo journal could not be removed: " + errMsg(err), Err: err})
	}
	res.OK = true
	return res, nil
}

// undoResult reports restoring p from now to before.
func undoResult(p string, now, before fsio.State) *FileResult {
	fr := &FileResult{Path: p}
	if now.Exists {
		fr.Before, fr.BeforeHash = now.Data, HashBytes(now.Data)
	}
	if before.Exists {
		fr.After, fr.AfterHash = before.Data, HashBytes(before.Data)
	}
	switch {
	case !now.Exists:
		fr.Op = "create"
	case !before.Exists:
		fr.Op = "delete"
	default:
		fr.Op = "modify"
	}
	return fr
}

// loadJournal reads and checks the journal in the file name, for the root
// rs names. Anything wrong with it is an IO_ERROR that names it: undo
// writes nothing from a journal it cannot trust.
func loadJournal(name string, rs *resolver) (*journal, []byte, *edit.Error) {
	data, err := readJournalFile(name)
	if err == nil {
		var j *journal
		if j, err = decodeJournal(data); err == nil {
			if j.Root == rs.abs {
				return j, data, nil
			}
			err = errors.New("it is for another root, " + j.Root)
		}
	}
	return nil, nil, &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot use the undo journal " + name + ": " + errMsg(err) + "; nothing was restored", Err: err,
		Hint: "Remove that file to undo the applies before it; the files it names are as that apply left them, or changed since."}
}

// A Checkpoint is one apply that Undo can take back: a journal of the
// root's history.
type Checkpoint struct {
	Journal string    // its file name
	ID      string    // the apply's id
	Time    time.Time // when the apply committed
	Files   []*FileResult
	// Err says why the journal cannot be used (damaged, not a regular
	// file): Undo refuses to go past it until it is removed.
	Err *edit.Error
}

// History lists the applies of opts.Root that Undo can take back, newest
// first, at most HistorySize: each checkpoint's files with the op the
// apply made (their paths, not their contents). Only Root and StateDir
// are read.
func History(opts Options) ([]Checkpoint, error) {
	root, err := os.OpenRoot(opts.Root)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	rs, err := newResolver(root, opts.Root)
	if err != nil {
		return nil, err
	}
	dirs, err := journalDirs(opts.StateDir, rs)
	if err != nil {
		return nil, err
	}
	var cps []Checkpoint
	for _, name := range listJournals(dirs) {
		cp := Checkpoint{Journal: name, Time: time.Unix(0, journalTime(name)).UTC()}
		j, _, e := loadJournal(name, rs)
		if e != nil {
			cp.Err = e
			cps = append(cps, cp)
			continue
		}
		cp.ID, cp.Time = j.ID, j.Time
		for _, f := range j.Files {
			fr := &FileResult{Path: f.Path, Op: "modify"}
			switch {
			case !f.Existed:
				fr.Op = "create"
			case !f.Exists:
				fr.Op = "delete"
			}
			cp.Files = append(cp.Files, fr)
		}
		cps = append(cps, cp)
	}
	return cps, nil
}

// cleanStale removes what an apply killed part way (SIGKILL, a crash, a
// power cut) left in the tree besides its changes: the temp files it had
// staged and the directories it had made that are still empty. Only what
// the root's journals (names, from listJournals) name is touched, and
// only once the process that wrote it is gone, so a concurrent apply
// keeps its files. The changes themselves stay for `edapply undo`, or the
// next apply, to judge. Not covered: a temp file of a rollback (a failed
// or interrupted commit putting files back) killed in its turn; its name
// is recorded nowhere, so it is left rather than guessed at. It returns,
// for each journal, whether its apply may still be under way (see
// journalBusy), for pruneJournals: each journal is read once per apply.
func cleanStale(dr *fsio.Dirs, rs *resolver, names []string) map[string]bool {
	busy := make(map[string]bool, len(names))
	for _, name := range names {
		if journalFinished(name) {
			busy[name] = false
			continue
		}
		// Only the header: the original contents are not needed here.
		j, err := readJournalHeader(name)
		if err != nil {
			busy[name] = false
			continue
		}
		busy[name] = !j.Done && j.running()
		if j.Root == rs.abs && !j.Done {
			j.removeLeftovers(dr, rs)
		}
	}
	return busy
}

// removeLeftovers removes j's temp files that still exist, unless the
// process that wrote j may still be running, then its directories that are
// empty. dr is the root, with the directories already opened.
func (j *journal) removeLeftovers(dr *fsio.Dirs, rs *resolver) {
	root := dr.Root
	if len(j.Temps) > 0 && !j.running() {
		for _, tmp := range j.Temps {
			// Only a regular file of edapply's naming at a path with no
			// symlink on the way: anything else is not a temp file j made.
			base := path.Base(tmp)
			if !txn.IsTempName(base) {
				continue
			}
			// Usually the apply finished and removed its temp files
			// itself: one look in the directory settles that, before
			// resolve walks the path.
			if r, name, err := dr.In(tmp); err != nil {
				continue
			} else if _, err := r.Lstat(name); err != nil {
				continue
			}
			// Its directory, not the entry itself, which may be a link.
			if dir, perr := rs.resolve(path.Dir(tmp)); perr != nil || dir != path.Dir(tmp) {
				continue
			}
			// A temp entry is a file, or a link a rename was to move.
			if fi, err := root.Lstat(tmp); err == nil && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0) {
				root.Remove(tmp)
			}
		}
	}
	for i := len(j.Dirs) - 1; i >= 0; i-- {
		// Only when empty: anything put there since is not ours to remove.
		if rel, perr := rs.resolve(j.Dirs[i]); perr == nil && rel == j.Dirs[i] {
			root.Remove(rel)
		}
	}
}

// running reports whether the process that wrote j may still be
// committing: it ran on another machine, or a process with its PID exists
// (perhaps another one, after reuse: then the leftovers wait for a later
// run, which is the safe way to be wrong). This process's own journal is
// from a commit that has returned, having removed its temp files itself.
func (j *journal) running() bool {
	if j.PID == 0 || j.PID == os.Getpid() {
		return false
	}
	if host, _ := os.Hostname(); j.Host != host {
		return true
	}
	p, err := os.FindProcess(j.PID)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
