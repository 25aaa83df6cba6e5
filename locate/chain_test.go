package locate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// chainShapes are runs of edits that each land next to the splice the
// ones before them made, so that each merges with it: blocks that quote
// the lines right after those the last one wrote, blocks that quote the
// last line it wrote and the lines after it, the same two in reverse (a
// file edited bottom-up: each block quotes the lines right before those
// the last one wrote, or those and the first line it wrote), which grow
// the merged splice at its front, blocks that land in the middle of the
// splice a chain grew, and the crossing runs of passShapes (a
// line, then that line and the next), pairs that merge.
var chainShapes = []struct {
	name string
	run  func(n int) (string, []edit.Edit)
	// one says the whole run merges into one splice.
	one bool
}{
	{"adjacent", chainRun(false), true},
	{"sharing-a-line", chainRun(true), true},
	{"adjacent-crlf", crlfRun(chainRun(false)), true},
	{"reverse", reverseChainRun(false), true},
	{"reverse-sharing-a-line", reverseChainRun(true), true},
	{"reverse-crlf", crlfRun(reverseChainRun(false)), true},
	{"middle", middleChainRun, true},
	{"middle-crlf", crlfRun(middleChainRun), true},
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
		file, line := chainFile(n)
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
		return file, es
	}
}

// middleChainRun is chainRun's blocks, then, for every fourth of them
// but the first (whose lines the last of chainRun's rewrites), a block
// that changes the middle line it wrote, in file order: each lands in
// the middle of the long splice the chain grew, far from both its ends.
func middleChainRun(n int) (string, []edit.Edit) {
	file, es := chainRun(false)(n)
	_, line := chainFile(n)
	for i := 4; i < n; i += 4 {
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: line(3*i+1) + " // chained\n", New: line(3*i+1) + " // again\n",
			Count: 1, Format: edit.FormatSearchReplace})
	}
	return file, es
}

// chainFile is the file of chainRun and reverseChainRun for n blocks: a
// function of 3n+1 distinct lines, and line, its line i but the first.
func chainFile(n int) (file string, line func(i int) string) {
	line = func(i int) string { return fmt.Sprintf("\tx%d := compute(%d, y)", i, 7*i) }
	var b strings.Builder
	b.WriteString("func f(y int) int {\n")
	for i := range 3*n + 1 {
		b.WriteString(line(i) + "\n")
	}
	b.WriteString("}\n")
	return b.String(), line
}

// reverseChainRun is chainRun in reverse, on the same file: n blocks
// of three lines from the file's end up, each quoting the three lines
// before those the block before it quoted, or, with share, the two lines
// before the first line the block before it wrote, and that line; and
// then a block that quotes the second line the first one wrote, at the
// end of the splice the chain grew at its front, whose index must still
// find it.
func reverseChainRun(share bool) func(n int) (string, []edit.Edit) {
	return func(n int) (string, []edit.Edit) {
		file, line := chainFile(n)
		var es []edit.Edit
		back := line(3*n-2) + " // chained\n"
		if share {
			back = line(2*n-1) + " // chained\n"
		}
		for i := range n {
			m := n - 1 - i
			var old, nw []string
			if !share {
				for k := 3 * m; k < 3*m+3; k++ {
					old = append(old, line(k))
					nw = append(nw, line(k)+" // chained")
				}
			} else {
				// Two lines, changed, and the first line the block
				// before wrote (the line after them, for the first).
				last := line(2*m+2) + " // chained"
				if i == 0 {
					last = line(2*m + 2)
				}
				old = []string{line(2 * m), line(2*m + 1), last}
				nw = []string{line(2*m) + " // chained", line(2*m+1) + " // chained", last}
			}
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: strings.Join(old, "\n") + "\n",
				New: strings.Join(nw, "\n") + "\n", Count: 1, Format: edit.FormatSearchReplace})
		}
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: back, New: strings.TrimSuffix(back, " // chained\n") + " // and back\n",
			Count: 1, Format: edit.FormatSearchReplace})
		return file, es
	}
}

// TestChainMergeCost holds a chain of edits that merge, each with the
// splice the ones before it made, to a cost linear in the edits: the
// bytes the merges read to make their texts and the zone lines the
// splices' indexing reads, at two sizes a factor of eight apart, are at
// most a small multiple of the edits' own bytes and lines, however long
// the merged splice grows, and whichever end it grows at. Copying the merged text at each merge, or
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

