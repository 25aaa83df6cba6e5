package apply

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/edit"
)

// cuts returns s cut at random places into pieces, some of them empty.
func cuts(r *rand.Rand, s string) []string {
	var ps []string
	for len(s) > 0 {
		k := r.IntN(min(len(s), 300) + 1)
		if r.IntN(4) == 0 {
			k = r.IntN(len(s) + 1) // now and then a long one
		}
		ps = append(ps, s[:k])
		s = s[k:]
	}
	if r.IntN(2) == 0 {
		ps = append(ps, "")
	}
	return ps
}

// TestChunksReadAsBytes: whatever reads a content in chunks (the
// journal's sum, the receipt's hash, the comparisons) answers for pieces
// what it answers for the same bytes whole, from empty to past the size
// where CRC-32C changes tables, and a comparison tells apart a content
// that differs in one byte or one length.
func TestChunksReadAsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 22))
	for _, n := range []int{0, 1, 15, 64, 1000, journal.TableMin - 1, journal.TableMin, 3*journal.TableMin + 5} {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab\n\r\x00é"[r.IntN(7)]
		}
		s := string(b)
		for round := range 20 {
			ps := cuts(r, s)
			st := fsio.State{Exists: true, Pieces: fsio.ChunksOf(ps)}
			whole := fsio.State{Exists: true, Data: b}
			if st.Size() != n {
				t.Fatalf("%d bytes in %d pieces: size %d", n, len(ps), st.Size())
			}
			if got, want := journal.SumChunks(st.Chunks()), journal.Sum(b); got != want {
				t.Errorf("%d bytes in %d pieces: sum %016x, want %016x", n, len(ps), got, want)
			}
			if got, want := hashChunks(st.Chunks()), HashBytes(b); got != want {
				t.Errorf("%d bytes in %d pieces: hash %s, want %s", n, len(ps), got, want)
			}
			if !fsio.SameData(st, whole) || !fsio.SameData(whole, st) || !fsio.SameData(st, fsio.State{Pieces: fsio.ChunksOf(cuts(r, s))}) {
				t.Errorf("%d bytes in %d pieces: not the same as the bytes", n, len(ps))
			}
			if n == 0 {
				continue
			}
			other := []byte(s)
			at := r.IntN(n)
			other[at] ^= 1 << (round % 8)
			if fsio.SameData(st, fsio.State{Data: other}) || fsio.SameData(fsio.State{Pieces: fsio.ChunksOf(cuts(r, string(other)))}, st) {
				t.Errorf("%d bytes in %d pieces: the same as bytes that differ at %d", n, len(ps), at)
			}
			if fsio.SameData(st, fsio.State{Data: b[:n-1]}) || fsio.SameData(fsio.State{Data: append([]byte(s), 'x')}, st) {
				t.Errorf("%d bytes in %d pieces: the same as a content one byte shorter or longer", n, len(ps))
			}
		}
	}
}

