package report

import (
	"fmt"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
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
			{Index: 0, Status: apply.StatusApplied, Strategy: apply.StrategyIndent, LineStart: 3, Matched: "  x\r\n", Written: "  y\r\n"},
			{Index: 1, Status: apply.StatusAlreadyApplied, Strategy: apply.StrategyExact, LineStart: 5, Matched: "q\n", Written: "q\n"},
		}},
		{Path: "b", Edits: []apply.EditResult{{Index: 2, Status: apply.StatusFailed}}},
		{Path: "c", Edits: []apply.EditResult{{Index: 3, Status: apply.StatusApplied, Strategy: apply.StrategyDelete}}},
	}}
	got := appliedOf(res, edits)
	want := []parse.Applied{
		{Index: 0, Op: edit.Replace, Path: "a", Old: "  x\r\n", New: "  y\r\n", Line: 3},
		{Index: 1, Op: edit.Replace, Path: "a", Old: "p\n", New: "q\n", Line: 5},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("appliedOf = %+v\nwant %+v", got, want)
	}
}
