package locate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestDiskLines: an edit that fails after others were planned names the
// lines of the content the Doc was given (the file on disk, as nothing is
// written), in its candidates and its hint, whether the edits before it
// added lines above it or removed them, one place or several.
func TestDiskLines(t *testing.T) {
	calc := "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
	for _, tc := range []struct {
		name    string
		before  []edit.Edit
		failing edit.Edit
		lines   string // the best candidate's, as "first-last"
		hint    string
	}{
		{"docstring above", []edit.Edit{{Op: edit.Replace, Count: 1, Old: "def add(a, b):\n", New: "def add(a, b):\n    \"\"\"Add.\"\"\"\n"}},
			edit.Edit{Op: edit.Replace, Count: 1, Old: "def sub(a, b):\n    retrun a - b\n", New: "x\n"}, "5-6", "Line 6 differs"},
		{"lines removed above", []edit.Edit{{Op: edit.Replace, Count: 1, Old: "\n\ndef sub(a, b):\n", New: "def sub(a, b):\n"}},
			edit.Edit{Op: edit.Replace, Count: 1, Old: "def mul(a, b):\n    retrun a * b\n", New: "x\n"}, "9-10", "Copy lines 9-10"},
		{"every place changed above", []edit.Edit{{Op: edit.Replace, Count: 0, Format: edit.FormatJSON, Old: "\n\n\n", New: "\n\n\n\n\n"}},
			edit.Edit{Op: edit.Replace, Count: 1, Old: "def mul(a, b):\n    retrun a * b\n", New: "x\n"}, "9-10", "Line 10 differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDoc(calc, Options{})
			for i := range tc.before {
				if _, err := d.Replace(&tc.before[i]); err != nil {
					t.Fatal(err)
				}
			}
			_, err := d.Replace(&tc.failing)
			if err == nil || len(err.Candidates) == 0 {
				t.Fatalf("Replace = %v, want NO_MATCH with candidates", err)
			}
			c := err.Candidates[0]
			if got := lineRange(c.LineStart, c.LineEnd); got != tc.lines || !strings.Contains(err.Hint, tc.hint) {
				t.Errorf("candidate lines %s, hint %q; want %s and %q", got, err.Hint, tc.lines, tc.hint)
			}
		})
	}
}

// TestSegmentDiskLines holds the lines on disk the segment names through
// its splices to those the log of changes gives, walked in full, for
// every line start of the content, after each edit of runs that merge,
// delete and insert next to one another, with edits landed before the
// segment began or not.
func TestSegmentDiskLines(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 35))
	compared := 0
	runs := []func(*rand.Rand) (string, []edit.Edit){
		neighbourRun, chainEquivalenceRun, func(r *rand.Rand) (string, []edit.Edit) { return tallyRun(r, r.IntN(2) == 0) },
	}
	for i := range 600 {
		file, es := runs[i%len(runs)](r)
		d := NewDoc(file, Options{})
		d.Prepare(pointers(es))
		for k := range es {
			d.Replace(&es[k])
			g := d.seg
			if g == nil || len(d.disk.log) == 0 {
				continue
			}
			for c := range g.lineCount() {
				off := g.currentLineStart(c)
				if got, want := d.segmentDiskLine(off), d.mapToDisk(off); got != want {
					t.Fatalf("after edit %d: line %d (offset %d) on disk %d, want %d", k, c, off, got, want)
				}
				compared++
			}
		}
	}
	if compared < 10_000 {
		t.Errorf("%d lines compared: the runs miss the segment", compared)
	}
}
