//go:build !unix

package fsio

import (
	"io/fs"
	"os"
)

// OpenFile is os.OpenFile; see the Unix one for why it exists.
func OpenFile(name string, flags int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flags, perm)
}

// OpenDir opens the directory name for reading.
func OpenDir(name string) (*os.File, error) {
	return os.Open(name)
}

// CreateTemp is os.CreateTemp(dir, prefix+"*"+suffix).
func CreateTemp(dir, prefix, suffix string) (*os.File, error) {
	return os.CreateTemp(dir, prefix+"*"+suffix)
}
