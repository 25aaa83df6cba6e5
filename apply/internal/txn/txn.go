package txn

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
	"github.com/edapply/edapply/internal/testhook"
)

// A Change is what Commit does to one path: take it from Orig to Final.
type Change struct {
	Path  string     // root-relative, resolved
	Orig  fsio.State // as planning (or Undo) read it; the drift check compares against it
	Final fsio.State
}

// hook calls testhook.Commit, when set (by tests), at each step of a
// commit with the step's name and the path it concerns: "journal", then
// "mkdir" and "temp" per written file, "rename", "remove" before the step,
// "done" at the end. The "rename" and "remove" calls come just before the
// drift check, so a test can change the file there and see OUT_OF_DATE, or
// make the step fail; the CLI's tests, which run the edapply binary, pause
// a commit part way there. From parallelMin changes on, different files'
// steps interleave (see forEach); the hook is called one at a time all
// the same.
func hook(step, p string) {
	if testhook.Commit == nil {
		return
	}
	hookMu.Lock()
	defer hookMu.Unlock()
	testhook.Commit(step, p)
}

var hookMu sync.Mutex

// A Txn is one commit of a set of changes, with what it needs to undo
// itself: which changes are in place, which temp files and directories it
// made. Root, Changes and Dirs are the caller's; Left is the outcome.
type Txn struct {
	Root    *os.Root
	Changes []Change
	temps   map[int]string // change index → staged temp file
	done    []int          // changes in place, in the order they were made
	dirs    []string       // directories created, parents first
	// unjournal takes back the undo journal the commit saved; nil once
	// done, or before the journal was saved.
	unjournal func()
	// Left are the files a rollback did not put back because they no
	// longer hold what the commit wrote, as OUT_OF_DATE errors.
	Left edit.ErrorList

	// Dirs holds each directory the commit works in open: the handles
	// planning (or Undo) opened, closed by the caller.
	Dirs *fsio.Dirs
	// existing holds the directories known to be there, so that mkdirs
	// does not look at the same parents again for every file.
	existing map[string]bool
	// unsynced are temp files written but not yet synced (see Commit).
	unsynced []unsyncedTemp
	// open holds a token for each temp file open: at most fsio.MaxUnsynced,
	// however the lanes of forEach run ahead of the one syncing a batch.
	open chan struct{}
	// NoSync skips every fsync (apply's Options.NoSync).
	NoSync bool
	// mu guards temps, done, unsynced and mkdirs' fields while changes are
	// staged and placed on several goroutines (forEach).
	mu sync.Mutex
}

type unsyncedTemp struct {
	f    fsio.SyncCloser
	path string // the change's path, for errors
}

