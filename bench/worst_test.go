package bench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/gen"
)

// The ladder's worst shapes (issue 35), each at three sizes a factor of
// four or five apart, run by edapply in process and by GNU patch and git
// apply on the same change as a diff, in one run, so their ratios and
// growth exponents can be read off one table (docs/performance.md).
//
//   - drift: SEARCH/REPLACE blocks (and the same change as a diff) whose
//     every tab of indentation the model wrote as four spaces, on a file
//     of ten lines per edit: the indent rung places each one.
//   - oneline: one-line blocks, one per hundred lines of the file.
//   - zerocontext: a git diff -U0 of one-line hunks on a file whose lines
//     are mostly "}" and "return nil": the line hint picks among the
//     hundreds of places each hunk's line stands.
//   - hintwritten: zerocontext's hunks, each writing a line before the
//     "return nil" it quotes and keeping that one: each hunk's line
//     stands on the lines the ones before it wrote too.
//   - addlines: a git diff -U0 of hunks that only add a line, placed by
//     their line numbers alone.
//   - insert: blocks that quote a line and add one after it, whose new
//     text holds the old; the references get a -U0 diff of added lines.
//   - crossing: pairs of blocks, the second quoting the line the first
//     wrote and the line after it; the references get each pair as one
//     -U0 hunk.
//   - chain: blocks of three lines, each quoting the three lines right
//     after those the one before it wrote, so that each lands next to
//     the splice the ones before it made; the references get each block
//     as a -U0 hunk.
//   - chain-rev: the chain's blocks in reverse order, each quoting the
//     three lines right before those the one before it wrote (a file
//     edited bottom-up); the references get the same -U0 diff.
//   - ambiguous: blocks that change a line that stands once, each
//     followed by one that quotes a line standing twice (the file holds
//     a stretch of its code twice), refused with MULTIPLE_MATCHES; the
//     references get a -U0 diff of every change, the second at its first
//     place.
//   - manyplaces: blocks that rename a function, each followed by one
//     that quotes "\treturn nil" alone, which stands at the end of every
//     function and inside the indentation of a deeper line, refused with
//     MULTIPLE_MATCHES; the references get a -U0 diff of every change,
//     the second at the function's own line.
//   - writtenplaces-rev: manyplaces' pairs bottom-up, where each first
//     block writes a function holding "\treturn nil" before the one it
//     quotes: the lines written stand out of the order they came in.
type worstShape struct {
	name  string
	sizes []int // edits
	refs  []worstRef
	build func(n int) (*worstFixture, error)
}

// A worstFixture is one file, the reply edapply is sent, the diff the
// reference tools are given, and the file edapply must leave.
type worstFixture struct {
	file  gen.File
	reply []byte
	diff  []byte
	want  []byte
	// refused, when not zero, is how many of the reply's edits edapply
	// must refuse with MULTIPLE_MATCHES, writing nothing.
	refused int
	// edits, when not zero, is how many edits the reply holds, where
	// that is not the shape's size.
	edits int
}

type worstRef struct {
	name string
	argv []string // the diff file is appended
}

// The reference tools, each with the flags that make it accept the shape.
var (
	ignoringBlanks = []worstRef{{"patch", []string{"patch", "-p1", "-s", "-l", "-i"}}, {"gitapply", []string{"git", "apply", "--ignore-whitespace"}}}
	zeroContext    = []worstRef{{"patch", []string{"patch", "-p1", "-s", "-i"}}, {"gitapply", []string{"git", "apply", "--unidiff-zero"}}}
)

