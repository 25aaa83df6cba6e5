package apply

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// TestBatchHashStream: on a file large enough for the batch to hash the
// new content as it makes it (hashStream), the receipt's after hash is
// the content's, whatever stops the stream on the way (edits out of file
// order, an edit the plain path takes, a closed segment), and the stream
// gives it when the run's last segment streamed to the end; also when the
// content is left in pieces (Omit.After).
func TestBatchHashStream(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < streamMin+streamMin/2; i++ {
		fmt.Fprintf(&b, "func f%d() {\n\treturn %d\n}\n\n", i, i%7)
	}
	src := b.String()
	fn := func(i int) string { return fmt.Sprintf("func f%d() {\n\treturn %d\n}\n", i, i%7) }
	edit1 := func(i int, nw string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: "a.txt", Old: fn(i), New: nw, Count: 1}
	}
	var inOrder, outOfOrder []edit.Edit
	for i := 10; i < 4000; i += 97 {
		inOrder = append(inOrder, edit1(i, strings.Replace(fn(i), "return", "return 1 +", 1)))
		outOfOrder = append([]edit.Edit{edit1(i, "gone\n")}, outOfOrder...)
	}
	plainMid := slices.Clone(inOrder)
	plainMid[3] = edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "func f20() {\n", New: "func f20() { // one line\n", Count: 1}
	plainLast := append(slices.Clone(inOrder), plainMid[3])
	// An edit at the file's first bytes closes its segment (a BOM may
	// appear): the rest take a new one.
	closeFirst := append([]edit.Edit{edit1(0, "// f0 gone\n")}, inOrder...)
	for _, c := range []struct {
		name     string
		file     string
		edits    []edit.Edit
		streamed bool
	}{
		{"in order", src, inOrder, true},
		{"in order, BOM", "\uFEFF" + src, inOrder, true},
		{"in order, CRLF", strings.ReplaceAll(src, "\n", "\r\n"), inOrder, true},
		{"out of order", src, outOfOrder, false},
		{"plain path mid-run", src, plainMid, true},
		{"plain path last", src, plainLast, false},
		{"segment closed by the first edit", src, closeFirst, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var after []byte // the content made, from the run that hands it over
			for _, noAfter := range []bool{false, true} {
				dir := t.TempDir()
				writeTree(t, dir, tree{"a.txt": c.file})
				root, err := os.OpenRoot(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer root.Close()
				rs, err := paths.NewResolver(root, dir)
				if err != nil {
					t.Fatal(err)
				}
				opts := Options{Root: dir, DryRun: true}
				opts.Omit.After = noAfter
				p := newPlanner(root, rs, opts, nil, nil)
				p.hasher = &hasher{}
				defer p.hasher.stop()
				p.plan(context.Background(), c.edits, nil)
				defer p.dirs.Close()
				p.finish()
				p.settle()
				if len(p.res.Errors) > 0 || len(p.res.Files) != 1 {
					t.Fatalf("Omit.After %v: errors %v, %d files", noAfter, p.res.Errors, len(p.res.Files))
				}
				fr := p.res.Files[0]
				if !noAfter {
					after = fr.After
				} else if fr.After != nil {
					t.Errorf("Omit.After: After %d bytes", len(fr.After))
				}
				if want := HashBytes(after); fr.AfterHash != want {
					t.Errorf("Omit.After %v: after hash %s, want %s", noAfter, fr.AfterHash, want)
				}
				s := p.slots["a.txt"]
				if used := s.curHash != nil && s.curHash == s.streamed; used != c.streamed {
					t.Errorf("Omit.After %v: after hash from the stream: %v, want %v", noAfter, used, c.streamed)
				}
			}
		})
	}
}

