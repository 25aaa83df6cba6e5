package fsio

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testhook"
)

// A State is a file's content at one moment: what planning starts from and
// what commit must leave behind. Its data is never written once made (an
// edit makes new bytes): planning reads it as a string without a copy
// (splitBOM); what the receipt keeps of it is copied (locate.Doc).
type State struct {
	Exists bool
	Data   []byte
	// pieces, when not nil, is the content instead of data (nil then): its
	// spans in order, shared with the content as read and the edits' texts
	// (locate.Doc.Pieces), never written. Planning leaves an edited file's
	// content so when the caller reads no After (apply's Options.Omit.After): commit
	// writes, sums and compares the pieces, and the new content is never
	// held whole beside the old (see content.go).
	Pieces [][]byte
	Mode   fs.FileMode // permission and setuid/setgid/sticky bits
	// exact says mode must be set as is, past the umask: true for every file
	// that existed (its mode is kept exactly) and for an edit that names a
	// mode; false for a new file, which gets 0644 under the user's umask
	// like any file an editor creates.
	Exact bool
	// stamp, when set, is what fstat said of the file before data was
	// read from it, for the drift check (see Stamp); it stands for
	// data only while stamp.of is the same slice.
	Stamp *Stamp
	// link says the path is a symbolic link, and data its target, as git
	// stores a link: what a delete removes and a rename moves when the
	// path it names is a link (see linkEntry), never the file it points
	// to. A link has no mode of its own.
	Link bool
}

func (s State) Equal(t State) bool {
	if s.Exists != t.Exists {
		return false
	}
	if !s.Exists {
		return true
	}
	if s.Link || t.Link {
		return s.Link == t.Link && SameData(s, t)
	}
	return SameData(s, t) && (s.Mode == t.Mode || !t.Exact)
}

// LoadIn reads the file name, a path relative to r (usually the file's
// parent directory, opened once by Dirs, and its base name); rel is
// the path from the root, as the resolver returned it, for messages. A
// missing file is a State with exists false, not an error. Anything but a
// regular file is IO_ERROR: it is checked with Lstat before opening, so a
// FIFO is never opened (which would block) and a device never read.
func LoadIn(r *os.Root, name, rel string) (State, *edit.Error) {
	fi, err := r.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return State{}, nil
		}
		return State{}, &edit.Error{Code: edit.CodeIO, Msg: "cannot inspect " + rel + ": " + ErrMsg(err), Err: err}
	}
	if fi.IsDir() {
		return State{}, &edit.Error{Code: edit.CodeIO, Msg: rel + " is a directory",
			Hint: "Name a file, not a directory."}
	}
	if !fi.Mode().IsRegular() {
		return State{}, &edit.Error{Code: edit.CodeIO, Msg: rel + " is not a regular file (" + Kind(fi.Mode()) + ")",
			Hint: "Only regular files can be edited."}
	}
	data, err := r.ReadFile(name)
	if err != nil {
		return State{}, &edit.Error{Code: edit.CodeIO, Msg: "cannot read " + rel + ": " + ErrMsg(err), Err: err}
	}
	return State{Exists: true, Data: data, Mode: fileMode(fi.Mode()), Exact: true}, nil
}

// fileMode keeps the bits a chmod can set.
func fileMode(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "mode " + m.String()
}

// SameBytes reports whether a and b are the same slice (not merely equal).
func SameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func IsNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// Dirs opens each directory of the tree that an Apply reads or writes
// files in once, beneath the root: every os.Root call on "a/b/c.go" opens
// and closes "a" and "a/b" on its own, and a file is stat'ed, read,
// re-read, staged and renamed. Each directory is reached through the root
// (os.Root keeps it there), and its handle then stays on that directory:
// one replaced by a symlink later is not followed.
type Dirs struct {
	Root *os.Root
	mu   sync.Mutex // the maps: planning reads files on several goroutines
	m    map[string]*os.Root
	// fs holds the same directories opened as files, for the raw system
	// calls of raw_linux.go.
	fs map[string]*os.File
	// regular holds the paths the resolver just saw as regular files:
	// reading one needs no second look before opening it (openRegular).
	regular map[string]bool
}

// sawRegular records that p was a regular file when the resolver looked.
func (d *Dirs) SawRegular(p string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.regular == nil {
		d.regular = map[string]bool{}
	}
	d.regular[p] = true
}

