package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"syscall"
)

// stateNames returns the next batch state directory names in base, in
// the order the directory lists them, from cursor on (a position in the
// directory, "" for its start); for each, the cursor that lists it first
// (at); the cursor to go on from after them; and whether more follow. It
// reads getdents(2) records from the position the last call left, so a
// call costs its batch, not the listing of a base of tens of thousands
// of directories. A position
// stays valid while entries are added and removed: the file systems that
// an NFS server exports keep it so (ext4 and its hash order, XFS, Btrfs,
// tmpfs since Linux 6.6). Where one does not, a pass skips or repeats
// some directories, which the next examines: the position only says what
// is examined, never what is removed.
func stateNames(base, cursor string, batch int) (names, at []string, next string, more bool, err error) {
	var off int64
	if cursor != "" {
		if off, err = strconv.ParseInt(cursor, 10, 64); err != nil {
			return nil, nil, "", false, err
		}
	}
	fd, err := syscall.Open(base, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, "", false, err
	}
	defer syscall.Close(fd)
	if off != 0 {
		if _, err := syscall.Seek(fd, off, io.SeekStart); err != nil {
			return nil, nil, "", false, err
		}
	}
	buf := make([]byte, 8<<10)
	for {
		n, err := syscall.Getdents(fd, buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, nil, "", false, err
		}
		if n <= 0 {
			return names, at, "", false, nil
		}
		// struct linux_dirent64: inode (8 bytes), the next entry's
		// position (8), the record's length (2), type (1), then the name
		// and a NUL.
		for b := buf[:n]; len(b) > 0; {
			if len(b) < 19 {
				return nil, nil, "", false, errors.New("short directory record")
			}
			size := int(binary.NativeEndian.Uint16(b[16:18]))
			if size < 19 || size > len(b) {
				return nil, nil, "", false, errors.New("malformed directory record")
			}
			name := b[19:size]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if isStateName(string(name)) {
				if len(names) == batch {
					// The next call starts at this entry: the position
					// the one before it gave.
					return names, at, strconv.FormatInt(off, 10), true, nil
				}
				names = append(names, string(name))
				at = append(at, strconv.FormatInt(off, 10))
			}
			off = int64(binary.NativeEndian.Uint64(b[8:16]))
			b = b[size:]
		}
	}
}