// TestNoAfterWritesTheSameBytes applies the same edits with and without
// Options.Omit.After, the second writing each edited file from its pieces:
// through the batch (more edits than one writev takes pieces), through
// the ladder, with a BOM and CRLF, emptied, appended to, created, renamed
// and deleted, rewritten whole. Both leave the same tree and receipt but for After, which
// Omit.After leaves nil; the receipt's after hashes are of what is on disk,
// and undo, which checks each file against the journal's sum of what was
// written, puts the tree back.
func TestNoAfterWritesTheSameBytes(t *testing.T) {
	var b strings.Builder
	for i := range 900 {
		fmt.Fprintf(&b, "func f%d() int {\n\treturn %d\n}\n\n", i, i)
	}
	big := b.String()
	fn := func(i int) string { return fmt.Sprintf("func f%d() int {\n\treturn %d\n}\n", i, i) }
	var edits []edit.Edit
	for i := 0; i < 900; i++ { // 900 splices: 1,800 pieces and more
		edits = append(edits, replace("big.go", fn(i), strings.Replace(fn(i), "return", "return 1 +", 1)))
	}
	before := tree{
		"big.go":    big,
		"bom.txt":   "\uFEFFone\r\ntwo\r\nthree\r\n",
		"ladder.go": "func a() {\n\tx := 1\n}\n",
		"whole.txt": "one\ntwo\n",
		"empty.txt": "gone\n",
		"tail.txt":  "a\nb\n",
		"old.txt":   "moved\n",
		"del.txt":   "bye\n",
	}
	edits = append(edits,
		replace("bom.txt", "two\r\n", "TWO\r\n"),
		replace("ladder.go", "func a() {\n    x := 1\n}\n", "func a() {\n    x := 2\n}\n"), // the indent rung
		replace("empty.txt", "gone\n", ""),
		edit.Edit{Op: edit.Create, Format: edit.FormatSearchReplace, Path: "tail.txt", New: "c\n"}, // appends
		edit.Edit{Op: edit.Create, Path: "new/n.txt", New: "new\n"},
		edit.Edit{Op: edit.Rewrite, Path: "whole.txt", New: "one\n2\n"},
		edit.Edit{Op: edit.Rename, Path: "old.txt", New: "moved.txt"},
		replace("moved.txt", "moved\n", "moved on\n"),
		edit.Edit{Op: edit.Delete, Path: "del.txt"},
	)
	var want tree
	var wantRes *Result
	for _, noAfter := range []bool{false, true} {
		root := t.TempDir()
		writeTree(t, root, before)
		opts := testOpts(t, root)
		opts.Omit.After = noAfter
		res, err := Apply(context.Background(), edits, opts)
		if err != nil {
			t.Fatalf("Omit.After %v: %v", noAfter, err)
		}
		got := readTree(t, root)
		for _, f := range res.Files {
			p := f.Path
			if f.NewPath != "" {
				p = f.NewPath
			}
			if f.Op == "delete" {
				if f.AfterHash != "" {
					t.Errorf("Omit.After %v, %s: deleted, after hash %s", noAfter, p, f.AfterHash)
				}
			} else if h := HashBytes([]byte(got[p])); f.AfterHash != h {
				t.Errorf("Omit.After %v, %s: after hash %s, the file's %s", noAfter, p, f.AfterHash, h)
			}
			if noAfter && f.After != nil {
				t.Errorf("Omit.After, %s: After %q", p, f.After)
			}
		}
		if !noAfter {
			want, wantRes = got, res
			continue
		}
		if len(got) != len(want) {
			t.Errorf("Omit.After: %d files, %d without", len(got), len(want))
		}
		for p, w := range want {
			if got[p] != w {
				t.Errorf("Omit.After: %s holds %d bytes, %d without it\n%.200q\nwant\n%.200q", p, len(got[p]), len(w), got[p], w)
			}
		}
		for i, f := range res.Files {
			w := wantRes.Files[i]
			if f.Path != w.Path || f.NewPath != w.NewPath || f.Op != w.Op || f.BeforeHash != w.BeforeHash || f.AfterHash != w.AfterHash || len(f.Edits) != len(w.Edits) {
				t.Errorf("Omit.After: file %d is %s %s %s→%s, without it %s %s %s→%s", i, f.Op, f.Path, f.BeforeHash, f.AfterHash, w.Op, w.Path, w.BeforeHash, w.AfterHash)
			}
		}
		if _, err := Undo(context.Background(), opts); err != nil {
			t.Fatalf("undo after Omit.After: %v", err)
		}
		if got := readTree(t, root); fmt.Sprint(got) != fmt.Sprint(before) {
			t.Errorf("undo after Omit.After left %v", got)
		}
	}
}

