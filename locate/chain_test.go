package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// chainShapes are runs of edits that each land next to the splice the
// ones before them made, so that each merges with it: blocks that quote
// the lines right after those the last one wrote, blocks that quote the
// last line it wrote and the lines after it, and the crossing runs of
// passShapes (a line, then that line and the next), pairs that merge.
var chainShapes = []struct {
	name string
	run  func(n int) (string, []edit.Edit)
	// one says the whole run merges into one splice.
	one bool
}{
	{"adjacent", chainRun(false), true},
	{"sharing-a-line", chainRun(true), true},
	{"adjacent-crlf", crlfRun(chainRun(false)), true},
	{"crossing", crossingRun, false},
	{"crossing-crlf", crlfRun(crossingRun), false},
}

// chainRun is n blocks of three lines on a file of 3n+2 lines, in file
// order: each quotes the three lines after those the block before it
// quoted, or, with share, the last line the block before it wrote and
// the two after it; and then a block that quotes the second line the
// first one wrote, far back in the splice the chain grew, whose index
// must still find it.
func chainRun(share bool) func(n int) (string, []edit.Edit) {
	return func(n int) (string, []edit.Edit) {
		line := func(i int) string { return fmt.Sprintf("\tx%d := compute(%d, y)", i, 7*i) }
		var b strings.Builder
		b.WriteString("func f(y int) int {\n")
		for i := range 3*n + 1 {
			b.WriteString(line(i) + "\n")
		}
		b.WriteString("}\n")
		var es []edit.Edit
		for i := range n {
			var old, nw []string
			if !share {
				for k := 3 * i; k < 3*i+3; k++ {
					old = append(old, line(k))
					nw = append(nw, line(k)+" // chained")
				}
			} else {
				// The line the block before wrote (the file's first
				// line for the first), and the next two, changed.
				first := line(2*i) + " // chained"
				if i == 0 {
					first = line(0)
				}
				old = []string{first, line(2*i + 1), line(2*i + 2)}
				nw = []string{first, line(2*i+1) + " // chained", line(2*i+2) + " // chained"}
			}
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: strings.Join(old, "\n") + "\n",
				New: strings.Join(nw, "\n") + "\n", Count: 1, Format: edit.FormatSearchReplace})
		}
		back := line(1) + " // chained\n"
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: back, New: line(1) + " // and back\n", Count: 1, Format: edit.FormatSearchReplace})
		return b.String(), es
	}
}

// TestChainMergeCost holds a chain of edits that merge, each with the
// splice the ones before it made, to a cost linear in the edits: the
// bytes the merges read to make their texts and the zone lines the
// splices' indexing reads, at two sizes a factor of eight apart, are at
// most a small multiple of the edits' own bytes and lines, however long
// the merged splice grows. Copying the merged text at each merge, or
// indexing all its lines again, reads the chain's bytes at each edit.
func TestChainMergeCost(t *testing.T) {
	for _, s := range chainShapes {
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := s.run(n)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				texts, lines := 0, 0
				for k := range es {
					r, err := d.Replace(&es[k])
					if err != nil || r.Status != edit.StatusApplied {
						t.Fatalf("%d edits: edit %d: %+v %v, want applied", n, k, r, err)
					}
					texts += len(es[k].Old) + len(es[k].New)
					lines += strings.Count(es[k].New, "\n") + 1
				}
				g := d.seg
				if g == nil || d.passes > 1 {
					t.Fatalf("%d edits: %d passes over the file, segment %v: want every edit batched", n, d.passes, g != nil)
				}
				if s.one && len(g.sp) != 1 {
					t.Errorf("%d edits: %d splices, want the chain merged into one", n, len(g.sp))
				}
				if g.mergeBytes > 2*texts {
					t.Errorf("%d edits: merges read %d bytes, want at most %d (twice the edits' texts)", n, g.mergeBytes, 2*texts)
				}
				if g.linesIndexed > 2*lines {
					t.Errorf("%d edits: %d zone lines indexed, want at most %d (twice the new texts' lines)", n, g.linesIndexed, 2*lines)
				}
			}
			// And the answers are the ladder's, edit by edit.
			content, es := s.run(40)
			checkBatch(t, map[string]string{"a.go": content}, es, Options{})
		})
	}
}
