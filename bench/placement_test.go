package bench

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/edapply/edapply/internal/gen"
)

// The shapes that place a splice away from the end of the batch's
// ordered splices (issue 35), as BenchmarkWorst runs them:
//
//   - separate-rev: one-line blocks, each changing a line that stands
//     once, sent bottom-up: each lands before every splice the ones
//     before it made, and next to none.
//   - separate-random: the same blocks in a random order.
//   - chain-mid: a chain of three-line blocks in file order (chain-sr),
//     merged into one splice, then a block for every fourth of them
//     that changes the middle line of the lines it wrote, in file
//     order: each edits the middle of the long merged splice.
//
// The references get each change as a -U0 hunk.
var placementShapes = []worstShape{
	{"separate-rev-sr", []int{1_000, 4_000, 16_000}, zeroContext, func(n int) (*worstFixture, error) { return separateFixture(n, "rev") }},
	{"separate-random-sr", []int{1_000, 4_000, 16_000}, zeroContext, func(n int) (*worstFixture, error) { return separateFixture(n, "random") }},
	{"chain-mid-sr", []int{250, 1_000, 4_000}, zeroContext, chainMidFixture},
}

func BenchmarkPlacement(b *testing.B) { benchShapes(b, placementShapes) }

// separateFixture is n one-line blocks, each replacing a line that
// stands once, on a file of 20n lines, sent bottom-up ("rev") or in a
// random order ("random").
func separateFixture(n int, order string) (*worstFixture, error) {
	src, es, blocks, err := oneLineEdits("separate", uint64(42_000+n), n, 20*n)
	if err != nil {
		return nil, err
	}
	switch order {
	case "rev":
		slices.Reverse(blocks)
	case "random":
		r := rand.New(rand.NewPCG(uint64(n), 35))
		r.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	}
	return blocksFixture("separate.go", src, es, blocks)
}

// chainMidFixture is chainFixture's n blocks in file order, then, for
// every fourth block, one that changes the middle of the three lines it
// wrote.
func chainMidFixture(n int) (*worstFixture, error) {
	path := "chain.go"
	var es []gen.Edit
	var blocks, again []gen.Block
	for i := range n {
		del, add := chainLink(i)
		blocks = append(blocks, linesBlock(path, del, add))
		if i%4 == 0 {
			mid := add[1]
			add[1] = mid + " again"
			again = append(again, gen.Block{Path: path, Search: mid + "\n", Replace: add[1] + "\n"})
		}
		es = append(es, gen.Edit{Path: path, Line: 4 + 3*i, Del: del, Add: add})
	}
	src := chainSource(n)
	want, err := gen.ApplyEdits(src, es)
	if err != nil {
		return nil, err
	}
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.SearchReplace(append(blocks, again...)), diff: gen.UnifiedDiff(es), want: want, edits: len(blocks) + len(again)}, nil
}