var worstShapes = []worstShape{
	{"drift-sr", []int{200, 1_000, 5_000}, ignoringBlanks, func(n int) (*worstFixture, error) { return driftFixture(n, false, true) }},
	{"drift-udiff", []int{200, 1_000, 5_000}, ignoringBlanks, func(n int) (*worstFixture, error) { return driftFixture(n, true, true) }},
	{"oneline-sr", []int{100, 500, 2_500}, zeroContext, onelineFixture},
	{"zerocontext-udiff", []int{100, 500, 2_500}, zeroContext, zeroContextFixture},
	{"hintwritten-udiff", []int{100, 500, 2_500}, zeroContext, hintWrittenFixture},
	{"addlines-udiff", []int{100, 500, 2_500}, zeroContext, addLinesFixture},
	{"insert-sr", []int{100, 500, 2_500}, zeroContext, insertFixture},
	{"crossing-sr", []int{100, 500, 2_500}, zeroContext, crossingFixture},
	{"chain-sr", []int{250, 1_000, 4_000}, zeroContext, func(n int) (*worstFixture, error) { return chainFixture(n, false) }},
	{"chain-rev-sr", []int{250, 1_000, 4_000}, zeroContext, func(n int) (*worstFixture, error) { return chainFixture(n, true) }},
	{"ambiguous-sr", []int{100, 500, 2_500}, zeroContext, ambiguousFixture},
	{"manyplaces-sr", []int{100, 500, 2_500}, zeroContext, manyPlacesFixture},
	{"writtenplaces-rev-sr", []int{100, 500, 2_500}, zeroContext, writtenPlacesFixture},
}

var worstFixtures sync.Map // name/n → func() (*worstFixture, error)

func loadWorst(b *testing.B, s worstShape, n int) *worstFixture {
	b.Helper()
	f, _ := worstFixtures.LoadOrStore(fmt.Sprint(s.name, "/", n), sync.OnceValues(func() (*worstFixture, error) { return s.build(n) }))
	fx, err := f.(func() (*worstFixture, error))()
	if err != nil {
		b.Fatal(err)
	}
	return fx
}

// spaced is l with each tab of its indentation written as four spaces.
func spaced(l string) string {
	body := strings.TrimLeft(l, "\t")
	return strings.Repeat("    ", len(l)-len(body)) + body
}

func spacedLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = spaced(l)
	}
	return out
}

// driftFixture is n edits to a file of 10n lines, their indentation
// written with spaces where the file has tabs (unless drift is false), as
// blocks or as a diff.
func driftFixture(n int, diff, drift bool) (*worstFixture, error) {
	path := "drift.go"
	src := gen.Source(uint64(35_000+n), "drift", 10*n)
	es, err := gen.Sites(path, src, n, uint64(n))
	if err != nil {
		return nil, err
	}
	want, err := gen.ApplyEdits(src, es)
	if err != nil {
		return nil, err
	}
	drifted := make([]gen.Edit, len(es))
	blocks := make([]gen.Block, len(es))
	for i, e := range es {
		if drift {
			e.Before, e.Del, e.Add, e.After = spacedLines(e.Before), spacedLines(e.Del), spacedLines(e.Add), spacedLines(e.After)
		}
		drifted[i] = e
		blocks[i] = e.Block()
	}
	fx := &worstFixture{file: gen.File{Path: path, Src: src}, diff: gen.UnifiedDiff(drifted), want: want}
	fx.reply = gen.SearchReplace(blocks)
	if diff {
		fx.reply = fx.diff
	}
	return fx, nil
}

// onelineFixture is n one-line blocks, each replacing a line that stands
// once, on a file of 100n lines; the references get them as a -U0 diff.
func onelineFixture(n int) (*worstFixture, error) {
	src, es, blocks, err := oneLineEdits("oneline", uint64(36_000+n), n, 100*n)
	if err != nil {
		return nil, err
	}
	return blocksFixture("oneline.go", src, es, blocks)
}

// oneLineEdits is a file name+".go" of lines generated lines (seeded by
// seed) and n edits, each marking a line that stands once, in file
// order: as diff edits and as one-line blocks.
func oneLineEdits(name string, seed uint64, n, lines int) ([]byte, []gen.Edit, []gen.Block, error) {
	path := name + ".go"
	src := gen.Source(seed, name, lines)
	ls, at, err := uniqueLines(src, n, name)
	if err != nil {
		return nil, nil, nil, err
	}
	var es []gen.Edit
	var blocks []gen.Block
	for i, k := range at {
		old := strings.TrimSuffix(ls[k], "\n")
		nw := old + fmt.Sprintf(" // edit %d", i)
		es = append(es, gen.Edit{Path: path, Line: k + 1, Del: []string{old}, Add: []string{nw}})
		blocks = append(blocks, gen.Block{Path: path, Search: old + "\n", Replace: nw + "\n"})
	}
	return src, es, blocks, nil
}

