//go:build unix

package fsio

import "syscall"

// openFileLimit is the process's descriptor limit (the runtime raises the
// soft limit to the hard one at start-up); 0 when it cannot be read.
func openFileLimit() uint64 {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) != nil {
		return 0
	}
	return uint64(l.Cur) // int64 on some systems
}
