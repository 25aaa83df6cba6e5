package apply

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/apply/internal/txn"
	"github.com/edapply/edapply/edit"
)

// Undo restores the files the last Apply in opts.Root changed: modified
// files get their bytes and mode back, created files are removed, deleted
// files restored, renames reversed (as a removal and a restoration), and
// the directories it created removed when empty. It is
// one transaction, like Apply's commit. It refuses with OUT_OF_DATE when any
// of those files changed since that apply (a file already back as it was is
// skipped). When there is nothing to undo (no apply recorded, or it was
// undone already) the error is USAGE, naming no path: no file is missing,
// the request has nothing to act on. After a
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
	rs, err := paths.NewResolver(root, opts.Root)
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
	dirs, err := journal.Dirs(opts.StateDir, rs.Abs, rs.Real)
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot find the undo journal: " + errMsg(err), Err: err})
	}
	names := journal.List(dirs)
	if len(names) == 0 {
		return fail(&edit.Error{Code: edit.CodeUsage, Edit: -1, Msg: "nothing to undo: no apply is recorded for this root",
			Hint: fmt.Sprintf("Undo takes back the last %d applies that wrote files in this root, newest first, each once; none is left.", HistorySize)})
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
	rc := paths.Cache{Resolver: rs, Dirs: dr}
	var cs []txn.Change
	for _, jf := range j.Files {
		// A path that was or is a link is the link's own entry, not its
		// target's (see fsio.State.Link).
		links := jf.WasLink || jf.IsLink
		resolve, load := rc.Resolve, dr.Load
		if links {
			resolve, load = rc.Entry, dr.LoadEntry
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
		case now.Exists == jf.Exists && (!now.Exists || now.Link == jf.IsLink && jf.Holds(now.Data)):
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
		_, err := fsio.WriteFileAtomic(name, j.Pieces(), !opts.NoSync)
		return func() { _, _ = fsio.WriteFileAtomic(name, [][]byte{data}, !opts.NoSync) }, err
	}
	if e := tx.Commit(ctx, save); e != nil {
		return fail(e)
	}
	removeLeftovers(j, dr, rs)
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
func loadJournal(name string, rs *paths.Resolver) (*journal.Journal, []byte, *edit.Error) {
	data, err := journal.ReadFile(name)
	if err == nil {
		var j *journal.Journal
		if j, err = journal.Decode(data); err == nil {
			if j.Root == rs.Abs {
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
	rs, err := paths.NewResolver(root, opts.Root)
	if err != nil {
		return nil, err
	}
	dirs, err := journal.Dirs(opts.StateDir, rs.Abs, rs.Real)
	if err != nil {
		return nil, err
	}
	var cps []Checkpoint
	for _, name := range journal.List(dirs) {
		cp := Checkpoint{Journal: name, Time: time.Unix(0, journal.TimeOf(name)).UTC()}
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
// the root's journals (names, from journal.List) name is touched, and
// only once the process that wrote it is gone, so a concurrent apply
// keeps its files. The changes themselves stay for `edapply undo`, or the
// next apply, to judge. Not covered: a temp file of a rollback (a failed
// or interrupted commit putting files back) killed in its turn; its name
// is recorded nowhere, so it is left rather than guessed at. It returns,
// for each journal, whether its apply may still be under way (see
// journal.Journal.Running), for journal.Prune: each journal is read once per apply.
func cleanStale(dr *fsio.Dirs, rs *paths.Resolver, names []string) map[string]bool {
	busy := make(map[string]bool, len(names))
	for _, name := range names {
		if journal.Finished(name) {
			busy[name] = false
			continue
		}
		// Only the header: the original contents are not needed here.
		j, err := journal.ReadHeader(name)
		if err != nil {
			busy[name] = false
			continue
		}
		busy[name] = !j.Done && j.Running()
		if j.Root == rs.Abs && !j.Done {
			removeLeftovers(j, dr, rs)
		}
	}
	return busy
}

// removeLeftovers removes j's temp files that still exist, unless the
// process that wrote j may still be running, then its directories that are
// empty. dr is the root, with the directories already opened.
func removeLeftovers(j *journal.Journal, dr *fsio.Dirs, rs *paths.Resolver) {
	root := dr.Root
	if len(j.Temps) > 0 && !j.Running() {
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
			if dir, perr := rs.Resolve(path.Dir(tmp)); perr != nil || dir != path.Dir(tmp) {
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
		if rel, perr := rs.Resolve(j.Dirs[i]); perr == nil && rel == j.Dirs[i] {
			root.Remove(rel)
		}
	}
}