// zeroContextFixture is a -U0 diff of n one-line hunks on a file of 40n
// lines of small functions, each hunk turning one "return nil" into a
// "return err": the line stands once every six lines.
func zeroContextFixture(n int) (*worstFixture, error) {
	return returnNilFixture(n, func(g int) []string { return []string{fmt.Sprintf("\treturn errF%d", g)} })
}

// hintWrittenFixture is zeroContextFixture's file and hunks, each of
// which writes a line before the "\treturn nil" it quotes and keeps
// that: each hunk's line stands on the lines the hunks before it wrote
// too, and its hint tells them apart.
func hintWrittenFixture(n int) (*worstFixture, error) {
	return returnNilFixture(n, func(g int) []string { return []string{fmt.Sprintf("\tlog.Print(%d)", g), "\treturn nil"} })
}

// returnNilFixture is a -U0 diff of n hunks, each replacing the last
// line of one of 40n/6 six-line functions, "\treturn nil", with
// add(the function's number).
func returnNilFixture(n int, add func(g int) []string) (*worstFixture, error) {
	path := "zero.go"
	var b strings.Builder
	b.WriteString("package zero\n\n")
	line := 2
	var es []gen.Edit
	groups := 40 * n / 6
	for g := 0; g < groups; g++ {
		fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", g)
		if g%(groups/n) == 0 && len(es) < n {
			es = append(es, gen.Edit{Path: path, Line: line + 5, Del: []string{"\treturn nil"}, Add: add(g)})
		}
		line += 6
	}
	src := []byte(b.String())
	want, err := gen.ApplyEdits(src, es)
	if err != nil {
		return nil, err
	}
	d := gen.UnifiedDiff(es)
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: d, diff: d, want: want}, nil
}

// BenchmarkWorst runs each worst shape at each size through edapply (in
// process) and the reference tools (their processes) side by side.
// cpu-ns/op is comparable across tools; across sizes it gives the growth
// exponent, log(t2/t1)/log(n2/n1), 1 for linear work.
func BenchmarkWorst(b *testing.B) { benchShapes(b, worstShapes) }

// benchShapes runs shapes as BenchmarkWorst does.
func benchShapes(b *testing.B, shapes []worstShape) {
	for _, s := range shapes {
		for _, n := range s.sizes {
			b.Run(fmt.Sprintf("%s/edapply-%d", s.name, n), func(b *testing.B) {
				fx := loadWorst(b, s, n)
				t := newTree(b, []gen.File{fx.file})
				want := []gen.File{{Path: fx.file.Path, Src: fx.want}}
				if fx.refused > 0 {
					benchTree(b, t, nil, len(fx.reply)+2*len(fx.file.Src), &meter{}, func() error {
						return refusedAmbiguous(fx.reply, t, fx.refused)
					})
					return
				}
				benchTree(b, t, want, len(fx.reply)+2*len(fx.file.Src), &meter{}, func() error {
					edits := n
					if fx.edits > 0 {
						edits = fx.edits
					}
					return applyOK(fx.reply, t, edits)
				})
			})
			for _, ref := range s.refs {
				b.Run(fmt.Sprintf("%s/%s-%d", s.name, ref.name, n), func(b *testing.B) {
					if _, err := exec.LookPath(ref.argv[0]); err != nil {
						b.Skipf("%s not installed", ref.argv[0])
					}
					fx := loadWorst(b, s, n)
					t := newTree(b, []gen.File{fx.file})
					df := filepath.Join(b.TempDir(), "edits.diff")
					if err := os.WriteFile(df, fx.diff, 0o666); err != nil {
						b.Fatal(err)
					}
					var m meter
					benchTree(b, t, nil, len(fx.diff)+2*len(fx.file.Src), &m, func() error {
						cmd := exec.Command(ref.argv[0], append(ref.argv[1:], df)...)
						cmd.Dir = t.root
						cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(t.root))
						return m.exec(cmd)
					})
				})
			}
		}
	}
}

