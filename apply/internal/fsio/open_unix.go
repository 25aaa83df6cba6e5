//go:build unix

package fsio

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
)

// OpenFile is os.OpenFile(name, flags, perm) for the files an apply opens
// for itself (its State directories, the journal, the tree's directories
// for the raw calls), without the network poller: package os offers every
// file it opens to the runtime's poller, which the first time sets the
// poller up (an epoll instance and an eventfd) and for each file sets its
// blocking mode twice around an epoll_ctl that fails for a regular file
// or a directory, five system calls; once set up, the scheduler polls it.
// A descriptor os.NewFile wraps in blocking mode is never offered. flags
// must not hold O_NONBLOCK, which would offer it.
func OpenFile(name string, flags int, perm fs.FileMode) (*os.File, error) {
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

// OpenDir opens the directory name for reading by OpenFile, and refuses
// anything else (O_DIRECTORY): a path that a directory was seen at may
// hold a named pipe by the time it is opened, whose open would wait for a
// writer for ever.
func OpenDir(name string) (*os.File, error) {
	return OpenFile(name, os.O_RDONLY|syscall.O_DIRECTORY, 0)
}

// CreateTemp is os.CreateTemp(dir, prefix+"*"+suffix) by OpenFile: a new
// file, readable and writable by its owner alone, whose name puts a
// random decimal number between prefix and suffix, as os.CreateTemp's
// does.
func CreateTemp(dir, prefix, suffix string) (*os.File, error) {
	for try := 0; ; try++ {
		name := dir + string(os.PathSeparator) + prefix + strconv.FormatUint(uint64(rand.Uint32()), 10) + suffix
		f, err := OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) && try < 10000 {
			continue
		}
		return f, err
	}
}
