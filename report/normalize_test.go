package report

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
	"github.com/edapply/edapply/normalize"
)

// TestAppliedOf checks which results Normalize gets to render.
func TestAppliedOf(t *testing.T) {
	edits := []edit.Edit{
		{Op: edit.Replace, Path: "a", Old: "x\n", New: "y\n", Count: 1},
		{Op: edit.Replace, Path: "a", Old: "p\n", New: "q\n", Count: 1},
		{Op: edit.Create, Path: "b", New: "b\n"},
		{Op: edit.Delete, Path: "c"},
	}
	res := &apply.Result{Files: []*apply.FileResult{
		{Path: "a", Edits: []apply.EditResult{
			{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyIndent, LineStart: 3, Matched: "  x\r\n", Written: "  y\r\n"},
			{Index: 1, Status: edit.StatusAlreadyApplied, Strategy: edit.StrategyExact, LineStart: 5, Matched: "q\n", Written: "q\n"},
		}},
		{Path: "b", Edits: []apply.EditResult{{Index: 2, Status: edit.StatusFailed}}},
		{Path: "c", Edits: []apply.EditResult{{Index: 3, Status: edit.StatusApplied, Strategy: edit.StrategyDelete}}},
	}}
	got := appliedOf(res, edits)
	want := []normalize.Applied{
		{Index: 0, Op: edit.Replace, Path: "a", Old: "  x\r\n", New: "  y\r\n", Line: 3},
		{Index: 1, Op: edit.Replace, Path: "a", Old: "p\n", New: "q\n", Line: 5},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("appliedOf = %+v\nwant %+v", got, want)
	}
}

// TestAppliedOfHoldsNoSlack: the entries for a receipt's normalized text
// take one array of their size, not one grown by append (some five times
// it for many edits, grown by append).
func TestAppliedOfHoldsNoSlack(t *testing.T) {
	growth.SkipUnderRace(t)
	const files, perFile = 50, 200
	var edits []edit.Edit
	res := &apply.Result{}
	for f := range files {
		fr := &apply.FileResult{Path: fmt.Sprintf("f%d.go", f)}
		for range perFile {
			i := len(edits)
			edits = append(edits, edit.Edit{Op: edit.Replace, Path: fr.Path, Old: "x\n", New: "y\n", Count: 1})
			fr.Edits = append(fr.Edits, apply.EditResult{Index: i, Status: edit.StatusApplied, LineStart: 1 + i%perFile, Matched: "x\n", Written: "y\n"})
		}
		res.Files = append(res.Files, fr)
	}
	var as []normalize.Applied
	_, bytes := growth.Allocs(func() { as = appliedOf(res, edits) })
	if len(as) != len(edits) {
		t.Fatalf("appliedOf: %d entries, want %d", len(as), len(edits))
	}
	need := uint64(len(edits)) * uint64(unsafe.Sizeof(normalize.Applied{}))
	t.Logf("%d entries of %d bytes: appliedOf allocated %d", len(as), unsafe.Sizeof(normalize.Applied{}), bytes)
	if float64(bytes) > 1.05*float64(need) {
		t.Errorf("appliedOf allocated %d bytes for %d bytes of entries", bytes, need)
	}
}
