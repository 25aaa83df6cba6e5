//go:build unix

package journal

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// journalOpenFlags open a journal for reading without following a
// symlink, and without blocking on a FIFO (or a device) put in its place.
const journalOpenFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_NOCTTY

// isSymlinkErr reports whether err is O_NOFOLLOW's refusal of a symlink.
func isSymlinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }

// Finished reports whether the journal name says its commit
// finished, from its first bytes alone: the apply that wrote it left no
// temp file or directory, so apply's cleanStale and Prune need not open
// its header. Any error, or a damaged start, says no: the caller reads the
// header and judges. Three system calls, for each of a root's journals on
// every apply, where os.Open would offer the descriptor to the poller and
// stat it too. Never a symlink (O_NOFOLLOW); a FIFO or a device put in
// the journal's place fails its pread or reads as no journal.
func Finished(name string) bool {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	var b [len(journalMagic) + 1]byte
	if n, err := syscall.Pread(fd, b[:], 0); err != nil || n != len(b) {
		return false
	}
	done, ok := prelude(b[:])
	return ok && done
}

// stampOpenFlags open (or make) the prune stamp of a state base for
// reading and writing, never through a symlink, never waiting on a FIFO.
const stampOpenFlags = os.O_RDWR | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_NOCTTY

// setModTime sets the modification time of the file f has open, not of
// whatever its name leads to by then.
func setModTime(f *os.File, t time.Time) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	tv := syscall.NsecToTimeval(t.UnixNano())
	rc.Control(func(fd uintptr) { syscall.Futimes(int(fd), []syscall.Timeval{tv, tv}) })
}

// rmdir removes the directory path when it is empty, and never a symlink
// or a file put in its place.
func rmdir(path string) error { return syscall.Rmdir(path) }

// markJournalDone sets the status byte of the journal name to done when
// name is still the file saved describes (see Journal.MarkDone): opened
// for writing without following a symlink or waiting on a FIFO, never
// offered to the poller, and written in place.
func markJournalDone(name string, saved fs.FileInfo) {
	fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return
	}
	if was, ok := saved.Sys().(*syscall.Stat_t); ok && was.Dev == st.Dev && was.Ino == st.Ino {
		syscall.Pwrite(fd, []byte{journalDone}, int64(len(journalMagic)))
	}
}
