package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/edapply/edapply/edit"
)

// A journal records what the last apply in a root changed, with the bytes it
// replaced, so Undo can put them back. It lives in the state directory,
// outside the tree, keyed by the root.
type journal struct {
	Version int           `json:"version"`
	Root    string        `json:"root"` // absolute
	Time    time.Time     `json:"time"`
	Files   []journalFile `json:"files"`
	Dirs    []string      `json:"dirs"` // directories the apply creates, parents first
	// Temps are the temp files the apply stages its new contents in,
	// root-relative; they are named before the journal is saved, so that
	// files left by an apply killed part way can be proven its own and
	// removed (see cleanStale).
	Temps []string `json:"temps,omitempty"`
	PID   int      `json:"pid,omitempty"`  // the applying process, while it runs
	Host  string   `json:"host,omitempty"` // the machine it ran on
}

type journalFile struct {
	Path      string `json:"path"`       // root-relative, resolved
	Existed   bool   `json:"existed"`    // the file existed before
	Before    []byte `json:"before"`     // its bytes then (base64 in JSON)
	Mode      uint32 `json:"mode"`       // its mode then
	Exists    bool   `json:"exists"`     // the file exists after
	AfterHash string `json:"after_hash"` // hex SHA-256 after; "" when deleted
}

const journalName = "journal.json"

func newJournal(root string, cs []change) *journal {
	j := &journal{Version: 1, Root: root, Time: time.Now().UTC(), PID: os.Getpid()}
	j.Host, _ = os.Hostname()
	for _, c := range cs {
		jf := journalFile{Path: c.path, Existed: c.orig.exists, Before: c.orig.data, Mode: uint32(c.orig.mode), Exists: c.final.exists}
		if c.final.exists {
			jf.AfterHash = HashBytes(c.final.data)
		}
		j.Files = append(j.Files, jf)
	}
	return j
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

// save writes j atomically as the root's journal, in the first of the
// state directories that can be created, and returns its file name and a
// function that puts back the journal it replaced (or removes j when there
// was none). When the state directory is the default and none can be
// created, save records nothing and returns "": the apply goes ahead
// without undo, which is better than refusing every edit on a machine with
// no writable home.
func (j *journal) save(stateDir string, rs *resolver) (string, func(), error) {
	dirs, err := journalDirs(stateDir, rs)
	if err != nil {
		return "", nil, err
	}
	var lastErr error
	for _, dir := range dirs {
		if lastErr = os.MkdirAll(dir, 0o700); lastErr != nil {
			continue
		}
		name := filepath.Join(dir, journalName)
		prev, err := os.ReadFile(name)
		hadPrev := err == nil
		data, err := json.Marshal(j)
		if err != nil {
			return "", nil, err
		}
		if lastErr = writeFileAtomic(name, data); lastErr != nil {
			continue
		}
		return name, func() {
			if hadPrev {
				writeFileAtomic(name, prev)
			} else {
				os.Remove(name)
			}
		}, nil
	}
	if stateDir != "" {
		return "", nil, lastErr
	}
	return "", func() {}, nil
}

func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".journal-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
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
// Only Root, StateDir and DryRun are read.
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
	name, data, err := readJournal(opts.StateDir, rs)
	if errors.Is(err, fs.ErrNotExist) {
		return fail(&edit.Error{Code: edit.CodeFileNotFound, Edit: -1, Msg: "nothing to undo: no apply is recorded for this root",
			Hint: "Undo restores the last apply that wrote files in this root, once."})
	}
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot read the undo journal: " + errMsg(err), Err: err})
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil || j.Version != 1 || j.Root != rs.abs {
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "the undo journal " + name + " is unreadable or not for this root"})
	}

	var cs []change
	for _, jf := range j.Files {
		rel, perr := rs.resolve(jf.Path)
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
		now, lerr := load(root, rel)
		if lerr != nil {
			lerr.Path, lerr.Edit = jf.Path, -1
			res.Errors.Add(lerr)
			continue
		}
		before := state{exists: jf.Existed, data: jf.Before, mode: fs.FileMode(jf.Mode), exact: true}
		if before.data == nil && before.exists {
			before.data = []byte{}
		}
		switch {
		case now.exists == jf.Exists && (!now.exists || HashBytes(now.data) == jf.AfterHash):
			cs = append(cs, change{path: rel, orig: now, final: before})
		case before.equal(now):
			// Already as it was: an interrupted commit or a manual revert.
		default:
			res.Errors.Add(&edit.Error{Code: edit.CodeOutOfDate, Path: jf.Path, Edit: -1,
				Msg:  "file changed since the last apply",
				Hint: "Undo would overwrite those changes; nothing was restored. Revert them first, or restore the file by hand."})
		}
	}
	for _, c := range cs {
		fr := &FileResult{Path: c.path}
		if c.orig.exists {
			fr.Before, fr.BeforeHash = c.orig.data, HashBytes(c.orig.data)
		}
		if c.final.exists {
			fr.After, fr.AfterHash = c.final.data, HashBytes(c.final.data)
		}
		switch {
		case !c.orig.exists:
			fr.Op = "create"
		case !c.final.exists:
			fr.Op = "delete"
		default:
			fr.Op = "modify"
		}
		res.Files = append(res.Files, fr)
	}
	if len(res.Errors) > 0 || opts.DryRun {
		res.OK = len(res.Errors) == 0
		return res, res.Errors.Err()
	}
	tx := &txn{root: root, changes: cs}
	// The journal is rewritten first to name this undo's temp files (and
	// process) too, so that an undo killed part way leaves nothing the next
	// undo cannot judge and clean up.
	save := func(temps, _ []string) (func(), error) {
		j.Temps = append(j.Temps, temps...)
		j.PID = os.Getpid()
		j.Host, _ = os.Hostname()
		upd, err := json.Marshal(&j)
		if err == nil {
			err = writeFileAtomic(name, upd)
		}
		return func() { writeFileAtomic(name, data) }, err
	}
	if e := tx.commit(ctx, save); e != nil {
		return fail(e)
	}
	j.removeLeftovers(root, rs)
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		// The files are restored; a second undo would find them changed
		// and refuse, so this is reported but does no harm.
		return fail(&edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "files restored, but the undo journal could not be removed: " + errMsg(err), Err: err})
	}
	res.OK = true
	return res, nil
}

