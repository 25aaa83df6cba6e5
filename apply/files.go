package apply

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"sync"
	"syscall"
	"unsafe"

	"github.com/edapply/edapply/edit"
)

// A state is a file's content at one moment: what planning starts from and
// what commit must leave behind. Its data is never written once made (an
// edit makes new bytes): planning reads it as a string without a copy
// (splitBOM); what the receipt keeps of it is copied (locate.Doc).
type state struct {
	exists bool
	data   []byte
	// pieces, when not nil, is the content instead of data (nil then): its
	// spans in order, shared with the content as read and the edits' texts
	// (locate.Doc.Pieces), never written. Planning leaves an edited file's
	// content so when the caller reads no After (Options.NoAfter): commit
	// writes, sums and compares the pieces, and the new content is never
	// held whole beside the old (see content.go).
	pieces [][]byte
	mode   fs.FileMode // permission and setuid/setgid/sticky bits
	// exact says mode must be set as is, past the umask: true for every file
	// that existed (its mode is kept exactly) and for an edit that names a
	// mode; false for a new file, which gets 0644 under the user's umask
	// like any file an editor creates.
	exact bool
	// stamp, when set, is what fstat said of the file before data was
	// read from it, for the drift check (see fileStamp); it stands for
	// data only while stamp.of is the same slice.
	stamp *fileStamp
	// link says the path is a symbolic link, and data its target, as git
	// stores a link: what a delete removes and a rename moves when the
	// path it names is a link (see linkEntry), never the file it points
	// to. A link has no mode of its own.
	link bool
}

func (s state) equal(t state) bool {
	if s.exists != t.exists {
		return false
	}
	if !s.exists {
		return true
	}
	if s.link || t.link {
		return s.link == t.link && sameData(s, t)
	}
	return sameData(s, t) && (s.mode == t.mode || !t.exact)
}

// defaultMode is a new file's mode when its edit names none.
const defaultMode fs.FileMode = 0o644

// loadIn reads the file name, a path relative to r (usually the file's
// parent directory, opened once by dirRoots, and its base name); rel is
// the path from the root, as the resolver returned it, for messages. A
// missing file is a state with exists false, not an error. Anything but a
// regular file is IO_ERROR: it is checked with Lstat before opening, so a
// FIFO is never opened (which would block) and a device never read.
func loadIn(r *os.Root, name, rel string) (state, *edit.Error) {
	fi, err := r.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return state{}, nil
		}
		return state{}, &edit.Error{Code: edit.CodeIO, Msg: "cannot inspect " + rel + ": " + errMsg(err), Err: err}
	}
	if fi.IsDir() {
		return state{}, &edit.Error{Code: edit.CodeIO, Msg: rel + " is a directory",
			Hint: "Name a file, not a directory."}
	}
	if !fi.Mode().IsRegular() {
		return state{}, &edit.Error{Code: edit.CodeIO, Msg: rel + " is not a regular file (" + kind(fi.Mode()) + ")",
			Hint: "Only regular files can be edited."}
	}
	data, err := r.ReadFile(name)
	if err != nil {
		return state{}, &edit.Error{Code: edit.CodeIO, Msg: "cannot read " + rel + ": " + errMsg(err), Err: err}
	}
	return state{exists: true, data: data, mode: fileMode(fi.Mode()), exact: true}, nil
}

