package locate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestCarriedSegmentKeys: a segment started on the content the one
// before it flushed takes that one's key lines, moved through its
// splices and read again about them; they are the key lines a scan of
// the content finds, line for line, in runs of edits that land and fail
// in turn, in file order and out of it, on LF and CRLF files, with new
// texts that make and remove key lines.
func TestCarriedSegmentKeys(t *testing.T) {
	vocab := []string{"\treturn nil", "}", "", "\tx := f(y)", "\tif err != nil {", "\t\treturn err", "func g() {", "\ty++"}
	carried := 0
	for trial := range 300 {
		r := rand.New(rand.NewPCG(uint64(trial), 35))
		eol := "\n"
		if trial%4 == 3 {
			eol = "\r\n"
		}
		var lines []string
		for i := range 200 + r.IntN(200) {
			if r.IntN(3) == 0 {
				lines = append(lines, vocab[r.IntN(len(vocab))])
			} else {
				lines = append(lines, fmt.Sprintf("\tv%d := %d", i, r.IntN(1000)))
			}
		}
		content := strings.Join(lines, eol) + eol
		if trial%5 == 4 {
			content = strings.TrimSuffix(content, eol)
		}
		var es []*edit.Edit
		for k := 0; k < len(lines)-4; k += 1 + r.IntN(12) {
			n := 2 + r.IntN(3)
			old := strings.Join(lines[k:k+n], eol) + eol
			var nw []string
			for range r.IntN(4) {
				nw = append(nw, vocab[r.IntN(len(vocab))], lines[r.IntN(len(lines))])
			}
			e := &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: strings.Join(nw, eol) + eol}
			if r.IntN(3) == 0 {
				e.Old = strings.Replace(old, "v", "w", 1) // fails
			}
			if r.IntN(4) == 0 {
				e.Hint = k + 1
			}
			es = append(es, e)
		}
		if trial%3 == 2 {
			r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		}
		d := NewDoc(content, Options{})
		d.Prepare(es)
		var checked *segment
		for i, e := range es {
			ck := d.keysAt
			d.Replace(e)
			g := d.seg
			if g == nil || g == checked {
				continue
			}
			checked = g
			if ck == nil || ck.body != g.orig {
				continue
			}
			carried++
			k := len(d.queue) - len(g.run)
			fresh := newSegment(g.orig, g.hasBOM, g.run, d.judged[k:], nil)
			if fresh == nil || fresh.nl != ck.nl || fresh.crlf != ck.crlf || fresh.mode != ck.mode {
				t.Fatalf("trial %d, edit %d: the carried segment's counts differ from a scan's: %v", trial, i, []int{fresh.nl, ck.nl, fresh.crlf, ck.crlf, fresh.mode, ck.mode})
			}
			for h, want := range fresh.keys {
				if got, ok := g.keys[h]; !ok || !slices.Equal(got, want) {
					t.Fatalf("trial %d, edit %d: key line %x stands at %v carried, at %v scanned", trial, i, h, got, want)
				}
			}
		}
	}
	if carried < 100 {
		t.Errorf("%d segments took carried key lines: too few to tell", carried)
	}
}

// TestSegmentKeyLinesBounded: in a run whose failures end segment after
// segment, each new segment reads the lines about the splices before it,
// not the file: the lines read to find the key lines stay within the
// file's once plus a few per edit.
func TestSegmentKeyLinesBounded(t *testing.T) {
	for _, pairs := range []int{50, 200} {
		content := bigFile(40 * pairs)
		var es []*edit.Edit
		for i := range pairs {
			n := 2 * i
			es = append(es,
				&edit.Edit{Op: edit.Replace, Count: 1, Old: fmt.Sprintf("\ty := x * %d\n\tlog.Printf(\"f%d: %%d\", y)\n", n, n), New: fmt.Sprintf("\ty := x * %d // changed\n", n)},
				&edit.Edit{Op: edit.Replace, Count: 1, Old: fmt.Sprintf("func f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, errTooSmal\n", n+1, n+1), New: "x\n"})
		}
		d := NewDoc(content, Options{})
		d.Prepare(es)
		for i, e := range es {
			if _, err := d.Replace(e); (err != nil) != (i%2 == 1) {
				t.Fatalf("edit %d: %v", i, err)
			}
		}
		lines := strings.Count(content, "\n") + 1
		if bound := lines + 4*len(es); d.keyLines > bound {
			t.Errorf("%d failures between landings on %d lines: segments read %d lines for their key lines, more than %d", pairs, lines, d.keyLines, bound)
		}
	}
}
