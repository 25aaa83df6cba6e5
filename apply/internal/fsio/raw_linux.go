package fsio

// Raw system calls for the files of a commit, on Linux. os.Root opens every
// file as an *os.File, which on Linux costs five more system calls each
// (the runtime tries, and fails, to add a regular file to its poller, and
// sets the descriptor's blocking mode twice); with a thousand files read,
// re-read and staged, those calls cost more than the reading and writing.
// Here each file is opened with openat beneath its directory's descriptor
// (which os.Root opened, so the directory is the one beneath the root) and
// used with plain read, write, fchmod, fsync and close. Anything out of the
// ordinary (not a regular file, an error) is left to the portable path in
// files.go, so messages and decisions are made in one place.

import (
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// RawIO says whether the raw path is used; tests turn it off to exercise
// the portable one.
var RawIO = true

// control runs fn with dir's descriptor, held open for the call.
func control(dir *os.File, fn func(dfd int) error) error {
	rc, err := dir.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

// openRegular opens name in dfd for reading when it is a regular file (no
// symlink followed, never a FIFO or device) and returns it with its size
// and mode bits. Its descriptor is stat'ed after opening, and name before,
// unless known says it was seen a moment ago as a regular file (by the
// resolver, or when it was read for planning): opening a device can do
// something (arm a watchdog), so only a file something else replaced just
// now could be one.
func openRegular(dfd int, name string, known bool) (fd int, st unix.Stat_t, err error) {
	if !known {
		if err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return -1, st, errFallback
		}
	}
	fd, err = unix.Openat(dfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return -1, st, errFallback
	}
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return -1, st, errFallback
	}
	return fd, st, nil
}

// readFD reads fd to its end; size is what fstat said, a hint. A read of a
// regular file that returns less than asked has reached the end: when that
// is at size, no further read is made to see it.
func readFD(fd int, size int64) ([]byte, error) {
	b := make([]byte, 0, size+1)
	prefault(b[:cap(b)])
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		want := cap(b) - len(b)
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
		if n < want && int64(len(b)) == size {
			return b, nil
		}
	}
}

// prefaultMin is the least buffer prefault maps ahead: below it the
// pages' faults cost less than the call.
const prefaultMin = 64 << 10

// prefault maps the pages of b, a fresh buffer a read() is about to fill,
// in one madvise(MADV_POPULATE_WRITE): otherwise the read faults on each
// of them in turn, and a page fault costs more than the kernel's mapping
// it in a batch (a 1.5 MB file: 370 faults fewer). Kernels before 5.14
// refuse the advice, and the read then faults as it always did.
func prefault(b []byte) {
	if len(b) < prefaultMin {
		return
	}
	pg := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + pg - 1) &^ (pg - 1)
	hi := (start + uintptr(len(b))) &^ (pg - 1)
	if hi <= lo {
		return
	}
	unix.Madvise(b[lo-start:hi-start], unix.MADV_POPULATE_WRITE)
}

// loadRaw is LoadIn(dir, name, rel) for a regular file; known is
// openRegular's.
func loadRaw(dir *os.File, name string, known bool) (State, error) {
	var st State
	err := control(dir, func(dfd int) error {
		before := time.Now()
		fd, fi, err := openRegular(dfd, name, known)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		data, err := readFD(fd, fi.Size)
		if err != nil {
			return errFallback
		}
		st = State{Exists: true, Data: data, Mode: unixMode(fi.Mode), Exact: true}
		// The change time first: a file changed just now is read again
		// whatever its file system, which then need not be asked.
		if stamp := newStamp(&fi, before, data); stamp != nil && stampable(fd) {
			st.Stamp = stamp
		}
		return nil
	})
	return st, err
}

// A Stamp is what fstat said of a file just before planning read it:
// while the file's name still leads to a file of which fstatat says the
// same, the file holds the bytes read (of), and the drift check before
// its rename need not read it again (unchangedRaw).
//
// Why that is as safe as reading it: any write, truncate or rename over
// the name changes the size, the inode or the change time, and the
// change time cannot be set by anyone (utimes sets it to now). It is only
// taken when it proves something:
//   - on a local file system that keeps timestamps in nanoseconds
//     (stampable) and a file whose change time has a fraction of a
//     second, so that it is not a file system or an inode that keeps
//     whole seconds (ext4's small inodes);
//   - when the file last changed at least SettleMargin before the read
//     began. The kernel stamps a change with its clock as of the last
//     tick (at most 10 ms behind), so a change made after the read began
//     gets a later time than one made before it only when the one before
//     is older than a tick: otherwise two writes within one tick, one
//     before and one after the read, leave the same times, and, of the
//     same size, only the bytes tell them apart. Such a file is read
//     again, as every file is on other systems.
//
// What a stamp cannot see is a write through a shared writable mapping
// to a page already written since the file's last change, which sets no
// time: a database's way, not an editor's, which writes or renames; nor
// a write whose process took the time for it and then stalled for longer
// than the margin before setting it.
type Stamp struct {
	of           []byte
	dev, ino     uint64
	size         int64
	mtime, ctime unix.Timespec
}

