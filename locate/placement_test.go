package locate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/edapply/edapply/edit"
)

// separateRun is n one-line blocks on a file of 3n+2 distinct lines,
// each changing every third line, so that no two share or touch a line:
// in file order, bottom-up ("reverse"), or in a random order.
func separateRun(n int, order string) (string, []edit.Edit) {
	file, line := chainFile(n)
	var es []edit.Edit
	for i := range n {
		l := line(3*i + 1)
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: l + "\n", New: l + " // separate\n",
			Count: 1, Format: edit.FormatSearchReplace})
	}
	switch order {
	case "reverse":
		slices.Reverse(es)
	case "random":
		r := rand.New(rand.NewPCG(uint64(n), 35))
		r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	}
	return file, es
}

// TestPlacementCost holds the placing of separate splices, each before
// or after all the others, to a cost flat per splice: the splices and
// zones place copies and the running counts it changes, at two sizes a
// factor of eight apart. Placing a splice at the front by moving every
// splice after it, and recounting their running counts, costs the
// splices placed so far at each edit.
func TestPlacementCost(t *testing.T) {
	for _, order := range []string{"forward", "reverse"} {
		t.Run(order, func(t *testing.T) {
			for _, n := range []int{1_000, 8_000} {
				content, es := separateRun(n, order)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				for k := range es {
					r, err := d.Replace(&es[k])
					if err != nil || r.Status != edit.StatusApplied {
						t.Fatalf("%d edits: edit %d: %+v %v, want applied", n, k, r, err)
					}
				}
				g := d.seg
				if g == nil || d.passes > 1 || len(g.sp) != n {
					t.Fatalf("%d edits: %d passes over the file, segment %v: want every edit batched, a splice each", n, d.passes, g != nil)
				}
				if g.placeMoves > 4*n {
					t.Errorf("%d edits: placing moved or recounted %d, want at most %d (4 a splice)", n, g.placeMoves, 4*n)
				}
			}
		})
	}
	// And the answers are the ladder's, in every order.
	for _, order := range []string{"forward", "reverse", "random"} {
		content, es := separateRun(40, order)
		checkBatch(t, map[string]string{"a.go": content}, es, Options{})
	}
}