// Commit writes every change as one transaction. All new contents are
// already in memory. First the undo journal is saved (and synced, with its
// directory), naming the temp file each new content will be staged in and
// the directories that will be made, so that even after a SIGKILL or a
// power cut `edapply undo` finds the changes made so far and every file
// commit left (see apply's cleanStale); then every new content is staged in its
// temp file beside its target (creating missing parent directories); then
// each temp file is renamed into place, each target re-read first so that
// a change made since planning is OUT_OF_DATE rather than overwritten;
// deletions come last, after every rename succeeded. A failure or a
// cancelled ctx at any point puts back what was already
// done, from the originals in memory, and removes every temp file and
// directory made. saveJournal is given the temp files' and the
// directories' root-relative paths and returns a function that restores
// the journal it replaced. From parallelMin files on, the files are staged,
// and then placed, on a few goroutines (forEach); the phases stay apart.
//
// Durability, decided: every temp file is synced before the first rename,
// so a crash or power cut can never leave a renamed-but-empty (or short)
// file: each file is old or new. The syncs are batched (all temps written,
// up to fsio.MaxUnsynced at a time, then synced in turn) so that a journaling
// file system commits them together instead of once per file. The tree's
// directories are not synced after the renames: a power cut just after
// edapply returns may lose some renames, leaving those files whole and old,
// which the journal (synced before the first rename) lets undo judge.
// GNU patch and git apply sync nothing.
func (t *Txn) Commit(ctx context.Context, saveJournal func(temps, dirs []string) (func(), error)) *edit.Error {
	t.temps = map[int]string{}
	t.open = make(chan struct{}, fsio.MaxUnsynced)
	defer t.removeTemps()

	names := map[int]string{}
	var temps []string
	for i, c := range t.Changes {
		if c.Final.Exists {
			names[i] = tempName(path.Dir(c.Path))
			temps = append(temps, names[i])
		}
	}
	if e := t.interrupted(ctx); e != nil {
		return t.abort(e)
	}
	missing := t.missingDirs()
	hook("journal", "")
	undo, err := saveJournal(temps, missing)
	if err != nil {
		return t.abort(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot record the undo journal: " + err.Error(), Err: err,
			Hint: "Set XDG_STATE_HOME (or the state directory option) to a writable directory outside the tree."})
	}
	t.unjournal = undo

	var writes, removals []int
	for i, c := range t.Changes {
		if c.Final.Exists {
			writes = append(writes, i)
		} else {
			removals = append(removals, i)
		}
	}
	if e := t.forEach(writes, func(i int) *edit.Error {
		if e := t.interrupted(ctx); e != nil {
			return e
		}
		return t.stage(i, names[i])
	}); e != nil {
		return t.abort(e)
	}
	rest := t.unsynced
	t.unsynced = nil
	if e := t.syncTemps(rest); e != nil {
		return t.abort(e)
	}

	// Renames first, then deletions, once every rename succeeded.
	for _, is := range [][]int{writes, removals} {
		if e := t.forEach(is, func(i int) *edit.Error {
			if e := t.interrupted(ctx); e != nil {
				return e
			}
			return t.place(i)
		}); e != nil {
			return t.abort(e)
		}
	}
	hook("done", "")
	return nil
}

// parallelMin is the fewest changes a commit stages, and then places, on
// several goroutines (commitLanes): each file's steps are a handful of
// system calls, which a second core halves for a thousand small files;
// for a few, a goroutine costs more than it saves, and their steps keep
// a fixed order.
const parallelMin = 8

// commitLanes is how many goroutines share those steps: the cores, up to
// four, a bound rather than a measured best (the steps are system calls in
// a few directories, whose locks in the kernel they share).
func commitLanes() int { return min(runtime.GOMAXPROCS(0), 4) }

