//go:build unix

package walk

import (
	"os"

	"golang.org/x/sys/unix"
)

// plainDir returns the directory f, opened in a root, as a file opened
// outside one, which f replaces (and closes). A directory opened in a
// root reads each entry's type by an lstat of the entry, even where the
// directory itself holds it; outside one, ReadDir takes the types from
// the directory. Its entries' Info is never asked for: that would stat
// the entry by a path outside the root.
func plainDir(f *os.File) *os.File {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return f
	}
	g := os.NewFile(uintptr(fd), f.Name())
	f.Close()
	return g
}