// SettleMargin is how long before the read a file must have last changed
// for its stamp to stand for its bytes (see Stamp): ten times the
// longest kernel tick. Tests change it to stamp every file.
var SettleMargin = 100 * time.Millisecond

// newStamp returns the stamp of fi, the fstat of a file taken after
// before, whose read gave data; nil when it would prove nothing (see
// Stamp).
func newStamp(fi *unix.Stat_t, before time.Time, data []byte) *Stamp {
	if fi.Ctim.Nsec == 0 || !time.Unix(fi.Ctim.Unix()).Before(before.Add(-SettleMargin)) {
		return nil
	}
	return &Stamp{of: data, dev: fi.Dev, ino: fi.Ino, size: fi.Size, mtime: fi.Mtim, ctime: fi.Ctim}
}

// stampable reports whether fd's file system keeps the times Stamp
// relies on: a local one that stamps changes with the kernel's clock in
// nanoseconds. A network file system's times come from its server's
// clock, some in whole seconds, a FUSE one's from anywhere.
func stampable(fd int) bool {
	var sfs unix.Statfs_t
	if unix.Fstatfs(fd, &sfs) != nil {
		return false
	}
	switch uint32(sfs.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.OVERLAYFS_SUPER_MAGIC:
		return true
	}
	return false
}

// unchangedRaw reports whether name in dir is still the regular file that
// st was taken of, unchanged since (see Stamp): one fstatat instead
// of reading it again.
func unchangedRaw(dir *os.File, name string, st *Stamp) bool {
	same := false
	control(dir, func(dfd int) error {
		var fi unix.Stat_t
		if unix.Fstatat(dfd, name, &fi, unix.AT_SYMLINK_NOFOLLOW) != nil {
			return nil
		}
		same = fi.Mode&unix.S_IFMT == unix.S_IFREG && fi.Dev == st.dev && fi.Ino == st.ino && fi.Size == st.size &&
			fi.Mtim == st.mtime && fi.Ctim == st.ctime
		return nil
	})
	return same
}

// specialBits pairs the mode bits beyond the permissions, as fs.FileMode
// and st_mode spell them.
var specialBits = [...]struct {
	fs  fs.FileMode
	sys uint32
}{{fs.ModeSetuid, unix.S_ISUID}, {fs.ModeSetgid, unix.S_ISGID}, {fs.ModeSticky, unix.S_ISVTX}}

// unixMode is fileMode of a regular file's st_mode.
func unixMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	for _, b := range specialBits {
		if m&b.sys != 0 {
			mode |= b.fs
		}
	}
	return mode
}

// sameBlock is how much of a file sameRaw reads at a time. A smaller
// file is read into a buffer of its size and the byte that shows its
// end, so that checking a small file neither zeroes 64 KiB nor grows the
// goroutine's stack to hold them. Larger files share pooled blocks.
const sameBlock = 64 << 10

var sameBlocks = sync.Pool{New: func() any { return new([sameBlock]byte) }}

// sameRaw reports whether name in dir is a regular file holding want, n
// bytes in chunks (see State.Chunks), read in blocks and compared as it
// goes, without a copy of the whole file. Planning read name as a regular
// file (see openRegular).
func sameRaw(dir *os.File, name string, want [][]byte, n int) (bool, error) {
	same := false
	err := control(dir, func(dfd int) error {
		fd, fi, err := openRegular(dfd, name, true)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		if fi.Size != int64(n) {
			return nil
		}
		var buf []byte
		if n < sameBlock {
			buf = make([]byte, n+1)
		} else {
			b := sameBlocks.Get().(*[sameBlock]byte)
			defer sameBlocks.Put(b)
			buf = b[:]
		}
		c := cursor{cs: want}
		off := 0
		for {
			k, err := unix.Read(fd, buf[:])
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return errFallback
			}
			if k == 0 {
				same = off == n
				return nil
			}
			if off+k > n || !c.match(buf[:k]) {
				return nil
			}
			off += k
			if k < len(buf) && off == n {
				same = true // a short read: the end, as readFD judges
				return nil
			}
		}
	})
	return same, err
}

