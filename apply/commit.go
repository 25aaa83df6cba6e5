package apply

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"strings"
	"syscall"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testhook"
)

// A change is what commit does to one path: take it from orig to final.
type change struct {
	path  string // root-relative, resolved
	orig  state  // as planning read it; the drift check compares against it
	final state
}

// commitHook, when set (by tests), is called at each step of a commit with
// the step's name and the path it concerns: "journal", then "mkdir" and
// "temp" per written file, "rename", "remove" before the step, "done" at the
// end. The "rename" and "remove" calls come just before the drift check, so
// a test can change the file there and see OUT_OF_DATE, or make the step
// fail. testhook.Commit, when set, is called the same way: it is how the
// CLI's tests, which run the edapply binary, pause a commit part way.
var commitHook func(step, path string)

func hook(step, p string) {
	if commitHook != nil {
		commitHook(step, p)
	}
	if testhook.Commit != nil {
		testhook.Commit(step, p)
	}
}

// A txn is one commit of a set of changes, with what it needs to undo
// itself: which changes are in place, which temp files and directories it
// made.
type txn struct {
	root    *os.Root
	changes []change
	temps   map[int]string // change index → staged temp file
	done    []int          // changes in place, in the order they were made
	dirs    []string       // directories created, parents first
	// unjournal puts the previous undo journal back; nil if none was written.
	unjournal func()
}

// commit writes every change as one transaction. All new contents are
// already in memory. First the undo journal is saved, naming the temp file
// each new content will be staged in and the directories that will be
// made, so that even after a SIGKILL `edapply undo` finds the changes made
// so far and every file commit left (see cleanStale); then every new
// content is staged in its temp file beside its target (creating missing
// parent directories); then each temp file is renamed into place, each
// target re-read first so that a change made since planning is OUT_OF_DATE
// rather than overwritten; deletions come last, after every rename
// succeeded. A failure, a cancelled ctx or SIGINT/SIGTERM at any point puts
// back what was already done, from the originals in memory, and removes
// every temp file and directory made. saveJournal is given the temp files'
// and the directories' root-relative paths and returns a function that
// restores the journal it replaced.
func (t *txn) commit(ctx context.Context, saveJournal func(temps, dirs []string) (func(), error)) *edit.Error {
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	t.temps = map[int]string{}
	defer t.removeTemps()

	names := map[int]string{}
	var temps []string
	for i, c := range t.changes {
		if c.final.exists {
			names[i] = tempName(path.Dir(c.path))
			temps = append(temps, names[i])
		}
	}
	if e := t.interrupted(ctx, sigc); e != nil {
		return t.abort(e)
	}
	hook("journal", "")
	if saveJournal != nil {
		undo, err := saveJournal(temps, t.missingDirs())
		if err != nil {
			return t.abort(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot record the undo journal: " + err.Error(), Err: err,
				Hint: "Set XDG_STATE_HOME (or the state directory option) to a writable directory outside the tree."})
		}
		t.unjournal = undo
	}

	for i, c := range t.changes {
		if e := t.interrupted(ctx, sigc); e != nil {
			return t.abort(e)
		}
		if !c.final.exists {
			continue
		}
		hook("mkdir", c.path)
		if err := t.mkdirs(path.Dir(c.path)); err != nil {
			return t.abort(ioErr(c.path, "cannot create directory", err))
		}
		hook("temp", c.path)
		if err := t.writeTemp(names[i], c.final); err != nil {
			return t.abort(ioErr(c.path, "cannot write temporary file", err))
		}
		t.temps[i] = names[i]
	}

	for i, c := range t.changes {
		if !c.final.exists {
			continue
		}
		if e := t.interrupted(ctx, sigc); e != nil {
			return t.abort(e)
		}
		hook("rename", c.path)
		if e := t.drift(c); e != nil {
			return t.abort(e)
		}
		if err := t.root.Rename(t.temps[i], c.path); err != nil {
			return t.abort(ioErr(c.path, "cannot rename into place", err))
		}
		delete(t.temps, i)
		t.done = append(t.done, i)
	}
	for i, c := range t.changes {
		if c.final.exists {
			continue
		}
		if e := t.interrupted(ctx, sigc); e != nil {
			return t.abort(e)
		}
		hook("remove", c.path)
		if e := t.drift(c); e != nil {
			return t.abort(e)
		}
		if err := t.root.Remove(c.path); err != nil {
			return t.abort(ioErr(c.path, "cannot delete", err))
		}
		t.done = append(t.done, i)
	}
	hook("done", "")
	return nil
}

// revert puts every change of a successful commit back (--check failed),
// overwriting whatever the check command did to those files, and restores
// the undo journal the commit replaced.
func (t *txn) revert() *edit.Error {
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	if err := t.rollback(); err != nil {
		return err
	}
	return nil
}

