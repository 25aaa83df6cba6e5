//go:build unix

package apply

import (
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// writable reports whether the user may write the file fi describes, by
// its permission bits (ACLs are not read): the owner's, the group's or the
// others' write bit, whichever class the user is in. The superuser, whom
// the bits do not stop, is held to them all the same: a file with no
// write bit at all is read-only for it too.
func writable(fi fs.FileInfo) bool {
	m := fi.Mode().Perm()
	st, ok := fi.Sys().(*syscall.Stat_t)
	uid := os.Geteuid()
	switch {
	case uid == 0 || !ok:
		return m&anyWrite != 0
	case int(st.Uid) == uid:
		return m&0o200 != 0
	case inGroup(int(st.Gid)):
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
