package apply

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
	"github.com/edapply/edapply/internal/testhook"
)

// A change is what commit does to one path: take it from orig to final.
type change struct {
	path  string     // root-relative, resolved
	orig  fsio.State // as planning read it; the drift check compares against it
	final fsio.State
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

// A txn is one commit of a set of changes, with what it needs to undo
// itself: which changes are in place, which temp files and directories it
// made.
type txn struct {
	root    *os.Root
	changes []change
	temps   map[int]string // change index → staged temp file
	done    []int          // changes in place, in the order they were made
	dirs    []string       // directories created, parents first
	// unjournal takes back the undo journal the commit saved; nil once
	// done, or before the journal was saved.
	unjournal func()
	// left are the files a rollback did not put back because they no
	// longer hold what the commit wrote, as OUT_OF_DATE errors.
	left edit.ErrorList

	// dr holds each directory the commit works in open (see fsio.Dirs):
	// the handles planning (or Undo) opened, closed by the caller.
	dr *fsio.Dirs
	// existing holds the directories known to be there, so that mkdirs
	// does not look at the same parents again for every file.
	existing map[string]bool
	// unsynced are temp files written but not yet synced (see commit).
	unsynced []unsyncedTemp
	// open holds a token for each temp file open: at most fsio.MaxUnsynced,
	// however the lanes of forEach run ahead of the one syncing a batch.
	open chan struct{}
	// noSync skips every fsync (Options.NoSync).
	noSync bool
	// mu guards temps, done, unsynced and mkdirs' fields while changes are
	// staged and placed on several goroutines (forEach).
	mu sync.Mutex
}

type unsyncedTemp struct {
	f    fsio.SyncCloser
	path string // the change's path, for errors
}

// commit writes every change as one transaction. All new contents are
// already in memory. First the undo journal is saved (and synced, with its
// directory), naming the temp file each new content will be staged in and
// the directories that will be made, so that even after a SIGKILL or a
// power cut `edapply undo` finds the changes made so far and every file
// commit left (see cleanStale); then every new content is staged in its
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
func (t *txn) commit(ctx context.Context, saveJournal func(temps, dirs []string) (func(), error)) *edit.Error {
	t.temps = map[int]string{}
	t.open = make(chan struct{}, fsio.MaxUnsynced)
	defer t.removeTemps()

	names := map[int]string{}
	var temps []string
	for i, c := range t.changes {
		if c.final.Exists {
			names[i] = tempName(path.Dir(c.path))
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
	for i, c := range t.changes {
		if c.final.Exists {
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
func commitLanes() int { return min(runtime.GOMAXPROCS(0), maxLanes) }

// forEach calls fn(i) for each of is: in order when there are fewer than
// parallelMin, else on commitLanes goroutines that each take the next
// index. It hands out no index after the first error, and returns that
// error once every call under way has returned.
func (t *txn) forEach(is []int, fn func(i int) *edit.Error) *edit.Error {
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
func (t *txn) stage(i int, name string) *edit.Error {
	c := t.changes[i]
	hook("mkdir", c.path)
	t.mu.Lock()
	err := t.mkdirs(path.Dir(c.path))
	t.mu.Unlock()
	if err != nil {
		return ioErr(c.path, "cannot create directory", err)
	}
	hook("temp", c.path)
	t.open <- struct{}{}
	f, err := t.writeTemp(name, c.final)
	if err != nil {
		<-t.open
		return ioErr(c.path, "cannot write temporary file", err)
	}
	t.mu.Lock()
	t.temps[i] = name
	t.unsynced = append(t.unsynced, unsyncedTemp{f, c.path})
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
func (t *txn) place(i int) *edit.Error {
	c := t.changes[i]
	step := "rename"
	if !c.final.Exists {
		step = "remove"
	}
	hook(step, c.path)
	if e := t.drift(c); e != nil {
		return e
	}
	if c.final.Exists {
		t.mu.Lock()
		tmp := t.temps[i]
		t.mu.Unlock()
		if err := t.rename(tmp, c.path); err != nil {
			return ioErr(c.path, "cannot rename into place", err)
		}
	} else if err := t.remove(c.path); err != nil {
		return ioErr(c.path, "cannot delete", err)
	}
	t.mu.Lock()
	delete(t.temps, i)
	t.done = append(t.done, i)
	t.mu.Unlock()
	return nil
}

// rename moves the temp file tmp, in p's directory, to p.
func (t *txn) rename(tmp, p string) error {
	if dir, name := t.dr.FileIn(p); dir != nil {
		return fsio.RenameRaw(dir, path.Base(tmp), name)
	}
	r, name, err := t.dr.In(p)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		return t.root.Rename(tmp, p)
	}
	if err != nil {
		return err
	}
	return r.Rename(path.Base(tmp), name)
}

func (t *txn) remove(p string) error {
	r, name, err := t.dr.In(p)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		r, name, err = t.root, p, nil
	}
	if err != nil {
		return err
	}
	return r.Remove(name)
}

// syncTemps syncs (unless t.noSync) and closes us, temp files written
// and taken from t.unsynced, and frees their places in t.open. All are
// closed even when one fails; the first failure is returned.
func (t *txn) syncTemps(us []unsyncedTemp) *edit.Error {
	var e *edit.Error
	for _, u := range us {
		if err := fsio.CloseFile(u.f, !t.noSync); err != nil && e == nil {
			e = ioErr(u.path, "cannot write temporary file", err)
		}
		<-t.open
	}
	return e
}

// leftWritten adds to paths each path a rollback could not put back.
func (t *txn) leftWritten(paths map[string]bool) {
	for _, j := range t.done {
		paths[t.changes[j].path] = true
	}
}

// revert puts every change of a successful commit back (Verify failed),
// as rollback does, and takes back its journal.
func (t *txn) revert() *edit.Error { return t.rollback() }

// interrupted returns an error once ctx is done. It is only noticed
// between steps: the step under way finishes, then everything is put back.
func (t *txn) interrupted(ctx context.Context) *edit.Error {
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
func (t *txn) drift(c change) *edit.Error {
	same, exists, err := t.dr.Holds(c.path, c.orig)
	if err == nil && same {
		return nil
	}
	msg := "file changed on disk while edapply ran"
	switch {
	case err != nil:
		msg = err.Msg + " (it changed while edapply ran)"
	case !c.orig.Exists:
		msg = "file was created while edapply ran"
	case !exists:
		msg = "file was removed while edapply ran"
	}
	return &edit.Error{Code: edit.CodeOutOfDate, Path: c.path, Edit: -1, Msg: msg,
		Hint: "Something else is editing the tree; re-read the file and resend the edits."}
}

// abort puts back everything done so far and returns e, extended when
// putting back failed too.
func (t *txn) abort(e *edit.Error) *edit.Error {
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
// check command itself; an editor) keeps what it holds, and t.left says
// so. When a file cannot be put back the journal is kept, so `edapply
// undo` can finish the job.
func (t *txn) rollback() *edit.Error {
	var failed []string
	var kept []int
	for j := len(t.done) - 1; j >= 0; j-- {
		c := t.changes[t.done[j]]
		if same, _, herr := t.dr.Holds(c.path, c.final); herr != nil || !same {
			why := "it changed after this apply wrote it"
			if herr != nil {
				why = herr.Msg
			}
			t.left = append(t.left, &edit.Error{Code: edit.CodeOutOfDate, Path: c.path, Edit: -1,
				Msg:  "not restored: " + why + "; what it holds now was kept",
				Hint: "Something else wrote this file after the apply (another edit, or the check command); read it before editing it again."})
			kept = append(kept, t.done[j])
			continue
		}
		if err := t.restore(c); err != nil {
			failed = append(failed, c.path+" ("+errMsg(err)+")")
			kept = append(kept, t.done[j])
		}
	}
	slices.Reverse(kept)
	t.done = kept
	t.removeTemps()
	for j := len(t.dirs) - 1; j >= 0; j-- {
		// Fails, and is left, when something else put a file there.
		if t.root.Remove(t.dirs[j]) == nil {
			t.dirs = t.dirs[:j]
		}
	}
	if len(failed) > 0 {
		return &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "could not restore " + strings.Join(failed, ", "),
			Hint: "Run `edapply undo` to restore the files from the undo journal."}
	}
	if t.unjournal != nil {
		t.unjournal()
		t.unjournal = nil
	}
	return nil
}

// restore puts c.orig back at c.path the same way commit wrote it: temp
// file (synced), then rename.
func (t *txn) restore(c change) error {
	if !c.orig.Exists {
		if err := t.remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	tmp := tempName(path.Dir(c.path))
	f, err := t.writeTemp(tmp, c.orig)
	if err != nil {
		return err // writeTemp removed it
	}
	if err = fsio.CloseFile(f, !t.noSync); err == nil {
		err = t.rename(tmp, c.path)
	}
	if err != nil {
		t.remove(tmp)
	}
	return err
}

// mkdirs creates dir and its missing parents, remembering each one made so
// that a rollback removes exactly those. Directories missingDirs saw are
// not looked at again.
func (t *txn) mkdirs(dir string) error {
	if dir == "." || t.existing[dir] {
		return nil
	}
	for _, d := range ancestors(dir) {
		if t.existing[d] {
			continue
		}
		err := t.root.Mkdir(d, 0o755)
		if err == nil {
			t.dirs = append(t.dirs, d)
			t.existing[d] = true
			t.dr.Forget(d)
			continue
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		// There already, made by something else since missingDirs
		// looked, or not a directory at all.
		t.dr.Forget(d) // made anew, perhaps: not the one planning saw
		fi, lerr := t.root.Lstat(d)
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
func (t *txn) missingDirs() []string {
	var dirs []string
	seen := map[string]bool{}
	t.existing = map[string]bool{}
	for _, c := range t.changes {
		if !c.final.Exists {
			continue
		}
		dir := path.Dir(c.path)
		if dir == "." || seen[dir] {
			continue
		}
		for _, d := range ancestors(dir) {
			if seen[d] {
				continue
			}
			seen[d] = true
			fi, err := t.root.Lstat(d)
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
func (t *txn) writeTemp(name string, st fsio.State) (f fsio.SyncCloser, err error) {
	if st.Link {
		return t.linkTemp(name, string(st.Data))
	}
	perm := st.Mode.Perm()
	if st.Exact || perm == 0 {
		perm = 0o600 // widened by the Chmod below
	}
	if dir, base := t.dr.FileIn(name); dir != nil {
		return fsio.CreateRaw(dir, base, st.Chunks(), perm, st.Mode, st.Exact)
	}
	r, base, err := t.dr.In(name)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		r, base, err = t.root, name, nil
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
func (t *txn) linkTemp(name, target string) (fsio.SyncCloser, error) {
	r, base, err := t.dr.In(name)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		r, base, err = t.root, name, nil
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
func (t *txn) removeTemps() {
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
	return &edit.Error{Code: edit.CodeIO, Path: p, Edit: -1, Msg: what + ": " + errMsg(err), Err: err}
}
