package locate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// withWindows runs fn with every quote of two whole lines or more found
// by its window once its walk reads one place.
func withWindows(fn func()) {
	old, first := walkPlaces, walkFirst
	walkPlaces, walkFirst = 0, 0
	defer func() { walkPlaces, walkFirst = old, first }()
	fn()
}

// TestBatchWindowsEquivalence: a Doc that finds quotes by their windows
// answers as the ladder alone, on the batch's random runs and its chains,
// neighbours, tolerant and ambiguous cases, and as one whose indexes are
// made afresh.
func TestBatchWindowsEquivalence(t *testing.T) {
	withWindows(func() {
		TestBatchEquivalence(t)
		TestBatchLarge(t)
		TestBatchEndings(t)
		TestBatchChainEquivalence(t)
		TestBatchNeighbourEquivalence(t)
		TestBatchTolerantEquivalence(t)
		TestBatchAmbiguousCases(t)
		TestCarriedAnswers(t)
	})
}

// FuzzBatchWindows is FuzzBatchEquivalence with every quote found by its
// window.
func FuzzBatchWindows(f *testing.F) {
	f.Add([]byte{32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43}, []byte{0, 0, 2, 0, 0, 4, 0, 5, 2, 0, 1, 4, 0, 9, 2, 0, 0, 4}, byte(0))
	f.Add([]byte{0, 1, 2, 32, 33, 0, 1, 2, 34}, []byte{1, 3, 2, 12, 0, 4, 3, 0, 1, 1, 0, 4}, byte(1))
	f.Fuzz(func(t *testing.T, data, prog []byte, flags byte) {
		if len(data) > 200 || len(prog) > 6*24 {
			return
		}
		withWindows(func() {
			files := batchFiles(data, flags)
			checkBatch(t, files, batchEdits(files, prog), batchOpts(flags))
		})
	})
}

// commonLines is a file of n lines drawn from six lines of code, and the
// quotes of eight lines of it that stand together once, twelve lines
// apart at least, in file order, each changing its fifth line.
func commonLines(n int, eol string) (string, []*edit.Edit) {
	// No line ends as another does: a quote stands only at a line start.
	vocab := []string{"\treturn nil", "};", "\tx++", "\ty--", "\tif x > y {", "\t} // y"}
	r := rand.New(rand.NewPCG(uint64(n), 36))
	lines := make([]string, n)
	for i := range lines {
		lines[i] = vocab[r.IntN(len(vocab))]
	}
	window := func(k int) string { return strings.Join(lines[k:k+8], eol) + eol }
	count := map[string]int{}
	for k := 0; k+8 <= n; k++ {
		count[window(k)]++
	}
	var es []*edit.Edit
	for k := 0; k+8 <= n; k += 12 {
		if count[window(k)] == 1 {
			nw := slicesClone(lines[k : k+8])
			nw[4] += fmt.Sprintf(" // %d", len(es))
			es = append(es, &edit.Edit{Op: edit.Replace, Count: 1, Old: window(k), New: strings.Join(nw, eol) + eol})
		}
	}
	return strings.Join(lines, eol) + eol, es
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// TestWindowPlaceVisits: quotes made only of common lines, each standing
// together once, are found by their windows: the places looked at stay
// within walkFirst and a few an edit, whatever the file's size, where
// walking their key line's places looked at a sixth of the file each;
// and the Doc answers as the ladder does.
func TestWindowPlaceVisits(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		for _, n := range []int{2000, 16000} {
			content, es := commonLines(n, eol)
			d := NewDoc(content, Options{})
			d.Prepare(es)
			for i, e := range es {
				if r, err := d.Replace(e); err != nil || r.Status != edit.StatusApplied {
					t.Fatalf("%d lines, edit %d: %v", n, i, err)
				}
			}
			if d.windowed < len(es)*9/10 {
				t.Errorf("%d lines: %d of %d edits found by their windows", n, d.windowed, len(es))
			}
			if bound := (walkFirst + 4) * len(es); d.visits > bound {
				t.Errorf("%d lines, %d edits: %d places looked at, more than %d", n, len(es), d.visits, bound)
			}
			var edits []edit.Edit
			for _, e := range es {
				edits = append(edits, *e)
			}
			for k := range edits {
				edits[k].Path = "a.txt"
			}
			if n == 2000 {
				checkBatch(t, map[string]string{"a.txt": content}, edits, Options{})
			}
		}
	}
}

// TestZoneWindowReads: once quotes are found by their windows, placing
// a splice reads only the lines about the ones it wrote, whatever it
// wrote: a block whose new text has 20,000 lines reads a few windows'
// worth.
func TestZoneWindowReads(t *testing.T) {
	content, es := commonLines(2000, "\n")
	es = es[:3]
	long := strings.Repeat("\tx++\n", 20000)
	es = append(es, &edit.Edit{Op: edit.Replace, Count: 1, Old: "", New: ""})
	last := es[2]
	es[3] = &edit.Edit{Op: edit.Replace, Count: 1, Old: last.New, New: long + last.New}
	d := NewDoc(content, Options{})
	d.Prepare(append(es, es[0]))
	for i, e := range es {
		if r, err := d.Replace(e); err != nil || r.Status != edit.StatusApplied {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	if d.seg == nil || d.seg.wins == nil {
		t.Fatal("no windows made")
	}
	if n := d.seg.windowReads; n > 4*maxWindow*len(d.seg.wins.want) {
		t.Errorf("placing 20,000 lines read %d lines for the windows over them", n)
	}
}

// TestWindowBuildReads: the window index made after hundreds of splices
// reads no line about them (one pass hashes the current content's
// lines), however many window lengths the run's quotes have: what it
// reads is the upkeep of the splices placed since, a few windows' worth
// each.
func TestWindowBuildReads(t *testing.T) {
	common, es := commonLines(2000, "\n")
	// Quotes of three lengths: eight lines, and seven and six of them.
	for i, e := range es {
		if cut := i % 3; cut > 0 {
			old, nw := strings.SplitAfter(e.Old, "\n"), strings.SplitAfter(e.New, "\n")
			e.Old, e.New = strings.Join(old[:9-cut-1], ""), strings.Join(nw[:9-cut-1], "")
		}
	}
	const unique = 400
	var b strings.Builder
	var first []*edit.Edit
	for k := range unique {
		fmt.Fprintf(&b, "u%d := %d\nv%d := %d\n", k, k, k, k)
		first = append(first, &edit.Edit{Op: edit.Replace, Count: 1,
			Old: fmt.Sprintf("u%d := %d\nv%d := %d\n", k, k, k, k), New: fmt.Sprintf("u%d := %d\nv%d := -%d\n", k, k, k, k)})
	}
	content := b.String() + common
	run := append(first, es...)
	d := NewDoc(content, Options{})
	d.Prepare(run)
	for i, e := range run {
		if r, err := d.Replace(e); err != nil || r.Status != edit.StatusApplied {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	if d.seg == nil || d.seg.wins == nil || len(d.seg.wins.want) < 3 {
		t.Fatal("no windows of three lengths made")
	}
	if d.windowed < len(es)*9/10 {
		t.Errorf("%d of %d edits found by their windows", d.windowed, len(es))
	}
	if bound := 2 * (8 - 1) * len(es); d.seg.windowReads > bound {
		t.Errorf("%d lines read for windows, more than %d for the %d splices placed after the index was made", d.seg.windowReads, bound, len(es))
	}
}