// readJournal finds the root's journal in the state directories and
// returns its file name and content; the error is fs.ErrNotExist when there
// is none.
func readJournal(stateDir string, rs *resolver) (string, []byte, error) {
	dirs, err := journalDirs(stateDir, rs)
	if err != nil {
		return "", nil, err
	}
	for _, dir := range dirs {
		name := filepath.Join(dir, journalName)
		data, err := os.ReadFile(name)
		if !errors.Is(err, fs.ErrNotExist) {
			return name, data, err
		}
	}
	return "", nil, fs.ErrNotExist
}

// cleanStale removes what an apply killed part way (SIGKILL, a crash, a
// power cut) left in the tree besides its changes: the temp files it had
// staged and the directories it had made that are still empty. Only what
// the root's journal names is touched, and only once the process that
// wrote it is gone, so a concurrent apply keeps its files. The changes
// themselves stay for `edapply undo`, or the next apply, to judge. Not
// covered: a temp file of a rollback (a failed or interrupted commit
// putting files back) killed in its turn; its name is recorded nowhere, so
// it is left rather than guessed at.
func cleanStale(root *os.Root, rs *resolver, stateDir string) {
	_, data, err := readJournal(stateDir, rs)
	if err != nil {
		return
	}
	var j journal
	if json.Unmarshal(data, &j) != nil || j.Version != 1 || j.Root != rs.abs {
		return
	}
	j.removeLeftovers(root, rs)
}

// removeLeftovers removes j's temp files that still exist, unless the
// process that wrote j may still be running, then its directories that are
// empty.
func (j *journal) removeLeftovers(root *os.Root, rs *resolver) {
	for _, tmp := range j.Temps {
		if j.running() {
			break
		}
		// Only a regular file of edapply's naming at a path with no
		// symlink on the way: anything else is not a temp file j made.
		base := path.Base(tmp)
		if !strings.HasPrefix(base, tempPrefix) || !strings.HasSuffix(base, tempSuffix) {
			continue
		}
		if rel, perr := rs.resolve(tmp); perr != nil || rel != tmp {
			continue
		}
		if fi, err := root.Lstat(tmp); err == nil && fi.Mode().IsRegular() {
			root.Remove(tmp)
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
