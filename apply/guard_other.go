//go:build !unix

package apply

import "io/fs"

// writable reports whether fi's file may be written: on these systems its
// read-only attribute clears every write bit.
func writable(fi fs.FileInfo) bool { return fi.Mode().Perm()&anyWrite != 0 }

// ownerOf reports no owner: these systems' file modes carry none.
func ownerOf(fs.FileInfo) (int, bool) { return 0, false }