// interrupted returns an error once ctx is done or a signal has arrived.
// Signals are only noticed between steps: the step under way finishes, then
// everything is put back.
func (t *txn) interrupted(ctx context.Context, sigc <-chan os.Signal) *edit.Error {
	select {
	case s := <-sigc:
		return &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: fmt.Sprintf("interrupted by %v; no file was changed", s)}
	case <-ctx.Done():
		return &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "interrupted: " + ctx.Err().Error() + "; no file was changed", Err: ctx.Err()}
	default:
		return nil
	}
}

// drift reports OUT_OF_DATE when c's path no longer holds what planning read.
func (t *txn) drift(c change) *edit.Error {
	now, err := load(t.root, c.path)
	if err == nil && now.exists == c.orig.exists && (!now.exists || bytes.Equal(now.data, c.orig.data)) {
		return nil
	}
	msg := "file changed on disk while edapply ran"
	switch {
	case err != nil:
		msg = err.Msg + " (it changed while edapply ran)"
	case !c.orig.exists:
		msg = "file was created while edapply ran"
	case !now.exists:
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
// temp files left, and restores the previous journal. When a file cannot be
// put back the new journal is kept, so `edapply undo` can finish the job.
func (t *txn) rollback() *edit.Error {
	var failed []string
	for j := len(t.done) - 1; j >= 0; j-- {
		c := t.changes[t.done[j]]
		if err := t.restore(c); err != nil {
			failed = append(failed, c.path+" ("+errMsg(err)+")")
			continue
		}
		t.done = t.done[:j]
	}
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
// file, then rename.
func (t *txn) restore(c change) error {
	if !c.orig.exists {
		if err := t.root.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	tmp := tempName(path.Dir(c.path))
	if err := t.writeTemp(tmp, c.orig); err != nil {
		return err
	}
	if err := t.root.Rename(tmp, c.path); err != nil {
		t.root.Remove(tmp)
		return err
	}
	return nil
}

// mkdirs creates dir and its missing parents, remembering each one made so
// that a rollback removes exactly those.
func (t *txn) mkdirs(dir string) error {
	if dir == "." {
		return nil
	}
	parts := strings.Split(dir, "/")
	for k := range parts {
		d := strings.Join(parts[:k+1], "/")
		fi, err := t.root.Lstat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := t.root.Mkdir(d, 0o755); err != nil {
			return err
		}
		t.dirs = append(t.dirs, d)
	}
	return nil
}

// missingDirs lists the directories that the changes' parents need and
// that do not exist yet, parents first: the ones mkdirs will make.
func (t *txn) missingDirs() []string {
	var dirs []string
	seen := map[string]bool{}
	for _, c := range t.changes {
		if !c.final.exists {
			continue
		}
		dir := path.Dir(c.path)
		if dir == "." {
			continue
		}
		parts := strings.Split(dir, "/")
		for k := range parts {
			d := strings.Join(parts[:k+1], "/")
			if seen[d] {
				continue
			}
			seen[d] = true
			if _, err := t.root.Lstat(d); errors.Is(err, fs.ErrNotExist) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// tempPrefix and tempSuffix frame the name of every temp file edapply makes.
const tempPrefix, tempSuffix = ".edapply-", ".tmp"

// tempName returns a fresh temp file name in dir: random, so that it names
// no existing file and cannot be guessed in advance.
func tempName(dir string) string {
	var rnd [8]byte
	rand.Read(rnd[:])
	return path.Join(dir, tempPrefix+hex.EncodeToString(rnd[:])+tempSuffix)
}

// writeTemp writes st's content to name, a new temp file (see tempName).
// The file is made with O_EXCL, given st's mode (exactly, past the umask,
// when st.exact) and synced, so that the rename that follows publishes
// complete bytes or nothing.
func (t *txn) writeTemp(name string, st state) (err error) {
	perm := st.mode.Perm()
	if st.exact || perm == 0 {
		perm = 0o600 // widened by the Chmod below
	}
	f, err := t.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			t.root.Remove(name)
		}
	}()
	if _, err = f.Write(st.data); err != nil {
		return err
	}
	if st.exact {
		if err = f.Chmod(st.mode); err != nil {
			return err
		}
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return nil
}

func (t *txn) removeTemps() {
	for i, tmp := range t.temps {
		t.root.Remove(tmp)
		delete(t.temps, i)
	}
}

func ioErr(p, what string, err error) *edit.Error {
	return &edit.Error{Code: edit.CodeIO, Path: p, Edit: -1, Msg: what + ": " + errMsg(err), Err: err}
}
