//go:build unix

package apply

import (
	"errors"
	"os"
	"syscall"
)

// journalOpenFlags open a journal for reading without following a
// symlink, and without blocking on a FIFO (or a device) put in its place.
const journalOpenFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_NOCTTY

// isSymlinkErr reports whether err is O_NOFOLLOW's refusal of a symlink.
func isSymlinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }
