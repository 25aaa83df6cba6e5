//go:build unix

package bench

import (
	"golang.org/x/sys/unix"
)

// mkChain makes a chain of n directories named d under dir, each made
// relative to its parent's descriptor: a path of n names is longer than
// the system lets a path be.
func mkChain(dir string, n int) error {
	if err := unix.Mkdir(dir, 0o755); err != nil {
		return err
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	for range n - 1 {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			unix.Close(fd)
			return err
		}
		next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			return err
		}
		fd = next
	}
	return unix.Close(fd)
}
