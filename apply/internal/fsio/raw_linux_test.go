package fsio

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestRawIO checks the raw calls against what they stand in for.
func TestRawIO(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "hello\n", 0o640)
	write("empty", "", 0o600)
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	st, err := loadRaw(d, "a.txt", false)
	if err != nil || !st.Exists || string(st.Data) != "hello\n" || st.Mode != 0o640 || !st.Exact {
		t.Errorf("loadRaw(a.txt) = %+v, %v", st, err)
	}
	if st, err := loadRaw(d, "empty", false); err != nil || !st.Exists || len(st.Data) != 0 {
		t.Errorf("loadRaw(empty) = %+v, %v", st, err)
	}
	// Not regular files, or missing: left to the portable path, also when
	// the caller believed the name a regular file (a FIFO opened without
	// blocking, then judged by its descriptor).
	if err := unix.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"link", "sub", "missing", "fifo"} {
		for _, known := range []bool{false, true} {
			if _, err := loadRaw(d, name, known); err != errFallback {
				t.Errorf("loadRaw(%s, known %v): err %v, want the fallback", name, known, err)
			}
		}
	}
	if _, err := sameRaw(d, "fifo", nil, 0); err != errFallback {
		t.Errorf("sameRaw(fifo): err %v, want the fallback", err)
	}

	// The content compared comes whole or in pieces, empty ones too.
	for _, c := range []struct {
		want []string
		same bool
	}{
		{[]string{"hello\n"}, true}, {[]string{"hel", "lo\n"}, true}, {[]string{"", "h", "", "ello", "\n", ""}, true},
		{[]string{"hellO\n"}, false}, {[]string{"hel", "lO\n"}, false}, {[]string{"hello"}, false}, {[]string{"hello", "\n\n"}, false},
		{[]string{""}, false}, {nil, false},
	} {
		n := len(strings.Join(c.want, ""))
		if same, err := sameRaw(d, "a.txt", ChunksOf(c.want), n); err != nil || same != c.same {
			t.Errorf("sameRaw(a.txt, %q) = %v, %v; want %v", c.want, same, err, c.same)
		}
	}
	if _, err := sameRaw(d, "link", [][]byte{[]byte("hello\n")}, 6); err != errFallback {
		t.Errorf("sameRaw(link): err %v, want the fallback", err)
	}

	f, err := CreateRaw(d, "new", ChunksOf([]string{"da", "", "ta"}), 0o600, os.ModeSetuid|0o751, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := SyncClose(f); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(filepath.Join(dir, "new"))
	if err != nil || fi.Mode() != os.ModeSetuid|0o751 {
		t.Errorf("created file: %v, %v; want -rwxr-x--x with setuid", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new")); string(b) != "data" {
		t.Errorf("created file holds %q", b)
	}
	// Kept exactly whether or not the umask would take bits away, before
	// and after CreateRaw reads it.
	modes := []os.FileMode{0o640, 0o666, 0o777, 0o400}
	for i := range umaskAfter + 2*len(modes) {
		mode, name := modes[i%len(modes)], fmt.Sprintf("mode%d", i)
		f, err := CreateRaw(d, name, nil, 0o600, mode, true)
		if err != nil {
			t.Fatal(err)
		}
		SyncClose(f)
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode() != mode {
			t.Errorf("created with mode %v: got %v, %v", mode, fi.Mode(), err)
		}
	}
	if _, err := CreateRaw(d, "new", [][]byte{[]byte("x")}, 0o600, 0, false); err == nil {
		t.Errorf("CreateRaw over an existing file succeeded")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new")); string(b) != "data" {
		t.Errorf("failed create changed the file: %q", b)
	}
	if err := RenameRaw(d, "new", "a.txt"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "data" {
		t.Errorf("renamed file holds %q", b)
	}
	if err := RenameRaw(d, "new", "b.txt"); err == nil {
		t.Errorf("renaming a missing file succeeded")
	}
}

// TestReadFD: fstat's size is a hint. A file that grew or shrank since is
// read to its real end, and a large file through several reads.
func TestReadFD(t *testing.T) {
	dir := t.TempDir()
	big := make([]byte, 3<<20)
	for i := range big {
		big[i] = byte(i % 251)
	}
	p := filepath.Join(dir, "f")
	for _, c := range []struct {
		data []byte
		size int64
	}{
		{[]byte("0123456789"), 10}, {[]byte("0123456789"), 3}, {[]byte("0123456789"), 20},
		{[]byte("0123456789"), 0}, {nil, 0}, {nil, 5}, {big, int64(len(big))}, {big, 100},
	} {
		if err := os.WriteFile(p, c.data, 0o600); err != nil {
			t.Fatal(err)
		}
		fd, err := unix.Open(p, unix.O_RDONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readFD(fd, c.size)
		unix.Close(fd)
		if err != nil || !bytes.Equal(got, c.data) {
			t.Errorf("readFD(%d bytes, size %d) = %d bytes, %v", len(c.data), c.size, len(got), err)
		}
	}
}

// TestPrefault: a buffer of prefaultMin bytes or more has every page it
// wholly covers mapped before anything is written to it; a smaller one is
// left to fault page by page.
func TestPrefault(t *testing.T) {
	pg := os.Getpagesize()
	m, err := unix.Mmap(-1, 0, 64*pg+prefaultMin, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	if err := unix.Madvise(m[len(m)-pg:], unix.MADV_POPULATE_WRITE); err != nil {
		t.Skipf("the kernel refuses MADV_POPULATE_WRITE (before Linux 5.14): %v", err)
	}
	resident := func(b []byte) int {
		vec := make([]byte, len(b)/pg)
		if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
			t.Fatal(e)
		}
		n := 0
		for _, v := range vec {
			n += int(v & 1)
		}
		return n
	}
	small := m[:8*pg]
	prefault(small[100:])
	if n := resident(small); n != 0 {
		t.Errorf("a buffer of %d bytes had %d pages mapped ahead", len(small)-100, n)
	}
	big := m[16*pg : len(m)-pg] // not the page the probe mapped
	prefault(big[100 : len(big)-100])
	if n, want := resident(big[pg:len(big)-pg]), len(big)/pg-2; n != want {
		t.Errorf("%d of the %d pages a large buffer wholly covers were mapped ahead", n, want)
	}
}

// TestSameRawSizes: a file is compared whole whatever its size against
// sameRaw's block (read into a buffer of its own size below it, in blocks
// from it on), and one differing byte anywhere, the last included, or one
// byte more or less than expected, says it changed.
func TestSameRawSizes(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, n := range []int{1, 2, sameBlock - 1, sameBlock, sameBlock + 1, 3*sameBlock + 7} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i % 251)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		// The expected content in two pieces, split off the block's edge.
		half := n / 3
		want := [][]byte{data[:half], data[half:]}
		if same, err := sameRaw(d, "f", want, n); err != nil || !same {
			t.Errorf("%d bytes: sameRaw = %v, %v; want the same", n, same, err)
		}
		for _, at := range []int{0, n / 2, n - 1} {
			other := bytes.Clone(data)
			other[at] ^= 0xff
			if same, err := sameRaw(d, "f", [][]byte{other}, n); err != nil || same {
				t.Errorf("%d bytes, byte %d differs: sameRaw = %v, %v; want changed", n, at, same, err)
			}
		}
		if same, _ := sameRaw(d, "f", [][]byte{data[:n-1]}, n-1); same {
			t.Errorf("%d bytes against %d expected: the same", n, n-1)
		}
		if same, _ := sameRaw(d, "f", [][]byte{data, {'x'}}, n+1); same {
			t.Errorf("%d bytes against %d expected: the same", n, n+1)
		}
	}
}

// TestWritePieces: a journal of more pieces than one writev takes, some
// empty, reads back byte for byte, raw and portable alike, and the
// caller's pieces are left as they were.
func TestWritePieces(t *testing.T) {
	var pieces [][]byte
	var want bytes.Buffer
	for i := range 2*iovMax + 7 {
		p := []byte(fmt.Sprintf("piece %d\n", i))
		if i%97 == 0 {
			p = nil
		}
		pieces = append(pieces, p)
		want.Write(p)
	}
	pieces = append(pieces, bytes.Repeat([]byte("x"), 3<<20)) // one large
	want.Write(pieces[len(pieces)-1])
	lens := func() (n []int) {
		for _, p := range pieces {
			n = append(n, len(p))
		}
		return n
	}
	before := lens()
	for _, raw := range []bool{true, false} {
		RawIO = raw
		name := filepath.Join(t.TempDir(), "j")
		if _, err := WriteFileAtomic(name, pieces, true); err != nil {
			t.Fatal(err)
		}
		RawIO = true
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("raw=%v: read back %d bytes (%v), want %d", raw, len(got), err, want.Len())
		}
	}
	if !slices.Equal(lens(), before) {
		t.Error("WritePieces changed the caller's pieces")
	}
}