// A rawFile is a temp file being written, by descriptor.
type rawFile int

func (f rawFile) Sync() error {
	for {
		if err := unix.Fsync(int(f)); err != unix.EINTR {
			return err
		}
	}
}

func (f rawFile) Close() error { return unix.Close(int(f)) }

// umask is the process's file mode creation mask, read once from
// /proc/self/status (umask(2) can only be read by setting it); all bits
// set when it cannot be read, which makes CreateRaw always chmod.
// Reading it costs as much as many fchmod calls, so CreateRaw reads it
// only once it has made umaskAfter files with an exact mode: a commit of
// a few files chmods each, a larger one spares most of its chmods.
var umask = sync.OnceValue(func() uint32 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0o777
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return uint32(m)
			}
		}
	}
	return 0o777
})

// umaskAfter is how many files with an exact mode CreateRaw makes, and
// chmods, before it reads the umask (exactModes counts them).
const umaskAfter = 32

var exactModes atomic.Int64

// CreateRaw makes name in dir with O_EXCL, writes data (its chunks in
// order, with writev: see writevAll) and, when chmod,
// sets mode exactly; the file is returned open, not synced. On failure
// nothing is left behind. perm is the mode to create it with otherwise.
func CreateRaw(dir *os.File, name string, data [][]byte, perm, mode fs.FileMode, chmod bool) (SyncCloser, error) {
	if chmod && mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) == 0 && exactModes.Add(1) > umaskAfter && uint32(mode.Perm())&umask() == 0 {
		// Created with mode, the umask takes nothing away: no chmod.
		perm, chmod = mode.Perm(), false
	}
	var f rawFile
	err := control(dir, func(dfd int) error {
		fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm))
		if err != nil {
			return &fs.PathError{Op: "open", Path: name, Err: err}
		}
		fail := func(op string, err error) error {
			unix.Close(fd)
			unix.Unlinkat(dfd, name, 0)
			return &fs.PathError{Op: op, Path: name, Err: err}
		}
		if err := writevAll(fd, data); err != nil {
			return fail("write", err)
		}
		if chmod {
			if err := unix.Fchmod(fd, syscallMode(mode)); err != nil {
				return fail("chmod", err)
			}
		}
		f = rawFile(fd)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// syscallMode is the st_mode bits of mode, as os.Chmod sets them.
func syscallMode(m fs.FileMode) uint32 {
	o := uint32(m.Perm())
	for _, b := range specialBits {
		if m&b.fs != 0 {
			o |= b.sys
		}
	}
	return o
}

// WritePieces writes pieces to f, in order, with writev: no copy into a
// buffer, and one system call for up to iovMax pieces (a thousand small
// files' original bytes in a journal).
func WritePieces(f *os.File, pieces [][]byte) error {
	if !RawIO {
		return WriteBuffered(f, pieces)
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	if err := rc.Control(func(fd uintptr) { werr = writevAll(int(fd), pieces) }); err != nil {
		return err
	}
	return werr
}

// iovMax is Linux's IOV_MAX, the most pieces one writev takes.
const iovMax = 1024

// writevAll writes every byte of pieces to fd, resuming after a short
// write. pieces itself is left as it was.
func writevAll(fd int, pieces [][]byte) error {
	pieces = slices.Clone(pieces)
	for len(pieces) > 0 {
		if len(pieces[0]) == 0 {
			pieces = pieces[1:]
			continue
		}
		n, err := unix.Writev(fd, pieces[:min(len(pieces), iovMax)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return os.NewSyscallError("writev", err)
		}
		if n == 0 {
			return io.ErrShortWrite
		}
		for n > 0 && len(pieces) > 0 {
			k := min(n, len(pieces[0]))
			pieces[0] = pieces[0][k:]
			n -= k
			if len(pieces[0]) == 0 {
				pieces = pieces[1:]
			}
		}
	}
	return nil
}

// RenameRaw renames from to to, both in dir.
func RenameRaw(dir *os.File, from, to string) error {
	return control(dir, func(dfd int) error {
		if err := unix.Renameat(dfd, from, dfd, to); err != nil {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
		}
		return nil
	})
}

// ReadRaw reads name in dir when it is a regular file (see openRegular,
// whose caller has just seen it as one).
func ReadRaw(dir *os.File, name string) ([]byte, error) {
	var data []byte
	err := control(dir, func(dfd int) error {
		fd, fi, err := openRegular(dfd, name, true)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		if data, err = readFD(fd, fi.Size); err != nil {
			return errFallback
		}
		return nil
	})
	return data, err
}