// forEach calls fn(i) for each of is: in order when there are fewer than
// parallelMin, else on commitLanes goroutines that each take the next
// index. It hands out no index after the first error, and returns that
// error once every call under way has returned.
func (t *Txn) forEach(is []int, fn func(i int) *edit.Error) *edit.Error {
	lanes := commitLanes()
	if len(is) < parallelMin || lanes < 2 {
		for _, i := range is {
			if e := fn(i); e != nil {
				return e
			}
		}
		return nil
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		first *edit.Error
		wg    sync.WaitGroup
	)
	for range lanes {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(is) {
					return
				}
				if e := fn(is[k]); e != nil {
					mu.Lock()
					if first == nil {
						first = e
					}
					mu.Unlock()
					next.Store(int64(len(is))) // no more
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// stage writes change i's temp file, name, making its missing parent
// directories first. Every fsio.MaxUnsynced temp files, the one that makes
// them so many syncs them.
func (t *Txn) stage(i int, name string) *edit.Error {
	c := t.Changes[i]
	hook("mkdir", c.Path)
	t.mu.Lock()
	err := t.mkdirs(path.Dir(c.Path))
	t.mu.Unlock()
	if err != nil {
		return writeErr(c.Path, "cannot create directory", err)
	}
	hook("temp", c.Path)
	t.open <- struct{}{}
	f, err := t.writeTemp(name, c.Final)
	if err != nil {
		<-t.open
		return writeErr(c.Path, "cannot write temporary file", err)
	}
	t.mu.Lock()
	t.temps[i] = name
	t.unsynced = append(t.unsynced, unsyncedTemp{f, c.Path})
	var full []unsyncedTemp
	if len(t.unsynced) >= fsio.MaxUnsynced {
		full, t.unsynced = t.unsynced, nil
	}
	t.mu.Unlock()
	if full != nil {
		return t.syncTemps(full)
	}
	return nil
}

// place makes change i, whose temp file (if it writes one) is staged:
// after the drift check, the temp file is renamed over its path, or the
// path is removed.
func (t *Txn) place(i int) *edit.Error {
	c := t.Changes[i]
	step := "rename"
	if !c.Final.Exists {
		step = "remove"
	}
	hook(step, c.Path)
	if e := t.drift(c); e != nil {
		return e
	}
	if c.Final.Exists {
		t.mu.Lock()
		tmp := t.temps[i]
		t.mu.Unlock()
		if err := t.rename(tmp, c.Path); err != nil {
			return writeErr(c.Path, "cannot rename into place", err)
		}
	} else if err := t.remove(c.Path); err != nil {
		return writeErr(c.Path, "cannot delete", err)
	}
	t.mu.Lock()
	delete(t.temps, i)
	t.done = append(t.done, i)
	t.mu.Unlock()
	return nil
}

// rename moves the temp file tmp, in p's directory, to p.
func (t *Txn) rename(tmp, p string) error {
	if dir, name := t.Dirs.FileIn(p); dir != nil {
		return fsio.RenameRaw(dir, path.Base(tmp), name)
	}
	r, name, err := t.Dirs.In(p)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		return t.Root.Rename(tmp, p)
	}
	if err != nil {
		return err
	}
	return r.Rename(path.Base(tmp), name)
}

func (t *Txn) remove(p string) error {
	r, name, err := t.Dirs.In(p)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		r, name, err = t.Root, p, nil
	}
	if err != nil {
		return err
	}
	return r.Remove(name)
}

// syncTemps syncs (unless t.NoSync) and closes us, temp files written
// and taken from t.unsynced, and frees their places in t.open. All are
// closed even when one fails; the first failure is returned.
func (t *Txn) syncTemps(us []unsyncedTemp) *edit.Error {
	var e *edit.Error
	for _, u := range us {
		if err := fsio.CloseFile(u.f, !t.NoSync); err != nil && e == nil {
			e = ioErr(u.path, "cannot write temporary file", err)
		}
		<-t.open
	}
	return e
}

// LeftWritten adds to paths each path a rollback could not put back.
func (t *Txn) LeftWritten(paths map[string]bool) {
	for _, j := range t.done {
		paths[t.Changes[j].Path] = true
	}
}

// JournalKept reports whether the undo journal Commit saved still
// stands: false before it was saved and once a rollback took it back.
func (t *Txn) JournalKept() bool { return t.unjournal != nil }

// Revert puts every change of a successful commit back (Verify failed),
// as rollback does, and takes back its journal.
func (t *Txn) Revert() *edit.Error { return t.rollback() }

// interrupted returns an error once ctx is done. It is only noticed
// between steps: the step under way finishes, then everything is put back.
func (t *Txn) interrupted(ctx context.Context) *edit.Error {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	return &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "interrupted: " + cause.Error() + "; no file was changed", Err: cause}
}

// drift reports OUT_OF_DATE when c's path no longer holds what planning read.
// The file is read again and compared byte for byte with planning's copy,
// still in memory: cheaper than hashing it, and exact; unless its stamp
// proves it unchanged (see fsio.Stamp), where a stat alone could miss a
// rewrite of the same size within one clock tick.
func (t *Txn) drift(c Change) *edit.Error {
	same, exists, err := t.Dirs.Holds(c.Path, c.Orig)
	if err == nil && same {
		return nil
	}
	msg := "file changed on disk while edapply ran"
	switch {
	case err != nil:
		msg = err.Msg + " (it changed while edapply ran)"
	case !c.Orig.Exists:
		msg = "file was created while edapply ran"
	case !exists:
		msg = "file was removed while edapply ran"
	}
	return &edit.Error{Code: edit.CodeOutOfDate, Path: c.Path, Edit: -1, Msg: msg,
		Hint: "Something else is editing the tree; re-read the file and resend the edits."}
}

// abort puts back everything done so far and returns e, extended when
// putting back failed too.
func (t *Txn) abort(e *edit.Error) *edit.Error {
	if re := t.rollback(); re != nil {
		e.Msg += "; and then " + re.Msg
		e.Hint = re.Hint
	}
	return e
}