// chainEquivalenceRun is a file of unique and much repeated lines and a
// long chain of blocks over it, in file order, each quoting the lines
// right after those the one before it wrote, or the last line it wrote
// and the lines after it, or in reverse order, each quoting the lines
// right before those the chain wrote, or those and the first line it
// wrote, or now one way and now the other; now and then a block instead quotes lines the
// chain wrote far back, or a line of the vocabulary the chain's new texts
// also write, which may then stand at several places, on lines of the
// grown splice indexed before and after its merges.
func chainEquivalenceRun(r *rand.Rand) (string, []edit.Edit) {
	vocab := []string{"}", "\treturn nil", "\tif err != nil {", "\t\treturn err", ""}
	var lines []string
	for i := range 40 + r.IntN(80) {
		if r.IntN(3) == 0 {
			lines = append(lines, vocab[r.IntN(len(vocab))])
		} else {
			lines = append(lines, fmt.Sprintf("\tw%d()", i))
		}
	}
	file := strings.Join(lines, "\n") + "\n"
	if r.IntN(6) == 0 {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	cur := slices.Clone(lines)
	// The chain goes on after the last lines it wrote (at), or, in
	// reverse, before the first (top), or either way, block by block.
	dir := r.IntN(3) // 0 forward, 1 in reverse, 2 both
	at := r.IntN(len(cur) / 4)
	if dir > 0 {
		at = len(cur)/2 + r.IntN(len(cur)/2)
	}
	top := at
	var written [][2]int // each block's new lines in cur, as the blocks after it leave them
	var es []edit.Edit
	for k := range 10 + r.IntN(50) {
		n := 1 + r.IntN(3)
		from := at
		rev := dir == 1 || dir == 2 && r.IntN(2) == 0
		if rev {
			from = max(top-n, 0)
		}
		switch c := r.IntN(10); {
		case c < 2 && len(written) > 1: // lines the chain wrote far back
			w := written[r.IntN(len(written)-1)]
			from, n, rev = w[0], max(w[1], 1), false
		case c == 2:
			from = -1 // a line of the vocabulary
		case c < 5 && rev && top < len(cur):
			from = max(top-n+1, 0) // and the first line the block before wrote
		case c < 5 && !rev && at > 0:
			from = at - 1 // the last line the block before wrote
		}
		var quoted []string
		if from < 0 {
			quoted = []string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]}
		} else {
			if from >= len(cur) {
				break
			}
			quoted = slices.Clone(cur[from:min(from+n, len(cur))])
		}
		newLines := slices.Clone(quoted)
		switch r.IntN(4) {
		case 0:
			newLines = append(newLines, vocab[r.IntN(len(vocab))]) // a line that stands elsewhere
		case 1:
			newLines = newLines[:len(newLines)-1]
		default:
			newLines[0] += fmt.Sprintf(" // c%d", k)
		}
		e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: strings.Join(quoted, "\n") + "\n", New: strings.Join(newLines, "\n") + "\n",
			Count: 1, Format: edit.FormatSearchReplace}
		if len(newLines) == 0 {
			e.New = ""
		}
		es = append(es, e)
		if from < 0 {
			continue // where it lands, if anywhere, the ladder says
		}
		// The chain goes on after the lines this block wrote, where it
		// was one of the chain's.
		cur = append(cur[:from:from], append(newLines, cur[from+len(quoted):]...)...)
		d := len(newLines) - len(quoted)
		for i := range written {
			if written[i][0] > from {
				written[i][0] += d
			}
		}
		written = append(written, [2]int{from, len(newLines)})
		switch {
		case rev:
			top = from
			if at > from {
				at = max(at+d, from+len(newLines))
			}
		case from >= at-1:
			at = from + len(newLines)
		case at > from:
			at += d
		}
		if top > from && !rev {
			top = max(top+d, from)
		}
	}
	return file, es
}

// TestBatchChainEquivalence holds the batch's answers to long chains of
// merging blocks, and to quotes of the lines the chain wrote, to the
// ladder's.
func TestBatchChainEquivalence(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 150
	}
	r := rand.New(rand.NewPCG(35, 11))
	for range n {
		file, es := chainEquivalenceRun(r)
		checkBatch(t, map[string]string{"a.txt": file}, es, Options{TrimTrailingWS: r.IntN(4) == 0})
	}
}