// addLinesFixture is a -U0 diff of n hunks that each add one line, on a
// file of 40n lines.
func addLinesFixture(n int) (*worstFixture, error) {
	path := "add.go"
	src := gen.Source(uint64(37_000+n), "add", 40*n)
	var es []gen.Edit
	for i := 0; i < n; i++ {
		es = append(es, gen.Edit{Path: path, Line: 40*i + 3, Add: []string{fmt.Sprintf("\tlog.Print(%d)", i)}})
	}
	want, err := gen.ApplyEdits(src, es)
	if err != nil {
		return nil, err
	}
	d := gen.UnifiedDiff(es)
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: d, diff: d, want: want}, nil
}

// insertFixture is n blocks that each quote a line that stands once and
// add a line after it, on a file of 100n lines; the references get the
// added lines as a -U0 diff.
func insertFixture(n int) (*worstFixture, error) {
	path := "insert.go"
	src := gen.Source(uint64(38_000+n), "insert", 100*n)
	lines, at, err := uniqueLines(src, n, "insert")
	if err != nil {
		return nil, err
	}
	var es []gen.Edit
	var blocks []gen.Block
	for i, k := range at {
		added := fmt.Sprintf("\tlog.Print(%d)", i)
		es = append(es, gen.Edit{Path: path, Line: k + 2, Add: []string{added}})
		blocks = append(blocks, gen.Block{Path: path, Search: lines[k], Replace: lines[k] + added + "\n"})
	}
	return blocksFixture(path, src, es, blocks)
}

// uniqueLines splits src into lines and picks, in each of n equal
// segments, the first non-blank line that stands once in src: the lines
// a fixture's edits quote.
func uniqueLines(src []byte, n int, fixture string) (lines []string, at []int, err error) {
	lines = strings.SplitAfter(string(src), "\n")
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	seg := len(lines) / n
	for i := 0; i < n; i++ {
		k := i * seg
		for k < (i+1)*seg && (count[lines[k]] != 1 || strings.TrimSpace(lines[k]) == "" || !strings.HasSuffix(lines[k], "\n")) {
			k++
		}
		if k == (i+1)*seg {
			return nil, nil, fmt.Errorf("%s: no unique line in lines %d-%d", fixture, i*seg+1, (i+1)*seg)
		}
		at = append(at, k)
	}
	return lines, at, nil
}

// refusedAmbiguous runs the pipeline on resp and demands exactly refused
// edits refused with MULTIPLE_MATCHES, and nothing written.
func refusedAmbiguous(resp []byte, t *tree, refused int) error {
	res, err := edapply(resp, t.root, t.state)
	if !errors.Is(err, &edit.Error{Code: edit.CodeMultipleMatches}) || res == nil || res.OK || len(res.Errors) != refused {
		n := -1
		if res != nil {
			n = len(res.Errors)
		}
		return fmt.Errorf("want %d MULTIPLE_MATCHES, got %d errors: %v", refused, n, err)
	}
	for _, e := range res.Errors {
		if e.Code != edit.CodeMultipleMatches {
			return fmt.Errorf("edit %d: %s, want MULTIPLE_MATCHES", e.Edit, e.Code)
		}
	}
	return nil
}

// crossingFixture is n blocks, in pairs, on a file of 50n lines: the
// first changes a line that stands once, the second quotes the line it
// wrote and the line after it, and changes that one.
func crossingFixture(n int) (*worstFixture, error) {
	path := "crossing.go"
	src := gen.Source(uint64(39_000+n), "crossing", 50*n)
	lines, at, err := uniqueLines(src, n/2, "crossing")
	if err != nil {
		return nil, err
	}
	var es []gen.Edit
	var blocks []gen.Block
	for i, k := range at {
		old, next := strings.TrimSuffix(lines[k], "\n"), strings.TrimSuffix(lines[k+1], "\n")
		nw, nextNew := old+fmt.Sprintf(" // edit %d", i), next+fmt.Sprintf(" // and %d", i)
		es = append(es, gen.Edit{Path: path, Line: k + 1, Del: []string{old, next}, Add: []string{nw, nextNew}})
		blocks = append(blocks, gen.Block{Path: path, Search: old + "\n", Replace: nw + "\n"},
			gen.Block{Path: path, Search: nw + "\n" + next + "\n", Replace: nw + "\n" + nextNew + "\n"})
	}
	return blocksFixture(path, src, es, blocks)
}