// dir returns the handle on dir, a root-relative directory.
func (d *Dirs) Dir(dir string) (*os.Root, error) {
	if dir == "." {
		return d.Root, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dirLocked(dir)
}

func (d *Dirs) dirLocked(dir string) (*os.Root, error) {
	if dir == "." {
		return d.Root, nil
	}
	if r := d.m[dir]; r != nil {
		return r, nil
	}
	if len(d.m) >= maxDirHandles() {
		return nil, ErrTooManyDirs
	}
	r, err := d.Root.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if d.m == nil {
		d.m = map[string]*os.Root{}
	}
	d.m[dir] = r
	return r, nil
}

// in returns the directory holding p, a root-relative path, and p's name
// in it.
func (d *Dirs) In(p string) (*os.Root, string, error) {
	r, err := d.Dir(path.Dir(p))
	if err != nil {
		return nil, "", err
	}
	return r, path.Base(p), nil
}

// maxDirHandles is how many directories Dirs holds open (two
// descriptors each), so that with the temp files a commit holds open
// (MaxUnsynced) and a margin an apply stays under the descriptor limit
// (`ulimit -n 128`: 16). Past it, a path is reached from the root, one
// directory at a time, as os.Root does.
var maxDirHandles = sync.OnceValue(func() int {
	const margin = 32
	limit := openFileLimit()
	if limit == 0 || limit > 1<<16 {
		return 1 << 15
	}
	return max(4, (int(limit)-MaxUnsynced-margin)/2)
})

// ErrTooManyDirs sends a caller of Dirs past maxDirHandles to the
// root.
var ErrTooManyDirs = errors.New("too many directories held open")

// errFallback, from a raw call (raw_linux.go), sends it to the portable
// path.
var errFallback = fs.ErrInvalid

// fileIn is in, with the directory as an open file for raw system calls;
// nil when raw calls are not used or the directory cannot be opened so.
func (d *Dirs) FileIn(p string) (*os.File, string) {
	if !RawIO {
		return nil, ""
	}
	dir := path.Dir(p)
	d.mu.Lock()
	defer d.mu.Unlock()
	if f := d.fs[dir]; f != nil {
		return f, path.Base(p)
	}
	r, err := d.dirLocked(dir)
	if err != nil {
		return nil, ""
	}
	f, err := dirFile(r, path.Join(d.Root.Name(), dir))
	if err != nil {
		return nil, ""
	}
	if d.fs == nil {
		d.fs = map[string]*os.File{}
	}
	d.fs[dir] = f
	return f, path.Base(p)
}

// dirFile opens the directory r holds, at name, as a file for the raw
// system calls: by OpenDir, never offered to the runtime's poller, and
// kept only when it is the very directory r holds (the same device and
// inode); else (name leads elsewhere by now, or cannot be opened) by r.
func dirFile(r *os.Root, name string) (*os.File, error) {
	if f, err := OpenDir(name); err == nil {
		fi, err := f.Stat()
		held, rerr := r.Stat(".")
		if err == nil && rerr == nil && os.SameFile(fi, held) {
			return f, nil
		}
		f.Close()
	}
	return r.Open(".")
}

// load reads the file at rel, a root-relative path the resolver returned,
// through its directory's handle (see LoadIn).
func (d *Dirs) Load(rel string) (State, *edit.Error) {
	if f, name := d.FileIn(rel); f != nil {
		d.mu.Lock()
		known := d.regular[rel]
		d.mu.Unlock()
		if st, err := loadRaw(f, name, known); err == nil {
			return st, nil
		}
	}
	r, name, err := d.In(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return State{}, nil
		}
		// Let the walk from the root say what is wrong, as it always has.
		return LoadIn(d.Root, rel, rel)
	}
	return LoadIn(r, name, rel)
}

// loadEntry reads the entry at rel as load does, but for a symbolic link,
// which it reads as a link (see State.Link) rather than refuse.
func (d *Dirs) LoadEntry(rel string) (State, *edit.Error) {
	r, name, err := d.In(rel)
	if errors.Is(err, ErrTooManyDirs) {
		r, name, err = d.Root, rel, nil
	}
	if err == nil {
		if fi, lerr := r.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, rerr := r.Readlink(name)
			if rerr != nil {
				return State{}, &edit.Error{Code: edit.CodeIO, Msg: "cannot read symlink " + rel + ": " + ErrMsg(rerr), Err: rerr}
			}
			return State{Exists: true, Link: true, Data: []byte(target)}, nil
		}
	}
	return d.Load(rel)
}