// rollback undoes t.done in reverse, removes the directories t made and the
// temp files left, and takes back the journal the commit saved. A file is
// put back only while it still holds exactly what the commit wrote: one
// that something else wrote since (another apply, while a check ran; the
// check command itself; an editor) keeps what it holds, and t.Left says
// so. When a file cannot be put back the journal is kept, so `edapply
// undo` can finish the job.
func (t *Txn) rollback() *edit.Error {
	var failed []string
	var kept []int
	for j := len(t.done) - 1; j >= 0; j-- {
		c := t.Changes[t.done[j]]
		if same, _, herr := t.Dirs.Holds(c.Path, c.Final); herr != nil || !same {
			why := "it changed after this apply wrote it"
			if herr != nil {
				why = herr.Msg
			}
			t.Left = append(t.Left, &edit.Error{Code: edit.CodeOutOfDate, Path: c.Path, Edit: -1,
				Msg:  "not restored: " + why + "; what it holds now was kept",
				Hint: "Something else wrote this file after the apply (another edit, or the check command); read it before editing it again."})
			kept = append(kept, t.done[j])
			continue
		}
		if err := t.restore(c); err != nil {
			failed = append(failed, c.Path+" ("+fsio.ErrMsg(err)+")")
			kept = append(kept, t.done[j])
		}
	}
	slices.Reverse(kept)
	t.done = kept
	t.removeTemps()
	for j := len(t.dirs) - 1; j >= 0; j-- {
		// Fails, and is left, when something else put a file there.
		if t.Root.Remove(t.dirs[j]) == nil {
			t.dirs = t.dirs[:j]
		}
	}
	if len(failed) > 0 {
		return remedy.Mark(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "could not restore " + strings.Join(failed, ", "),
			Hint: "Undo restores the files from the undo journal."}, remedy.Undo)
	}
	if t.unjournal != nil {
		t.unjournal()
		t.unjournal = nil
	}
	return nil
}

// restore puts c.Orig back at c.Path the same way commit wrote it: temp
// file (synced), then rename.
func (t *Txn) restore(c Change) error {
	if !c.Orig.Exists {
		if err := t.remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	tmp := tempName(path.Dir(c.Path))
	f, err := t.writeTemp(tmp, c.Orig)
	if err != nil {
		return err // writeTemp removed it
	}
	if err = fsio.CloseFile(f, !t.NoSync); err == nil {
		err = t.rename(tmp, c.Path)
	}
	if err != nil {
		t.remove(tmp)
	}
	return err
}

// mkdirs creates dir and its missing parents, remembering each one made so
// that a rollback removes exactly those. Directories missingDirs saw are
// not looked at again.
func (t *Txn) mkdirs(dir string) error {
	if dir == "." || t.existing[dir] {
		return nil
	}
	for _, d := range ancestors(dir) {
		if t.existing[d] {
			continue
		}
		err := t.Root.Mkdir(d, 0o755)
		if err == nil {
			t.dirs = append(t.dirs, d)
			t.existing[d] = true
			t.Dirs.Forget(d)
			continue
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		// There already, made by something else since missingDirs
		// looked, or not a directory at all.
		t.Dirs.Forget(d) // made anew, perhaps: not the one planning saw
		fi, lerr := t.Root.Lstat(d)
		if lerr != nil {
			return lerr
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", d)
		}
		t.existing[d] = true
	}
	return nil
}

// missingDirs lists the directories that the changes' parents need and
// that do not exist yet, parents first: the ones mkdirs will make. Those
// that do exist are remembered for mkdirs.
func (t *Txn) missingDirs() []string {
	var dirs []string
	seen := map[string]bool{}
	t.existing = map[string]bool{}
	for _, c := range t.Changes {
		if !c.Final.Exists {
			continue
		}
		dir := path.Dir(c.Path)
		if dir == "." || seen[dir] {
			continue
		}
		for _, d := range ancestors(dir) {
			if seen[d] {
				continue
			}
			seen[d] = true
			fi, err := t.Root.Lstat(d)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				dirs = append(dirs, d)
			case err == nil && fi.IsDir():
				t.existing[d] = true
			}
		}
	}
	return dirs
}

// ancestors returns dir and its parents, outermost first: "a", "a/b",
// "a/b/c" for "a/b/c".
func ancestors(dir string) []string {
	var ds []string
	for i := range len(dir) {
		if dir[i] == '/' {
			ds = append(ds, dir[:i])
		}
	}
	return append(ds, dir)
}

// tempPrefix and tempSuffix frame the name of every temp file edapply makes.
const tempPrefix, tempSuffix = ".edapply-", ".tmp"

// IsTempName reports whether base is the name of a temp file a Txn makes
// (see tempName): what may be cleaned up after an apply killed part way.
func IsTempName(base string) bool {
	return strings.HasPrefix(base, tempPrefix) && strings.HasSuffix(base, tempSuffix)
}

// tempName returns a fresh temp file name in dir: random, so that it names
// no existing file and cannot be guessed in advance (see fsio.RandomID).
func tempName(dir string) string {
	return path.Join(dir, tempPrefix+fsio.RandomID()+tempSuffix)
}

// writeTemp writes st's content to name, a new temp file (see tempName),
// and returns it open and not yet synced: the caller syncs it before the
// rename that publishes it, so that the rename publishes complete bytes or
// nothing. The file is made with O_EXCL and given st's mode (exactly, past
// the umask, when st.exact).
func (t *Txn) writeTemp(name string, st fsio.State) (f fsio.SyncCloser, err error) {
	if st.Link {
		return t.linkTemp(name, string(st.Data))
	}
	perm := st.Mode.Perm()
	if st.Exact || perm == 0 {
		perm = 0o600 // widened by the Chmod below
	}
	if dir, base := t.Dirs.FileIn(name); dir != nil {
		return fsio.CreateRaw(dir, base, st.Chunks(), perm, st.Mode, st.Exact)
	}
	r, base, err := t.Dirs.In(name)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		r, base, err = t.Root, name, nil
	}
	if err != nil {
		return nil, err
	}
	of, err := r.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			of.Close()
			r.Remove(base)
		}
	}()
	if st.Pieces == nil {
		_, err = of.Write(st.Data)
	} else {
		err = fsio.WriteBuffered(of, st.Pieces)
	}
	if err != nil {
		return nil, err
	}
	if st.Exact {
		if err = of.Chmod(st.Mode); err != nil {
			return nil, err
		}
	}
	return of, nil
}

