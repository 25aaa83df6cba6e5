//go:build unix

package fsio

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLockDirRefusesFIFO: a named pipe put where the root was is refused
// by the lock's open, not waited on for a writer that never comes.
func TestLockDirRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "root")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if unlock, _, err := lockDir(context.Background(), fifo, 0); err == nil {
		unlock()
		t.Errorf("lockDir took a lock on a named pipe")
	}
	dir := t.TempDir()
	unlock, held, err := lockDir(context.Background(), dir, 0)
	if err != nil || held {
		t.Fatalf("lockDir(%s) = %v, %v", dir, held, err)
	}
	unlock()
}
