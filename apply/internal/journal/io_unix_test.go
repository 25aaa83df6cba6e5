//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestJournalFinishedNotAFile: a symlink to a finished journal, or a FIFO
// in a journal's place, never reads as finished, and the FIFO does not
// block the read.
func TestJournalFinishedNotAFile(t *testing.T) {
	dir := t.TempDir()
	j := New("/root", nil)
	name, err := j.Save([]string{dir}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	j.MarkDone(name)
	if !Finished(name) {
		t.Fatalf("a journal marked done reads as under way")
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(name, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{link, fifo} {
		if Finished(p) {
			t.Errorf("%s reads as a finished journal", filepath.Base(p))
		}
	}
}
