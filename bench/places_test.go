package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/edapply/edapply/internal/gen"
)

// The worst shapes about the places of a quote, run by BenchmarkWorst
// beside the others:
//
//   - tiedhint: a -U0 diff whose hunks rename a function, each followed
//     by a hunk of "\treturn nil" alone, which stands in every function,
//     whose line number lies halfway between two of its places: a tie
//     the line hint cannot break, refused with MULTIPLE_MATCHES, whose
//     answer counts every place; the references get the second hunk at
//     the function's own line.
//   - tiedhint2: the same with hunks of two lines, "\treturn nil" and
//     the "}" after it.
//   - counted2: blocks that rename a function, each followed by one
//     quoting "\treturn nil" and the "}" after it, which a line near the
//     file's start also ends with: a place inside a line among the first
//     the ladder finds, so that its answer counts every place.
//   - tallychain: a one-line quote refused with its places counted,
//     then the chain of blocks of chain-sr: each lands next to the
//     splice the ones before it made, while the count is kept.
func init() {
	worstShapes = append(worstShapes,
		worstShape{"tiedhint-udiff", []int{100, 500, 2_500}, zeroContext, func(n int) (*worstFixture, error) { return tiedHintFixture(n, false) }},
		worstShape{"tiedhint2-udiff", []int{100, 500, 2_500}, zeroContext, func(n int) (*worstFixture, error) { return tiedHintFixture(n, true) }},
		worstShape{"counted2-sr", []int{100, 500, 2_500}, zeroContext, counted2Fixture},
		worstShape{"tallychain-sr", []int{250, 1_000, 4_000}, zeroContext, tallyChainFixture},
	)
}

// returnNilFuncs writes n small functions, each holding "\treturn nil"
// at a line start and inside a deeper line, starting at line 3 of the
// file, six lines each; edit(g, line) is called with each one's first
// line.
func returnNilFuncs(b *strings.Builder, pkg string, n int, edit func(g, line int)) {
	fmt.Fprintf(b, "package %s\n\n", pkg)
	for g := range n {
		fmt.Fprintf(b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", g)
		edit(g, 3+6*g)
	}
}

// tiedHintFixture is n hunks on a file of 24n lines of small functions:
// n/2 rename one, each followed by a hunk of "\treturn nil" (and "}",
// with two) numbered three lines after it, as far from that function's
// place as from the next one's.
func tiedHintFixture(n int, two bool) (*worstFixture, error) {
	path := "tied.go"
	var b strings.Builder
	var reply, refs []gen.Edit
	del, add := []string{"\treturn nil"}, []string{"\treturn err"}
	if two {
		del, add = append(del, "}"), append(add, "}")
	}
	returnNilFuncs(&b, "tied", 4*n, func(g, line int) {
		if g%8 != 0 {
			return
		}
		name := fmt.Sprintf("func f%d(x bool) error {", g)
		rename := gen.Edit{Path: path, Line: line, Del: []string{name}, Add: []string{name + " // edit"}}
		reply = append(reply, rename, gen.Edit{Path: path, Line: line + 7, Del: del, Add: add})
		refs = append(refs, rename, gen.Edit{Path: path, Line: line + 4, Del: del, Add: add})
	})
	src := []byte(b.String())
	if _, err := gen.ApplyEdits(src, refs); err != nil {
		return nil, err
	}
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.UnifiedDiff(reply), diff: gen.UnifiedDiff(refs), want: src, refused: n / 2}, nil
}