// holds reports whether rel still is what planning read, orig (or what
// commit wrote): missing when orig is, else a regular file with the same
// bytes, or the same link; and whether rel exists now. err is set when rel
// cannot be read.
func (d *Dirs) Holds(rel string, orig State) (same, exists bool, err *edit.Error) {
	if orig.Link {
		now, err := d.LoadEntry(rel)
		if err != nil {
			return false, false, err
		}
		return now.Link && SameData(now, orig), now.Exists, nil
	}
	if orig.Exists {
		if f, name := d.FileIn(rel); f != nil {
			if orig.Stamp != nil && orig.Pieces == nil && SameBytes(orig.Stamp.of, orig.Data) && unchangedRaw(f, name, orig.Stamp) {
				return true, true, nil
			}
			if same, err := sameRaw(f, name, orig.Chunks(), orig.Size()); err == nil {
				return same, true, nil
			}
		}
	}
	now, err := d.LoadEntry(rel)
	if err != nil {
		return false, false, err
	}
	return now.Exists == orig.Exists && !now.Link && (!now.Exists || SameData(now, orig)), now.Exists, nil
}

// forget drops the handle on dir: commit has just made a directory there,
// and a handle from before (one that cleanStale, or someone else, removed
// since) would lead to the removed one.
func (d *Dirs) Forget(dir string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forgetLocked(dir)
}

func (d *Dirs) forgetLocked(dir string) {
	if r := d.m[dir]; r != nil {
		r.Close()
		delete(d.m, dir)
	}
	if f := d.fs[dir]; f != nil {
		f.Close()
		delete(d.fs, dir)
	}
}

func (d *Dirs) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for dir := range d.m {
		d.forgetLocked(dir)
	}
	for dir := range d.fs {
		d.forgetLocked(dir)
	}
}

// WriteBuffered writes pieces to f through a buffer: a journal is one small
// record and then each file's original bytes, a thousand small writes for
// a thousand small files. (A piece larger than the buffer goes straight
// through.) It is the portable WritePieces.
func WriteBuffered(f *os.File, pieces [][]byte) error {
	w := bufio.NewWriterSize(f, 256<<10)
	for _, p := range pieces {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return w.Flush()
}

// MaxUnsynced bounds the temp files held open until their sync (t.open),
// well under any descriptor limit: a 200-file apply works at `ulimit -n
// 128`.
const MaxUnsynced = 64

// A SyncCloser is a temp file written and still open: an *os.File, or a
// descriptor on the raw path (raw_linux.go).
type SyncCloser interface {
	Sync() error
	Close() error
}

// SyncClose syncs f and closes it, returning the first error.
func SyncClose(f SyncCloser) error { return CloseFile(f, true) }

// CloseFile closes f, syncing it first when sync is set, and returns the
// first error. Every fsync a commit or a journal makes is made here, and
// calls testhook.Sync, so that tests can count them.
func CloseFile(f SyncCloser, sync bool) error {
	var err error
	if sync {
		err = f.Sync()
		if testhook.Sync != nil {
			testhook.Sync()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// RandomID is 16 hex digits from the generator os.CreateTemp draws its
// names from: ChaCha8, per thread, seeded from the kernel's randomness
// when the process starts. A temporary name needs only to be unlikely to
// collide, and crypto/rand's first read in a process costs a set-up that
// a one-line apply would notice.
func RandomID() string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

// ErrMsg returns the OS's reason without the operation and path, which
// os.Root reports relative to itself and a message already names.
func ErrMsg(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// WriteFileAtomic writes pieces, in order, to name by way of a synced
// temp file and a rename, then syncs the directory: the journal is on
// disk, under its name, before the commit touches the first file of the
// tree, so that `edapply undo` finds it even after a power cut. Without
// sync (Options.NoSync) it is only atomic: whole under its name for any
// process, but not durable across a power cut. It returns the file
// written, to tell it from another written under the same name since.
func WriteFileAtomic(name string, pieces [][]byte, sync bool) (fs.FileInfo, error) {
	f, err := CreateTemp(filepath.Dir(name), ".journal-", ".tmp")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	err = WritePieces(f, pieces)
	var fi fs.FileInfo
	if err == nil {
		fi, err = f.Stat()
	}
	if err == nil {
		err = CloseFile(f, sync)
	} else {
		f.Close()
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	if !sync {
		return fi, nil
	}
	return fi, syncDir(filepath.Dir(name))
}

// syncDir makes the renames done in dir durable.
func syncDir(dir string) error {
	d, err := OpenDir(dir)
	if err != nil {
		return err
	}
	if err = SyncClose(d); errors.Is(err, syscall.EINVAL) {
		return nil // a file system that cannot sync directories
	}
	return err
}
