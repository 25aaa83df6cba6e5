package locate

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRopeMerges rewrites spans of ropes the way merges do: the text
// before a line start and after one kept as trees, what lies between
// written anew as a chunk. It holds every reader to the text a string
// would hold, and every byte's coordinate to the byte it was written for
// while the byte stands, and to nothing once it is gone.
func TestRopeMerges(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 35))
	words := []string{"a", "bc\n", "\n", "def", "g\nh\n", "\n\n", "ijkl"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	for range 300 {
		g := &segment{}
		s := text(1 + r.IntN(5))
		rp := rope{root: g.newChunk(s, 0, 0)}
		model := s
		// coords[i] is the coordinate of the model's byte i; gone are
		// those of bytes rewritten.
		coords := make([]int, len(s))
		for i := range coords {
			coords[i] = rp.root.v + i
		}
		var gone []int
		for range 1 + r.IntN(40) {
			// A span from a line start (or the start) to a line start (or
			// the end), as merges cut.
			starts := []int{0}
			for i := range len(model) {
				if model[i] == '\n' {
					starts = append(starts, i+1)
				}
			}
			a := starts[r.IntN(len(starts))]
			b := starts[r.IntN(len(starts))]
			if r.IntN(4) == 0 {
				b = len(model)
			}
			a, b = min(a, b), max(a, b)
			w := text(r.IntN(4))
			n := g.newChunk(w, 0, 0)
			left, rest := splitAt(rp.root, a)
			mid, right := splitAt(rest, b-a)
			drop(mid)
			rp.root = join(join(left, n), right)
			gone = append(gone, coords[a:b]...)
			fresh := make([]int, len(w))
			for i := range fresh {
				fresh[i] = n.v + i
			}
			coords = append(append(append([]int(nil), coords[:a]...), fresh...), coords[b:]...)
			model = model[:a] + w + model[b:]
			if rp.len() != len(model) {
				t.Fatalf("len %d, want %d (%q)", rp.len(), len(model), model)
			}
			for i, c := range coords {
				root, off, ok := g.standing(c)
				if !ok || root != rp.root || off != i {
					t.Fatalf("byte %d of %q: coordinate %d stands %v at %d", i, model, c, ok, off)
				}
				if coordAt(&rp, i) != c {
					t.Fatalf("byte %d of %q: coordAt %d, want %d", i, model, coordAt(&rp, i), c)
				}
			}
			for _, c := range gone {
				if _, off, ok := g.standing(c); ok {
					t.Fatalf("rewritten coordinate %d stands at %d of %q", c, off, model)
				}
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

// TestRopeDepth holds a rope cut in its middle again and again, as edits
// in the middle of a long merged splice cut it, to a logarithmic depth.
func TestRopeDepth(t *testing.T) {
	g := &segment{}
	line := "x := f(y)\n"
	rp := rope{root: g.newChunk(strings.Repeat(line, 1<<14), 0, 0)}
	for i := range 1 << 12 {
		a := (rp.len() / len(line) / 2) * len(line)
		if i%2 == 1 {
			a = (i * 7919 % (rp.len() / len(line))) * len(line)
		}
		left, rest := splitAt(rp.root, a)
		mid, right := splitAt(rest, len(line))
		drop(mid)
		rp.root = join(join(left, g.newChunk("y := g(x)\n", 0, 0)), right)
	}
	var depth func(n *rnode) int
	depth = func(n *rnode) int {
		if n == nil {
			return 0
		}
		return 1 + max(depth(n.left), depth(n.right))
	}
	// 2^13 pieces: a balanced tree is 13 deep; a treap's expected depth
	// is under three times that.
	if d := depth(rp.root); d > 40 {
		t.Fatalf("depth %d after 4,096 cuts", d)
	}
}
