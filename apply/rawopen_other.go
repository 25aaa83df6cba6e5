//go:build !unix

package apply

import (
	"io/fs"
	"os"
)

// openFile is os.OpenFile; see the Unix one for why it exists.
func openFile(name string, flags int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flags, perm)
}

// openDir opens the directory name for reading.
func openDir(name string) (*os.File, error) {
	return os.Open(name)
}

// createTemp is os.CreateTemp(dir, prefix+"*"+suffix).
func createTemp(dir, prefix, suffix string) (*os.File, error) {
	return os.CreateTemp(dir, prefix+"*"+suffix)
}

// markJournalDone sets the status byte of the journal name to done when
// name is still the file saved describes (see journal.markDone).
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