// TestPrepare: every Replace edit in a batch is grouped once, in its
// place, with the later ones to its path after it; other edits, and those
// with a bad path, are not.
func TestPrepare(t *testing.T) {
	var edits []edit.Edit
	for i := range 300 {
		e := edit.Edit{Op: edit.Replace, Path: fmt.Sprint(i % 3), Old: fmt.Sprintf("a%d\nb\nc\n", i), New: fmt.Sprintf("x%d\n", i), Count: 1}
		switch i % 7 {
		case 1:
			e.Old = "" // creates
		case 3:
			e.Old, e.Hint = "", 5 // inserts before line 5: grouped
		case 2:
			e.Op = edit.Rewrite
		}
		edits = append(edits, e)
	}
	for _, n := range []int{0, 1, 2, 31, 64, 131, 300} {
		src := make([]string, n)
		bad := make([]bool, n)
		for i := range n {
			src[i] = edits[i].Path
			bad[i] = i%11 == 5
		}
		p := &planner{}
		p.prepare(edits[:n], src, bad)
		for i := range n {
			e := &edits[i]
			want := !bad[i] && inBatch(e)
			rest := p.restOf(i, src[i])
			if got := rest != nil; got != want {
				t.Fatalf("%d edits: edit %d prepared: %v, want %v", n, i, got, want)
			}
			if !want {
				continue
			}
			var later []int
			for k := i; k < n; k++ {
				if !bad[k] && inBatch(&edits[k]) && src[k] == src[i] {
					later = append(later, k)
				}
			}
			if len(rest) != len(later) {
				t.Fatalf("%d edits: edit %d has %d after it, want %d", n, i, len(rest), len(later))
			}
			for j, k := range later {
				if rest[j] != &edits[k] || &rest[j] != &p.restOf(k, src[k])[0] {
					t.Fatalf("%d edits: edit %d's group does not hold edit %d at %d", n, i, k, j)
				}
			}
		}
	}
}

// TestPrepareAllocs: grouping the edits allocates, for each, its pointer
// in its path's group and its place there (8 and 4 bytes), not a slice of
// its path's group besides (24 more), which planning would hold to its
// end.
func TestPrepareAllocs(t *testing.T) {
	growth.SkipUnderRace(t)
	const n = 64000
	edits := make([]edit.Edit, n)
	src := make([]string, n)
	for i := range edits {
		edits[i] = edit.Edit{Op: edit.Replace, Path: fmt.Sprint(i % 4), Old: fmt.Sprintf("a%d\nb\nc\n", i), New: fmt.Sprintf("x%d\n", i), Count: 1}
		src[i] = edits[i].Path
	}
	bad := make([]bool, n)
	p := &planner{}
	_, bytes := growth.Allocs(func() { p.prepare(edits, src, bad) })
	if p.restOf(n-1, src[n-1]) == nil {
		t.Fatal("the last edit was not grouped")
	}
	each := float64(bytes) / n
	t.Logf("%d edits: prepare allocated %.1f bytes each", n, each)
	if each > 16 {
		t.Errorf("prepare allocated %.1f bytes for each edit, more than 16", each)
	}
}

// TestApplyLeavesNoGoroutine: the hashing workers and the readers of
// files are gone when Apply returns.
func TestApplyLeavesNoGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	root := t.TempDir()
	files := tree{}
	var edits []edit.Edit
	for i := range 100 {
		name := fmt.Sprintf("f%d.txt", i)
		files[name] = fmt.Sprintf("a%d\nb\nc\n", i)
		edits = append(edits, replace(name, fmt.Sprintf("a%d\n", i), "x\n"), replace(name, "b\n", "y\n"))
	}
	writeTree(t, root, files)
	for _, dry := range []bool{true, false} {
		opts := testOpts(t, root)
		opts.DryRun = dry
		if _, err := Apply(context.Background(), edits, opts); err != nil {
			t.Fatal(err)
		}
		if n := workersLeft(); n > 0 {
			t.Errorf("dry run %v: %d of Apply's workers left after it returned", dry, n)
		}
	}
}

// TestHasherStop: stop ends every worker, with hashes still queued that
// nothing asked for, and the hashes asked for before are right.
func TestHasherStop(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	h := &hasher{}
	data := []byte(strings.Repeat("x", 1<<20))
	first := h.hash([][]byte{data})
	for range 50 {
		h.hash([][]byte{data})
	}
	if got := first.get(); got != HashBytes(data) {
		t.Errorf("hash %s, want %s", got, HashBytes(data))
	}
	h.stop()
	if n := workersLeft(); n > 0 {
		t.Errorf("%d workers left after stop", n)
	}
}

// workersLeft counts the goroutines running a hashing worker or a lane of
// spread, once there are none or after many yields: a goroutine whose
// function returned may still be listed until it is scheduled to exit.
// Other tests' goroutines are not counted.
func workersLeft() int {
	count := func() int {
		buf := make([]byte, 1<<20)
		n := 0
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "apply.(*hasher).hash.func") || strings.Contains(g, "apply.spread.func") {
				n++
			}
		}
		return n
	}
	for range 10000 {
		if count() == 0 {
			return 0
		}
		runtime.Gosched()
	}
	return count()
}
