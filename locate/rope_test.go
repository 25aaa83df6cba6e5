package locate

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRopeGrowsBothEnds builds ropes the way merges do, growing from the
// one before at its back (prefix, add) or at its front (suffix,
// addFront), and holds every reader to the text a string would hold, and
// a position of the text (origin) to the same byte whichever end grew.
func TestRopeGrowsBothEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 35))
	words := []string{"a", "bc\n", "\n", "def", "g\nh\n", "\n\n", "ijkl"}
	for range 300 {
		var rp rope
		model, origin := "", 0 // origin: where the model's text starts in rp's positions
		for range 1 + r.IntN(40) {
			w := words[r.IntN(len(words))]
			switch r.IntN(4) {
			case 0:
				rp.add(w)
				model += w
			case 1:
				rp.addFront(w)
				model, origin = w+model, origin-len(w)
			case 2:
				n := r.IntN(len(model) + 1)
				rp = rp.prefix(n)
				model = model[:n]
				rp.add(w)
				model += w
			case 3:
				n := r.IntN(len(model) + 1)
				rp = rp.suffix(n)
				model, origin = model[n:], origin+n
				rp.addFront(w)
				model, origin = w+model, origin-len(w)
			}
			if rp.len() != len(model) || rp.origin() != origin {
				t.Fatalf("len %d origin %d, want %d %d (%q)", rp.len(), rp.origin(), len(model), origin, model)
			}
			for o := 0; o <= len(model); o++ {
				if got, want := rp.nlBefore(o), strings.Count(model[:o], "\n"); got != want {
					t.Fatalf("nlBefore(%d) = %d, want %d (%q)", o, got, want, model)
				}
				want := strings.IndexByte(model[o:], '\n')
				if want >= 0 {
					want += o
				}
				if got := rp.indexNL(o); got != want {
					t.Fatalf("indexNL(%d) = %d, want %d (%q)", o, got, want, model)
				}
				for y := o; y <= len(model); y++ {
					if got := rp.slice(o, y); got != model[o:y] || !rp.equalAt(o, model[o:y]) {
						t.Fatalf("slice(%d, %d) = %q, want %q", o, y, got, model[o:y])
					}
				}
			}
			for k := 1; k <= strings.Count(model, "\n")+1; k++ {
				if got, want := rp.nthNL(k), nthIndexNL(model, k); got != want {
					t.Fatalf("nthNL(%d) = %d, want %d (%q)", k, got, want, model)
				}
			}
		}
	}
}
