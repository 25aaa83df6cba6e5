//go:build unix

package apply

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
)

// openFile is os.OpenFile(name, flags, perm) for the files an apply opens
// for itself (its state directories, the journal, the tree's directories
// for the raw calls), without the network poller: package os offers every
// file it opens to the runtime's poller, which the first time sets the
// poller up (an epoll instance and an eventfd) and for each file sets its
// blocking mode twice around an epoll_ctl that fails for a regular file
// or a directory, five system calls; once set up, the scheduler polls it.
// A descriptor os.NewFile wraps in blocking mode is never offered. flags
// must not hold O_NONBLOCK, which would offer it.
func openFile(name string, flags int, perm fs.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flags|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}

// openDir opens the directory name for reading by openFile, and refuses
// anything else (O_DIRECTORY): a path that a directory was seen at may
// hold a named pipe by the time it is opened, whose open would wait for a
// writer for ever.
func openDir(name string) (*os.File, error) {
	return openFile(name, os.O_RDONLY|syscall.O_DIRECTORY, 0)
}

// createTemp is os.CreateTemp(dir, prefix+"*"+suffix) by openFile: a new
// file, readable and writable by its owner alone, whose name puts a
// random decimal number between prefix and suffix, as os.CreateTemp's
// does.
func createTemp(dir, prefix, suffix string) (*os.File, error) {
	for try := 0; ; try++ {
		name := dir + string(os.PathSeparator) + prefix + strconv.FormatUint(uint64(rand.Uint32()), 10) + suffix
		f, err := openFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) && try < 10000 {
			continue
		}
		return f, err
	}
}

// markJournalDone sets the status byte of the journal name to done when
// name is still the file saved describes (see journal.markDone): opened
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
