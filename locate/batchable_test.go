package locate

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// TestJudgedHoldsLittle: what the batch keeps of an edit it judged is a
// few words, not its texts split in lines (two patterns of several times
// the texts' bytes): a Doc judges every edit it was prepared for when its
// first segment starts, and holds them all at once. The ladder splits an
// edit's lines again only when the edit reaches it.
func TestJudgedHoldsLittle(t *testing.T) {
	growth.SkipUnderRace(t)
	const n = 4000
	edits := make([]edit.Edit, n)
	text := 0
	for i := range edits {
		var old, new strings.Builder
		for j := range 7 {
			fmt.Fprintf(&old, "\tx%d := compute(%d, %d)\n", j, i, j)
			fmt.Fprintf(&new, "\tx%d := compute(%d, %d) + 1\n", j, i, j)
		}
		edits[i] = edit.Edit{Op: edit.Replace, Path: "f.go", Old: old.String(), New: new.String(), Count: 1}
		text += old.Len() + new.Len()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	bes := make([]batchEdit, len(edits))
	for i := range edits {
		bes[i] = batchable(&edits[i], nil)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	for i := range bes {
		if !bes[i].ok {
			t.Fatalf("edit %d is not batchable: the test measures what a batch's edit holds", i)
		}
	}
	runtime.KeepAlive(bes)
	runtime.KeepAlive(edits) // the Doc's caller holds them; only what judging adds counts
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d judged edits of %d bytes of text hold %d bytes, %.1f per edit", n, text, held, float64(held)/n)
	if held > 24*n {
		t.Errorf("%d judged edits hold %d bytes (%.0f each, their texts %d in all): more than a few words each", n, held, float64(held)/n, text)
	}
}

// TestBatchableAsTwoPatterns: the batch judges an edit exactly as it would
// with both texts made into full patterns, though it classifies only the
// new text's lines: a placeholder, a gap line or a blank in the old text
// changes nothing the batch asks.
func TestBatchableAsTwoPatterns(t *testing.T) {
	twoPatterns := func(e *edit.Edit) batchEdit {
		if e.Op != edit.Replace || e.Old == "" || e.Count != 1 || len(e.Anchors) > 0 || e.AtEOF ||
			strings.Count(e.Old, "\n") < 2 {
			return batchEdit{}
		}
		op, np := newPattern(e.Old), newPattern(e.New)
		if np.phs != 0 {
			return batchEdit{}
		}
		be := batchEdit{ok: true, plain: np.gaps == 0 && op.finalNL == np.finalNL, oldLines: int32(len(op.lines))}
		if insertion(op, np) {
			if np.gaps > 0 || strings.Contains(np.text, "\r") {
				return batchEdit{}
			}
			be.kind = kindHoldsOld
		}
		if op.text != e.Old || np.text != e.New {
			be.lf = &[2]string{op.text, np.text}
		}
		return be
	}
	pool := []string{
		"func f() {", "\treturn x", "}", "", "   ", "...", "\t...", "// ... existing code ...",
		"# rest unchanged", "key: ...", "x := a -- b", "s := “q”", "(rest of file unchanged)",
		"def g():", "    ...", "etc.", "// etc", "\treturn  x", "}\r", "[snip]", "…",
	}
	r := rand.New(rand.NewPCG(7, 9))
	text := func() string {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(pool[r.IntN(len(pool))])
			if r.IntN(8) > 0 {
				b.WriteString([]string{"\n", "\r\n"}[r.IntN(2)])
			}
		}
		return b.String()
	}
	kinds := map[string]int{}
	for i := range 20000 {
		e := edit.Edit{Op: edit.Replace, Path: "f", Old: text(), New: text(), Count: 1}
		if i%3 == 0 {
			e.New = e.Old + text() // a replacement that holds the old text
		}
		got, want := batchable(&e, nil), twoPatterns(&e)
		if got.ok != want.ok || got.plain != want.plain || got.kind != want.kind || got.oldLines != want.oldLines ||
			(got.lf == nil) != (want.lf == nil) || got.lf != nil && *got.lf != *want.lf {
			t.Fatalf("old %q new %q: batchable %+v, with two full patterns %+v", e.Old, e.New, got, want)
		}
		kinds[fmt.Sprint(got.ok, got.plain, got.kind, got.lf != nil)]++
	}
	if len(kinds) < 5 {
		t.Errorf("the edits judged fall in %d kinds of judgement (%v): too few to tell the two ways apart", len(kinds), kinds)
	}
}

// TestSplitInto: splitInto cuts a text as strings.Split(text, "\n") does,
// in the room it is given, whatever that room held before.
func TestSplitInto(t *testing.T) {
	var room []string
	for _, s := range []string{"", "\n", "\n\n", "a", "a\n", "a\nb", "a\n\nb\n", "\na", "a\r\nb\r\n", "x\ny\nz\nw\nv"} {
		for _, prev := range []int{0, 1, 9} {
			room = append(room[:0], strings.Split(strings.Repeat("old\n", prev), "\n")...)
			got, want := splitInto(room, s), strings.Split(s, "\n")
			if !slices.Equal(got, want) {
				t.Errorf("splitInto(%q) after %d lines = %q, want %q", s, prev, got, want)
			}
		}
	}
}

// TestIsInsertionFoldsAsNeeded: isInsertion, which folds lines only as far
// as its comparisons reach, judges as a fold of every line first does.
func TestIsInsertionFoldsAsNeeded(t *testing.T) {
	foldAll := func(op, np *pattern) bool {
		if np.text == op.text || np.blank {
			return false
		}
		if strings.Contains(np.text, op.text) {
			return true
		}
		n := len(op.lines)
		if n == 0 || n >= len(np.lines) {
			return false
		}
		ol, nl := make([]string, n), make([]string, len(np.lines))
		for i, l := range op.lines {
			ol[i] = foldPunct(l)
		}
		for i, l := range np.lines {
			nl[i] = foldPunct(l)
		}
		for k := 0; k+n <= len(nl); k++ {
			j := 0
			for j < n && eqFields(nl[k+j], ol[j]) {
				j++
			}
			if j == n {
				return true
			}
		}
		return false
	}
	pool := []string{"a := 1", "a  :=  1", "b — c", "b -- c", "b - c", "“q”", "\"q\"", "}", "", "x", "x y", "x  y "}
	r := rand.New(rand.NewPCG(3, 4))
	text := func(k int) string {
		var b strings.Builder
		for range k {
			b.WriteString(pool[r.IntN(len(pool))] + "\n")
		}
		return b.String()
	}
	yes := 0
	for range 20000 {
		op, np := newPattern(text(1+r.IntN(3))), newPattern(text(1+r.IntN(6)))
		got, want := isInsertion(op, np), foldAll(op, np)
		if got != want {
			t.Fatalf("old %q new %q: isInsertion %v, folding every line first %v", op.text, np.text, got, want)
		}
		if got {
			yes++
		}
	}
	if yes < 100 || yes > 19900 {
		t.Errorf("%d of 20000 pairs are insertions: too one-sided to tell the two apart", yes)
	}
}
