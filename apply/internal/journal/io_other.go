//go:build !unix

package journal

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// journalOpenFlags: where there is no O_NOFOLLOW or O_NONBLOCK, openJournal
// relies on its check of what it opened.
const journalOpenFlags = os.O_RDONLY

func isSymlinkErr(error) bool { return false }

// Finished reports whether the journal name says its commit
// finished, from its first bytes alone: the apply that wrote it left no
// temp file or directory, so apply's cleanStale and Prune need not open
// its header. Any error, or a damaged start, says no: the caller reads the
// header and judges.
func Finished(name string) bool {
	f, err := openJournal(name)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(journalMagic) + 1]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	done, ok := prelude(b[:])
	return ok && done
}

const stampOpenFlags = os.O_RDWR | os.O_CREATE

func setModTime(f *os.File, t time.Time) { os.Chtimes(f.Name(), t, t) }

// rmdir removes the directory path when it is empty; a symlink or a file
// put in its place is left.
func rmdir(path string) error {
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		return errors.New("not a directory")
	}
	return os.Remove(path)
}

// markJournalDone sets the status byte of the journal name to done when
// name is still the file saved describes (see Journal.MarkDone).
func markJournalDone(name string, saved fs.FileInfo) {
	f, err := os.OpenFile(name, os.O_WRONLY|journalOpenFlags&^os.O_RDONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && os.SameFile(fi, saved) {
		f.WriteAt([]byte{journalDone}, int64(len(journalMagic)))
	}
}
