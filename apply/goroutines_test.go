package apply

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// goroutinesCreated is the runtime's count of goroutines created since the
// program started.
func goroutinesCreated(t *testing.T) uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Skip("this Go runtime does not count the goroutines it creates")
	}
	return s[0].Value.Uint64()
}

// TestSmallApplyStartsNoGoroutine: an apply of one small file, with the
// receipt's hashes and its journal, runs on the caller's goroutine alone,
// where a goroutine's start and a thread's wake would cost more than the
// work handed to it; one of hashWorkersMin bytes hashes on workers. Not
// parallel: the count is the whole program's.
func TestSmallApplyStartsNoGoroutine(t *testing.T) {
	apply := func(size int) (*Result, uint64) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(strings.Repeat("x", size)+"\nold\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{Root: root, StateDir: t.TempDir(), NoSync: true}
		edits := []edit.Edit{{Op: edit.Replace, Path: "f.txt", Old: "old\n", New: "new\n"}}
		n := goroutinesCreated(t)
		res, err := Apply(context.Background(), edits, opts)
		n = goroutinesCreated(t) - n
		if err != nil || !res.OK || res.Journal == "" || len(res.Files) != 1 || res.Files[0].AfterHash == "" {
			t.Fatalf("apply of a %d-byte file: %v", size, err)
		}
		if want := HashBytes([]byte(strings.Repeat("x", size) + "\nnew\n")); res.Files[0].AfterHash != want {
			t.Errorf("after hash %s, want %s", res.Files[0].AfterHash, want)
		}
		return res, n
	}
	// The program's first apply starts what the runtime starts once
	// (os/signal's goroutines, the collector's workers), and so does a
	// collection.
	apply(100)
	runtime.GC()
	if _, n := apply(100); n != 0 {
		t.Errorf("an apply of a 100-byte file started %d goroutines, want none", n)
	}
	if runtime.GOMAXPROCS(0) < 2 {
		return
	}
	if _, n := apply(hashWorkersMin); n == 0 {
		t.Errorf("an apply of %d bytes hashed on the caller's goroutine; want its hashing workers", hashWorkersMin)
	}
}