// TestNoAfterRollback: a commit that fails after it wrote a file from its
// pieces puts it back, comparing the file with the pieces first.
func TestNoAfterRollback(t *testing.T) {
	root := t.TempDir()
	src := strings.Repeat("keep\n", 1000) + "old\n" + strings.Repeat("keep too\n", 1000)
	writeTree(t, root, tree{"a.txt": src, "b.txt": "b\n"})
	opts := testOpts(t, root)
	opts.Omit.After = true
	opts.Verify = func(context.Context, string) (string, error) { return "", errors.New("tests failed") }
	res, err := Apply(context.Background(), []edit.Edit{replace("a.txt", "old\n", "new\n"), replace("b.txt", "b\n", "c\n")}, opts)
	if err == nil || res.Verify != "failed" {
		t.Fatalf("Apply with a failing verification: %v, %v", err, res.Errors)
	}
	if got := readTree(t, root); got["a.txt"] != src || got["b.txt"] != "b\n" {
		t.Errorf("after the failed verification: a.txt %d bytes (want %d), b.txt %q", len(got["a.txt"]), len(src), got["b.txt"])
	}
	for _, e := range res.Errors {
		if e.Code == edit.CodeOutOfDate {
			t.Errorf("the rollback found a file it wrote changed: %v", e)
		}
	}
}

// TestNoAfterHoldsNoSecondCopy: with Omit.After, an apply that edits a large
// file allocates nearly a whole file's bytes fewer than without it, where
// FileResult.After is a copy of the new content: whether the edits are
// run in a batch, make it through the ladder, or rewrite the file whole
// from the edit's own text, the new content is never made whole. The
// least of a few runs: TotalAlloc counts the whole process.
func TestNoAfterHoldsNoSecondCopy(t *testing.T) {
	var b strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&b, "line %d of the file, long enough to count\n", i)
	}
	src := b.String()
	var batch []edit.Edit
	for i := 100; i < 40000; i += 400 {
		line := fmt.Sprintf("line %d of the file, long enough to count\nline %d of the file, long enough to count\n", i, i+1)
		batch = append(batch, replace("f.txt", line, strings.ToUpper(line)))
	}
	for _, c := range []struct {
		name  string
		edits []edit.Edit
	}{
		{"batch", batch},
		{"ladder", []edit.Edit{replace("f.txt", "line 7 of the file, long enough to count  \n", "line seven\n")}}, // the trailing-blank rung
		{"rewrite", []edit.Edit{{Op: edit.Rewrite, Path: "f.txt", New: strings.ReplaceAll(src, "line", "LINE")}}},
	} {
		allocated := func(noAfter bool) uint64 {
			least := uint64(1 << 62)
			for range 3 {
				root := t.TempDir()
				writeTree(t, root, tree{"f.txt": src})
				opts := testOpts(t, root)
				opts.Omit.After, opts.Omit.Hashes, opts.NoSync = noAfter, true, true
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				res, err := Apply(context.Background(), c.edits, opts)
				runtime.ReadMemStats(&after)
				if err != nil || res.Files[0].Edits[0].Status != edit.StatusApplied {
					t.Fatalf("%s: %v, %+v", c.name, err, res.Files[0].Edits)
				}
				least = min(least, after.TotalAlloc-before.TotalAlloc)
			}
			return least
		}
		with, without := allocated(true), allocated(false)
		if n := uint64(len(src)); with+n*9/10 > without {
			t.Errorf("%s: %d bytes allocated with Omit.After, %d without, for a %d-byte file: not nearly a whole copy fewer", c.name, with, without, n)
		}
	}
}

// TestResultEditsHoldNoSlack: a file's edit results are held in an array
// of just their number, not one grown by append to up to twice it: the
// receipt's records are most of what a large reply's many small edits
// hold beside their texts.
func TestResultEditsHoldNoSlack(t *testing.T) {
	const n = 100
	var b strings.Builder
	var edits []edit.Edit
	for i := range n {
		fmt.Fprintf(&b, "line %d\nnext %d\n", i, i)
		edits = append(edits, replace("f.txt", fmt.Sprintf("line %d\nnext %d\n", i, i), fmt.Sprintf("LINE %d\nnext %d\n", i, i)))
	}
	root := t.TempDir()
	writeTree(t, root, tree{"f.txt": b.String()})
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err != nil || len(res.Files) != 1 || len(res.Files[0].Edits) != n {
		t.Fatalf("%v, %+v", err, res)
	}
	if c := cap(res.Files[0].Edits); c != n {
		t.Errorf("%d edit results held in an array of %d", n, c)
	}
}
