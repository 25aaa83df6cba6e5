package audit

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/growth"

	"github.com/edapply/edapply/edit"
)

// largeTx is a reply of edits one-line edits to a file of lines lines,
// every stride-th line, top to bottom, each growing its line.
func largeTx(lines, edits int) (*Tx, int) {
	stride := lines / edits
	var b, a strings.Builder
	es := make([]edit.Edit, edits)
	steps := make([]Step, edits)
	off, reply := 0, 0
	for i := range lines {
		l := fmt.Sprintf("line %06d\n", i)
		b.WriteString(l)
		if k := i / stride; i%stride == 0 && k < edits {
			nl := fmt.Sprintf("LINE %06d x\n", i)
			a.WriteString(nl)
			es[k] = edit.Edit{Op: edit.Replace, Path: "big.txt", Old: l, New: nl, Count: 1, Format: edit.FormatSearchReplace}
			steps[k] = Step{Index: k, Edit: &es[k], Status: "applied", Strategy: "exact", LineStart: i + 1, LineEnd: i + 1,
				At: "big.txt", Located: true, Splices: []Splice{{off, l, nl}}, Named: named("big.txt")}
			off += len(nl)
			reply += len(l) + len(nl)
			continue
		}
		a.WriteString(l)
		off += len(l)
	}
	tx := modify("big.txt", b.String(), a.String(), steps...)
	return tx, len(b.String()) + reply
}

// TestCheckCost holds the check of many edits to one large file to
// memory linear in the file and the reply: a copy of the file per edit
// would be thousands of times more.
func TestCheckCost(t *testing.T) {
	tx, size := largeTx(40000, 10000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	errs := Check(tx)
	runtime.ReadMemStats(&after)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(40*size) {
		t.Errorf("checking %d edits of a %d-byte file allocated %d bytes, want at most %d", 10000, size, got, 40*size)
	}
}

// BenchmarkCheckLarge is the check of a reply of 50,000 edits to one
// 200,000-line file.
func BenchmarkCheckLarge(b *testing.B) {
	tx, _ := largeTx(200000, 50000)
	b.ReportAllocs()
	for b.Loop() {
		if errs := Check(tx); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkCheckOneEdit is the check of the commonest reply: one edit to
// a 200-line file.
func BenchmarkCheckOneEdit(b *testing.B) {
	tx, _ := largeTx(200, 1)
	b.ReportAllocs()
	for b.Loop() {
		if errs := Check(tx); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// Text that stands as written is compared without reducing its lines:
// the check of a rewrite of a huge file allocates nothing per line there.
func TestStandsLooseEqualAllocatesNothing(t *testing.T) {
	ls := textLines(strings.Repeat("\tx := “quoted” -- value\n", 10000))
	same := append([]string(nil), ls...)
	other := append([]string(nil), ls...)
	other[len(other)-1] = "\tx := \"quoted\" - value"
	if !standsLoose(ls, other, false) || standsLoose(ls, other[:len(other)-1], false) {
		t.Fatal("standsLoose does not tell loosely equal lines from fewer")
	}
	if allocs := testing.AllocsPerRun(3, func() { standsLoose(ls, same, false) }); allocs > 0 {
		t.Errorf("standsLoose of 10,000 equal lines allocates %.0f times, want none", allocs)
	}
}

// driftedTx is largeTx's reply with its texts indented by four spaces
// where the file has a tab, each block of three lines replacing its
// middle one, as the indent rung writes them: in the file's tabs. With
// hunks, the edits are a diff's, their marks saying which lines they keep.
func driftedTx(lines, edits int, hunks bool) *Tx {
	stride := lines / edits
	var b, a strings.Builder
	es := make([]edit.Edit, edits)
	steps := make([]Step, edits)
	off := 0
	src := make([]string, lines)
	for i := range src {
		src[i] = fmt.Sprintf("\tline(%06d) // \"x\"\n", i)
	}
	for i := 0; i < lines; i++ {
		if k := i / stride; i%stride == 1 && k < edits && i+1 < lines {
			nl := fmt.Sprintf("\tLINE(%06d) - x\n", i)
			old := src[i-1] + src[i] + src[i+1]
			written := src[i-1] + nl + src[i+1]
			sp := strings.NewReplacer("\t", "    ")
			es[k] = edit.Edit{Op: edit.Replace, Path: "big.txt", Old: sp.Replace(old), New: sp.Replace(written), Count: 1, Format: edit.FormatSearchReplace}
			if hunks {
				es[k].Format, es[k].Marks = edit.FormatUDiff, " -+ "
			}
			steps[k] = Step{Index: k, Edit: &es[k], Status: "applied", Strategy: "indent", LineStart: i, LineEnd: i + 2,
				At: "big.txt", Located: true, Splices: []Splice{{off - len(src[i-1]), old, written}}, Named: named("big.txt")}
			a.WriteString(nl + src[i+1])
			b.WriteString(src[i] + src[i+1])
			off += len(nl) + len(src[i+1])
			i++
			continue
		}
		a.WriteString(src[i])
		b.WriteString(src[i])
		off += len(src[i])
	}
	return modify("big.txt", b.String(), a.String(), steps...)
}

// TestCheckDriftedCost holds the check of a splice that the indent rung
// wrote to a few allocations: the lines it compares loosely are compared
// as they are read, not reduced to a string each (two a line compared),
// and the texts' lines are cut in room the check keeps from splice to
// splice, not in slices of their own.
func TestCheckDriftedCost(t *testing.T) {
	growth.SkipUnderRace(t)
	const edits = 1000
	for _, hunks := range []bool{false, true} {
		tx := driftedTx(10*edits, edits, hunks)
		if errs := Check(tx); len(errs) > 0 {
			t.Fatal(errs)
		}
		// A hunk's marks pair its lines, which are then not grouped by
		// text: the edit's own lines, counted for the marks, are the ones
		// the check cut.
		want := 3.0
		if hunks {
			want = 2
		}
		allocs := testing.AllocsPerRun(3, func() { Check(tx) })
		if perEdit := allocs / edits; perEdit > want {
			t.Errorf("checking %d drifted edits (hunks: %v) allocated %.0f times, %.1f an edit; want at most %.0f", edits, hunks, allocs, perEdit, want)
		}
	}
}

// BenchmarkCheckDrifted is the check of 5,000 edits to a 50,000-line
// file, each located by the indent rung.
func BenchmarkCheckDrifted(b *testing.B) {
	tx := driftedTx(50000, 5000, false)
	b.ReportAllocs()
	for b.Loop() {
		if errs := Check(tx); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
