package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/growth"
	"github.com/edapply/edapply/parse"
)

// TestReadAll: a reply file is read whole into a buffer of its size (no
// doubling on the way), and never past the limit; other readers as
// io.ReadAll reads them.
func TestReadAll(t *testing.T) {
	want := bytes.Repeat([]byte("line of a reply\n"), 1<<16)
	name := filepath.Join(t.TempDir(), "reply.txt")
	if err := os.WriteFile(name, want, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	// TotalAlloc counts the whole process: the least of a few runs, on
	// one processor, leaves out what other goroutines allocate meanwhile.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	least := ^uint64(0)
	for range 5 {
		f := open()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := readAll(f, int64(len(want))+1)
		runtime.ReadMemStats(&after)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("readAll = %d bytes, %v; want the file's %d", len(got), err, len(want))
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	// io.ReadAll's growing buffers come to about twice the file; one
	// buffer of its size (rounded up to whole pages) and the stat's few
	// bytes stay well under an eighth more.
	if least > uint64(len(want)+len(want)/8) {
		t.Fatalf("%d bytes allocated to read a %d-byte file", least, len(want))
	}
	got, err := readAll(open(), 100)
	if err != nil || !bytes.Equal(got, want[:100]) {
		t.Fatalf("readAll with limit 100 = %d bytes, %v", len(got), err)
	}
	got, err = readAll(strings.NewReader("abc"), 10)
	if err != nil || string(got) != "abc" {
		t.Fatalf("readAll of a reader = %q, %v", got, err)
	}
}

// TestReadEditsHoldsOneCopy: the command reads a reply into one buffer,
// which the parser and the edits' texts share: reading and parsing a
// reply of SEARCH/REPLACE blocks allocates its bytes once, not a second
// time as a string.
func TestReadEditsHoldsOneCopy(t *testing.T) {
	growth.SkipUnderRace(t)
	reply := gen.LongLineReply(64, false)
	root := t.TempDir()
	name := filepath.Join(t.TempDir(), "reply.md")
	if err := os.WriteFile(name, []byte(reply), 0o644); err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	least := ^uint64(0)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, edits, errs, err := readEdits(name, parse.Options{}, root, nil)
		runtime.ReadMemStats(&after)
		if err != nil || len(errs) > 0 || len(edits) != 64 {
			t.Fatalf("readEdits: %d edits, errors %v, %v", len(edits), errs, err)
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if least > uint64(len(reply)+len(reply)/8) {
		t.Fatalf("%d bytes allocated to read and parse a %d-byte reply: more than one copy of it", least, len(reply))
	}
}