// fileMode keeps the bits a chmod can set.
func fileMode(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

func kind(m fs.FileMode) string {
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

// isBinary reports whether b is a file edapply refuses to edit as text: one
// with a NUL byte anywhere, or a UTF-16 (or UTF-32) byte order mark, which
// a file edited as its text (decode.go) has as U+FEFF. Bytes that are
// merely not UTF-8 are text (Windows-1252 and the like) and are edited
// byte for byte. The whole file is scanned, not a prefix: a NUL past
// the first 8 KiB still means a splice could cut through binary data.
func isBinary(b []byte) bool {
	if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) {
		return true
	}
	return bytes.IndexByte(b, 0) >= 0
}

const bom = "\uFEFF"

// readOnlyBytes is s's bytes, not copied, for code that only reads them
// (a hash, word-at-a-time loads).
func readOnlyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// viewString is b's bytes as a string, not copied, for code that only
// reads them while b is never written (see state).
func viewString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// splitBOM returns b without its UTF-8 byte order mark, and whether it had
// one. The string shares b's bytes rather than copying the whole file on
// every plan: a content's bytes are never written once made (see state).
func splitBOM(b []byte) (string, bool) {
	s := viewString(b)
	if len(s) >= len(bom) && s[:len(bom)] == bom {
		return s[len(bom):], true
	}
	return s, false
}

// sameBytes reports whether a and b are the same slice (not merely equal).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// dirRoots opens each directory of the tree that an Apply reads or writes
// files in once, beneath the root: every os.Root call on "a/b/c.go" opens
// and closes "a" and "a/b" on its own, and a file is stat'ed, read,
// re-read, staged and renamed. Each directory is reached through the root
// (os.Root keeps it there), and its handle then stays on that directory:
// one replaced by a symlink later is not followed.
type dirRoots struct {
	root *os.Root
	mu   sync.Mutex // the maps: planning reads files on several goroutines
	m    map[string]*os.Root
	// fs holds the same directories opened as files, for the raw system
	// calls of rawio_linux.go.
	fs map[string]*os.File
	// regular holds the paths the resolver just saw as regular files:
	// reading one needs no second look before opening it (openRegular).
	regular map[string]bool
}

// sawRegular records that p was a regular file when the resolver looked.
func (d *dirRoots) sawRegular(p string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.regular == nil {
		d.regular = map[string]bool{}
	}
	d.regular[p] = true
}

// dir returns the handle on dir, a root-relative directory.
func (d *dirRoots) dir(dir string) (*os.Root, error) {
	if dir == "." {
		return d.root, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dirLocked(dir)
}

func (d *dirRoots) dirLocked(dir string) (*os.Root, error) {
	if dir == "." {
		return d.root, nil
	}
	if r := d.m[dir]; r != nil {
		return r, nil
	}
	if len(d.m) >= maxDirHandles() {
		return nil, errTooManyDirs
	}
	r, err := d.root.OpenRoot(dir)
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
func (d *dirRoots) in(p string) (*os.Root, string, error) {
	r, err := d.dir(path.Dir(p))
	if err != nil {
		return nil, "", err
	}
	return r, path.Base(p), nil
}

// maxDirHandles is how many directories dirRoots holds open (two
// descriptors each), so that with the temp files a commit holds open
// (maxUnsynced) and a margin an apply stays under the descriptor limit
// (`ulimit -n 128`: 16). Past it, a path is reached from the root, one
// directory at a time, as os.Root does.
var maxDirHandles = sync.OnceValue(func() int {
	const margin = 32
	limit := openFileLimit()
	if limit == 0 || limit > 1<<16 {
		return 1 << 15
	}
	return max(4, (int(limit)-maxUnsynced-margin)/2)
})

// errTooManyDirs sends a caller of dirRoots past maxDirHandles to the
// root.
var errTooManyDirs = errors.New("too many directories held open")

// errFallback, from a raw call (rawio_linux.go), sends it to the portable
// path.
var errFallback = fs.ErrInvalid

// fileIn is in, with the directory as an open file for raw system calls;
// nil when raw calls are not used or the directory cannot be opened so.
func (d *dirRoots) fileIn(p string) (*os.File, string) {
	if !rawIO {
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
	f, err := dirFile(r, path.Join(d.root.Name(), dir))
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
// system calls: by openDir, never offered to the runtime's poller, and
// kept only when it is the very directory r holds (the same device and
// inode); else (name leads elsewhere by now, or cannot be opened) by r.
func dirFile(r *os.Root, name string) (*os.File, error) {
	if f, err := openDir(name); err == nil {
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
// through its directory's handle (see loadIn).
func (d *dirRoots) load(rel string) (state, *edit.Error) {
	if f, name := d.fileIn(rel); f != nil {
		d.mu.Lock()
		known := d.regular[rel]
		d.mu.Unlock()
		if st, err := loadRaw(f, name, known); err == nil {
			return st, nil
		}
	}
	r, name, err := d.in(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return state{}, nil
		}
		// Let the walk from the root say what is wrong, as it always has.
		return loadIn(d.root, rel, rel)
	}
	return loadIn(r, name, rel)
}

// loadEntry reads the entry at rel as load does, but for a symbolic link,
// which it reads as a link (see state.link) rather than refuse.
func (d *dirRoots) loadEntry(rel string) (state, *edit.Error) {
	r, name, err := d.in(rel)
	if errors.Is(err, errTooManyDirs) {
		r, name, err = d.root, rel, nil
	}
	if err == nil {
		if fi, lerr := r.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, rerr := r.Readlink(name)
			if rerr != nil {
				return state{}, &edit.Error{Code: edit.CodeIO, Msg: "cannot read symlink " + rel + ": " + errMsg(rerr), Err: rerr}
			}
			return state{exists: true, link: true, data: []byte(target)}, nil
		}
	}
	return d.load(rel)
}

// holds reports whether rel still is what planning read, orig (or what
// commit wrote): missing when orig is, else a regular file with the same
// bytes, or the same link; and whether rel exists now. err is set when rel
// cannot be read.
func (d *dirRoots) holds(rel string, orig state) (same, exists bool, err *edit.Error) {
	if orig.link {
		now, err := d.loadEntry(rel)
		if err != nil {
			return false, false, err
		}
		return now.link && sameData(now, orig), now.exists, nil
	}
	if orig.exists {
		if f, name := d.fileIn(rel); f != nil {
			if orig.stamp != nil && orig.pieces == nil && sameBytes(orig.stamp.of, orig.data) && unchangedRaw(f, name, orig.stamp) {
				return true, true, nil
			}
			if same, err := sameRaw(f, name, orig.chunks(), orig.size()); err == nil {
				return same, true, nil
			}
		}
	}
	now, err := d.loadEntry(rel)
	if err != nil {
		return false, false, err
	}
	return now.exists == orig.exists && !now.link && (!now.exists || sameData(now, orig)), now.exists, nil
}

// forget drops the handle on dir: commit has just made a directory there,
// and a handle from before (one that cleanStale, or someone else, removed
// since) would lead to the removed one.
func (d *dirRoots) forget(dir string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forgetLocked(dir)
}

func (d *dirRoots) forgetLocked(dir string) {
	if r := d.m[dir]; r != nil {
		r.Close()
		delete(d.m, dir)
	}
	if f := d.fs[dir]; f != nil {
		f.Close()
		delete(d.fs, dir)
	}
}

func (d *dirRoots) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for dir := range d.m {
		d.forgetLocked(dir)
	}
	for dir := range d.fs {
		d.forgetLocked(dir)
	}
}