// ambiguousFixture is n blocks on a file of 75n lines whose last two
// thirds are one stretch of code twice: each change of a line of the
// first third that stands once is followed by a block that quotes a line
// of the stretch that stands once in it, and so twice in the file.
func ambiguousFixture(n int) (*worstFixture, error) {
	path := "ambiguous.go"
	lines := func(src []byte) []string { return strings.SplitAfter(strings.TrimSuffix(string(src), "\n"), "\n") }
	head, twice := lines(gen.Source(uint64(40_000+n), "ambiguous", 25*n)), lines(gen.Source(uint64(41_000+n), "twice", 25*n))
	head[len(head)-1] += "\n"
	twice[len(twice)-1] += "\n"
	all := append(append(append([]string(nil), head...), twice...), twice...)
	count := map[string]int{}
	for _, l := range all {
		count[l]++
	}
	// The first line of each of n/2 stretches of ls that stands times in
	// the file.
	pick := func(ls []string, times int) ([]int, error) {
		var at []int
		seg := len(ls) / (n / 2)
		for i := range n / 2 {
			k := i * seg
			for k < (i+1)*seg && (count[ls[k]] != times || strings.TrimSpace(ls[k]) == "" || !strings.HasSuffix(ls[k], "\n")) {
				k++
			}
			if k == (i+1)*seg {
				return nil, fmt.Errorf("ambiguous: no line that stands %d times in lines %d-%d", times, i*seg+1, (i+1)*seg)
			}
			at = append(at, k)
		}
		return at, nil
	}
	once, err := pick(head, 1)
	if err != nil {
		return nil, err
	}
	double, err := pick(twice, 2)
	if err != nil {
		return nil, err
	}
	var es []gen.Edit
	var blocks []gen.Block
	for i := range n / 2 {
		a, b := strings.TrimSuffix(head[once[i]], "\n"), strings.TrimSuffix(twice[double[i]], "\n")
		es = append(es, gen.Edit{Path: path, Line: once[i] + 1, Del: []string{a}, Add: []string{a + " // edit"}})
		blocks = append(blocks, gen.Block{Path: path, Search: a + "\n", Replace: a + " // edit\n"},
			gen.Block{Path: path, Search: b + "\n", Replace: b + " // which?\n"})
	}
	for i := range n / 2 {
		b := strings.TrimSuffix(twice[double[i]], "\n")
		es = append(es, gen.Edit{Path: path, Line: len(head) + double[i] + 1, Del: []string{b}, Add: []string{b + " // which?"}})
	}
	src := []byte(strings.Join(all, ""))
	if _, err := gen.ApplyEdits(src, es); err != nil {
		return nil, err
	}
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.SearchReplace(blocks), diff: gen.UnifiedDiff(es), want: src, refused: n / 2}, nil
}

// manyPlacesFixture is n blocks on a file of 24n lines of small
// functions: n/2 rename one, each followed by a one-line quote of
// "\treturn nil", which stands in every function.
func manyPlacesFixture(n int) (*worstFixture, error) {
	return refusedPlacesFixture(n, func(name string, g int) []string { return []string{name + " // edit"} }, false)
}

// writtenPlacesFixture is manyPlacesFixture's pairs sent bottom-up,
// where each first block writes a function of its own, which holds
// "\treturn nil", before the one it quotes: the lines the blocks write
// stand in the reverse of the order they came in.
func writtenPlacesFixture(n int) (*worstFixture, error) {
	return refusedPlacesFixture(n, func(name string, g int) []string {
		return []string{fmt.Sprintf("func g%d() error {", g), "\treturn nil", "}", "", name}
	}, true)
}

