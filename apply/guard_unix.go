//go:build unix

package apply

import (
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// writable reports whether the user may write the file fi describes, as
// open(2) decides by its permission bits (ACLs are not read): the owner's,
// the group's or the others' write bit, whichever class the user is in.
// The superuser may write any file, as every other tool it runs may: a
// harness that protects files by their mode runs its agent as another
// user, and there the bits hold.
func writable(fi fs.FileInfo) bool { return writableBy(fi, os.Geteuid(), inGroup) }

func writableBy(fi fs.FileInfo, uid int, member func(gid int) bool) bool {
	m := fi.Mode().Perm()
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case uid == 0:
		return true
	case !ok:
		return m&anyWrite != 0
	case int(st.Uid) == uid:
		return m&0o200 != 0
	case member(int(st.Gid)):
		return m&0o020 != 0
	}
	return m&0o002 != 0
}

func inGroup(gid int) bool {
	if gid == os.Getegid() {
		return true
	}
	gs, _ := os.Getgroups()
	return slices.Contains(gs, gid)
}

// ownerOf returns the uid that owns the file fi describes.
func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
