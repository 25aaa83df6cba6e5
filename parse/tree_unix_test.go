//go:build unix

package parse

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestParseTreeRoot checks Parse against a real *os.Root: a symlink
// leaving the root still names its file (the applier refuses it), and a
// FIFO is never opened, so parsing cannot block on it.
func TestParseTreeRoot(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("../../outside/lesspipe", filepath.Join(dir, "linked")); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o600); err != nil {
		t.Skip(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	src := "linked\n```bash\n#!/bin/sh\necho hi\n```\n\n" +
		"fifo.txt\n```\n<<<<<<< SEARCH\nx\n=======\nz\n=======\nx\nZ\n>>>>>>> REPLACE\n```\n"
	// A FIFO opened for reading blocks until a writer comes: were the
	// parser to open it, the test would hang until go test's timeout.
	var edits []string
	es, errs := Parse(src, Options{Tree: root})
	for _, e := range es {
		edits = append(edits, e.Op.String()+" "+e.Path)
	}
	nerrs := len(errs)
	if len(edits) != 1 || edits[0] != "rewrite linked" || nerrs != 1 {
		t.Errorf("Parse = %q, %d errors; want [rewrite linked], 1 error (the ambiguous block)", edits, nerrs)
	}
}