// refusedPlacesFixture is 4n functions that each end in "\treturn nil"
// and, for every eighth, a block that replaces its first line with
// change(that line, the function's number), followed by a block that
// quotes "\treturn nil" alone, which edapply refuses; with reversed the
// pairs come bottom-up. The references get a -U0 diff of every change,
// the second at the function's own line.
func refusedPlacesFixture(n int, change func(name string, g int) []string, reversed bool) (*worstFixture, error) {
	path := "many.go"
	var b strings.Builder
	b.WriteString("package many\n\n")
	var es []gen.Edit
	var pairs [][]gen.Block
	for g := range 4 * n {
		fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", g)
		if g%8 == 0 {
			line := 3 + 6*g
			name := fmt.Sprintf("func f%d(x bool) error {", g)
			add := change(name, g)
			es = append(es, gen.Edit{Path: path, Line: line, Del: []string{name}, Add: add},
				gen.Edit{Path: path, Line: line + 4, Del: []string{"\treturn nil"}, Add: []string{"\treturn err"}})
			pairs = append(pairs, []gen.Block{{Path: path, Search: name + "\n", Replace: strings.Join(add, "\n") + "\n"},
				{Path: path, Search: "\treturn nil\n", Replace: "\treturn err\n"}})
		}
	}
	if reversed {
		slices.Reverse(pairs)
	}
	src := []byte(b.String())
	if _, err := gen.ApplyEdits(src, es); err != nil {
		return nil, err
	}
	blocks := slices.Concat(pairs...)
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.SearchReplace(blocks), diff: gen.UnifiedDiff(es), want: src, refused: len(blocks) / 2}, nil
}

// chainFixture is n blocks on a file of 4n+4 lines of one function, each
// block changing the next three lines of the chain the blocks before it
// changed: every block quotes the lines right after the last one wrote,
// or, reversed, right before them (the blocks from the chain's end up).
func chainFixture(n int, reversed bool) (*worstFixture, error) {
	path := "chain.go"
	var es []gen.Edit
	var blocks []gen.Block
	for i := range n {
		del, add := chainLink(i)
		es = append(es, gen.Edit{Path: path, Line: 4 + 3*i, Del: del, Add: add})
		blocks = append(blocks, linesBlock(path, del, add))
	}
	if reversed {
		slices.Reverse(blocks)
	}
	return blocksFixture(path, chainSource(n), es, blocks)
}

// chainLine is the chain's line i: a statement that stands once.
func chainLine(i int) string { return fmt.Sprintf("\tx%d := compute(%d, y)", i, 7*i) }

// chainSource is chainFixture's file: one function of 4n chain lines,
// the first on line 4.
func chainSource(n int) []byte {
	var b strings.Builder
	b.WriteString("package chain\n\nfunc f(y int) int {\n")
	for i := range 4 * n {
		b.WriteString(chainLine(i) + "\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// chainLink is the i-th link of a chain: the three chain lines from 3i
// on, and the same lines marked.
func chainLink(i int) (del, add []string) {
	for k := 3 * i; k < 3*i+3; k++ {
		del = append(del, chainLine(k))
		add = append(add, chainLine(k)+" // chained")
	}
	return del, add
}

// linesBlock is the block of path replacing the lines del by add.
func linesBlock(path string, del, add []string) gen.Block {
	return gen.Block{Path: path, Search: strings.Join(del, "\n") + "\n", Replace: strings.Join(add, "\n") + "\n"}
}

// blocksFixture is the fixture of blocks sent to path, holding src, with
// es as the references' diff and the file they leave.
func blocksFixture(path string, src []byte, es []gen.Edit, blocks []gen.Block) (*worstFixture, error) {
	want, err := gen.ApplyEdits(src, es)
	if err != nil {
		return nil, err
	}
	return &worstFixture{file: gen.File{Path: path, Src: src}, reply: gen.SearchReplace(blocks), diff: gen.UnifiedDiff(es), want: want}, nil
}