// counted2Fixture is n blocks on a file of 24n lines of small functions,
// after one whose comment ends in "\treturn nil": n/2 rename a function,
// each followed by a block quoting "\treturn nil\n}\n".
func counted2Fixture(n int) (*worstFixture, error) {
	path := "counted.go"
	var b strings.Builder
	var es []gen.Edit
	var blocks []gen.Block
	b.WriteString("package counted\n\nfunc z() {\n\t// z\treturn nil\n}\n")
	for g := range 4 * n {
		fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", g)
		if g%8 == 0 {
			line := 6 + 6*g
			name := fmt.Sprintf("func f%d(x bool) error {", g)
			es = append(es, gen.Edit{Path: path, Line: line, Del: []string{name}, Add: []string{name + " // edit"}},
				gen.Edit{Path: path, Line: line + 4, Del: []string{"\treturn nil", "}"}, Add: []string{"\treturn err", "}"}})
			blocks = append(blocks, gen.Block{Path: path, Search: name + "\n", Replace: name + " // edit\n"},
				gen.Block{Path: path, Search: "\treturn nil\n}\n", Replace: "\treturn err\n}\n"})
		}
	}
	src := []byte(b.String())
	if _, err := gen.ApplyEdits(src, es); err != nil {
		return nil, err
	}
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.SearchReplace(blocks), diff: gen.UnifiedDiff(es), want: src, refused: len(blocks) / 2}, nil
}

// tallyChainFixture is a file of 40 small functions and one of 4n lines,
// and n+1 blocks: a one-line quote of "\treturn nil", refused with
// every place counted, then a chain of n three-line blocks, each quoting
// the three lines right after those the one before it wrote. The
// references get the chain as a -U0 diff.
func tallyChainFixture(n int) (*worstFixture, error) {
	path := "tallychain.go"
	var b strings.Builder
	returnNilFuncs(&b, "tallychain", 40, func(int, int) {})
	start := strings.Count(b.String(), "\n") + 1
	b.WriteString("func f(y int) int {\n")
	for i := range 4 * n {
		b.WriteString(chainLine(i) + "\n")
	}
	b.WriteString("}\n")
	var es []gen.Edit
	blocks := []gen.Block{{Path: path, Search: "\treturn nil\n", Replace: "\treturn err\n"}}
	for i := range n {
		del, add := chainLink(i)
		es = append(es, gen.Edit{Path: path, Line: start + 1 + 3*i, Del: del, Add: add})
		blocks = append(blocks, linesBlock(path, del, add))
	}
	src := []byte(b.String())
	if _, err := gen.ApplyEdits(src, es); err != nil {
		return nil, err
	}
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.SearchReplace(blocks), diff: gen.UnifiedDiff(es), want: src, refused: 1}, nil
}

func init() {
	worstShapes = append(worstShapes, worstShape{"commonlines-sr", []int{100, 500, 2_500}, zeroContext, commonLinesFixture})
}

// commonLinesFixture is n blocks on a file of 40n lines drawn from six
// lines of code, each standing on a sixth of the file: each block quotes
// eight lines that stand together once, and changes the fifth. Every line
// a block quotes, its longest too, stands at thousands of places.
func commonLinesFixture(n int) (*worstFixture, error) {
	const path, quoted = "common.go", 8
	vocab := []string{"\treturn nil", "}", "\tx++", "\ty--", "\tif x > y {", "\t}"}
	r := rand.New(rand.NewPCG(uint64(n), 35))
	lines := make([]string, 40*n)
	for i := range lines {
		lines[i] = vocab[r.IntN(len(vocab))]
	}
	count := map[string]int{}
	window := func(k int) string { return strings.Join(lines[k:k+quoted], "\n") + "\n" }
	for k := 0; k+quoted <= len(lines); k++ {
		count[window(k)]++
	}
	var es []gen.Edit
	var blocks []gen.Block
	for k := 0; k+quoted <= len(lines) && len(es) < n; k += 12 {
		if count[window(k)] != 1 || k > 0 && count[window(k-1)] == 0 {
			continue
		}
		del := slices.Clone(lines[k : k+quoted])
		add := slices.Clone(del)
		add[4] += fmt.Sprintf(" // edit %d", len(es))
		es = append(es, gen.Edit{Path: path, Line: k + 1, Del: del, Add: add})
		blocks = append(blocks, gen.Block{Path: path, Search: strings.Join(del, "\n") + "\n", Replace: strings.Join(add, "\n") + "\n"})
	}
	if len(es) < n*9/10 {
		return nil, fmt.Errorf("%d unique quotes of %d lines, want %d", len(es), quoted, n)
	}
	return blocksFixture(path, []byte(strings.Join(lines, "\n")+"\n"), es, blocks)
}