// TestFileStamp checks when a file is stamped and that a stamp sees each
// way a file can change under its name.
func TestFileStamp(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// stamped writes name and returns its stamp, as a read that began
	// later than its change by more than the margin makes it.
	stamped := func(name, data string) *Stamp {
		t.Helper()
		p := filepath.Join(dir, name)
		os.Remove(p)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		var fi unix.Stat_t
		if err := unix.Stat(p, &fi); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if !stampable(int(f.Fd())) {
			t.Skipf("%s is not on a file system whose times prove a file unchanged", dir)
		}
		changed := time.Unix(fi.Ctim.Unix())
		if st := newStamp(&fi, changed.Add(SettleMargin), []byte(data)); st != nil {
			t.Errorf("a file that changed within the margin before the read was stamped")
		}
		st := newStamp(&fi, changed.Add(SettleMargin+time.Millisecond), []byte(data))
		if fi.Ctim.Nsec == 0 {
			// One in a billion, or a file system of whole seconds.
			if st != nil {
				t.Errorf("a change time of whole seconds was stamped")
			}
			t.Skip("change time of whole seconds")
		}
		if st == nil {
			t.Fatal("no stamp for a file that changed long before the read")
		}
		return st
	}
	if st := stamped("a", "hello\n"); !unchangedRaw(d, "a", st) {
		t.Errorf("an untouched file is not unchanged")
	}
	for name, change := range map[string]func(p string) error{
		"grown": func(p string) error { return os.WriteFile(p, []byte("hello, world\n"), 0o644) },
		"mtime": func(p string) error {
			// Same size, and a time set back: only the times tell.
			if err := os.WriteFile(p, []byte("HELLO\n"), 0o644); err != nil {
				return err
			}
			return os.Chtimes(p, time.Unix(1e9, 0), time.Unix(1e9, 0))
		},
		"replaced": func(p string) error {
			// Same bytes, same size, another file: the inode tells.
			if err := os.WriteFile(p+".new", []byte("hello\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		},
		"symlink": func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink("elsewhere", p)
		},
		"removed": os.Remove,
	} {
		st := stamped(name, "hello\n")
		if err := change(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		if unchangedRaw(d, name, st) {
			t.Errorf("%s: a changed file passes as unchanged", name)
		}
	}

	// The drift check trusts a stamp that stands for planning's bytes and
	// reads nothing: here the stamp is of the file as it is, the bytes
	// are not what it holds.
	st := stamped("b", "bbb\n")
	dr := &Dirs{fs: map[string]*os.File{".": d}}
	orig := State{Exists: true, Data: []byte("xyz\n")}
	orig.Stamp = &Stamp{}
	*orig.Stamp = *st
	orig.Stamp.of = orig.Data
	if same, exists, err := dr.Holds("b", orig); !same || !exists || err != nil {
		t.Errorf("holds with a stamp = %v, %v, %v; want it trusted", same, exists, err)
	}
	orig.Stamp.of = []byte("xyz\n") // stands for other bytes: the file is read
	if same, _, _ := dr.Holds("b", orig); same {
		t.Errorf("holds trusted a stamp made for other bytes")
	}
}