// linkTemp makes name, a new temp entry (see tempName), a symbolic link to
// target: a link that a rename moves, or a deleted one restored, is made
// as a link, never as a file holding its target. A link has no bytes to
// sync; its rename is published like a file's.
func (t *Txn) linkTemp(name, target string) (fsio.SyncCloser, error) {
	r, base, err := t.Dirs.In(name)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		r, base, err = t.Root, name, nil
	}
	if err != nil {
		return nil, err
	}
	if err := r.Symlink(target, base); err != nil {
		return nil, err
	}
	return madeLink{}, nil
}

// madeLink is a link linkTemp made: nothing to sync or close.
type madeLink struct{}

func (madeLink) Sync() error  { return nil }
func (madeLink) Close() error { return nil }

// removeTemps closes the temp files not yet synced and removes every temp
// file not renamed into place.
func (t *Txn) removeTemps() {
	for _, u := range t.unsynced {
		u.f.Close()
		<-t.open
	}
	t.unsynced = nil
	for i, tmp := range t.temps {
		t.remove(tmp)
		delete(t.temps, i)
	}
}

func ioErr(p, what string, err error) *edit.Error {
	return &edit.Error{Code: edit.CodeIO, Path: p, Edit: -1, Msg: what + ": " + fsio.ErrMsg(err), Err: err}
}

// writeErr is ioErr for a step that writes in p's directory: a temp file
// beside p, its rename over p, p's removal, a directory for p. When
// permission is refused, it is the directory's (the file itself may be
// writable), and the error names it.
func writeErr(p, what string, err error) *edit.Error {
	if !errors.Is(err, fs.ErrPermission) {
		return ioErr(p, what, err)
	}
	dir := path.Dir(p)
	name := "directory " + dir
	if dir == "." {
		name = "the root directory"
	}
	return &edit.Error{Code: edit.CodeIO, Path: p, Edit: -1, Err: err,
		Msg: what + ": this user may not write in " + name,
		Hint: "A file is written as a new file beside it, renamed into place, so its directory must be writable: " +
			"leave the files of " + name + " out of the edits, unless a user makes it writable first."}
}
