//go:build unix

package fsio

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenDirRefusesOthers: OpenDir opens a directory and refuses a
// regular file and a named pipe, whose open would otherwise wait for a
// writer; dirFile, given a named pipe where its root's directory was,
// falls back to the root's own handle.
func TestOpenDirRefusesOthers(t *testing.T) {
	dir := t.TempDir()
	file, fifo := filepath.Join(dir, "file"), filepath.Join(dir, "fifo")
	if err := os.WriteFile(file, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	// Held open for reading and writing (which never waits), the pipe
	// has a writer: an open that does not refuse it returns, not hangs.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Skip(err)
	}
	defer w.Close()
	for _, p := range []string{file, fifo} {
		if f, err := OpenDir(p); err == nil {
			f.Close()
			t.Errorf("OpenDir(%s) opened it", filepath.Base(p))
		}
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatalf("OpenDir of a directory: %v", err)
	}
	d.Close()

	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := dirFile(r, fifo)
	if err != nil {
		t.Fatalf("dirFile at a named pipe: %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	held, _ := r.Stat(".")
	if err != nil || !os.SameFile(fi, held) {
		t.Errorf("dirFile at a named pipe gave %v, %v; want the root's directory", fi, err)
	}
}
