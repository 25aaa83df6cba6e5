package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/report"
)

// A tool result holds the receipt twice, as structured content and as
// text; each stays within report.ReceiptBudget whatever the reply, so the
// message stays well under the 10 MiB a client takes: for 100,000
// failing edits, and for a dry run and a write of a 12 MiB line, whose
// diff and normalized reply are cut.
func TestToolResultBounded(t *testing.T) {
	failing := &apply.Result{}
	f := &apply.FileResult{Path: "a.go", Op: "modify", BeforeHash: "aaaa", AfterHash: "aaaa"}
	for i := range 100000 {
		f.Edits = append(f.Edits, apply.EditResult{Index: i, Status: edit.StatusFailed})
		failing.Errors = append(failing.Errors, &edit.Error{Code: edit.CodeNoMatch, Path: "a.go", Edit: i,
			Msg: "SEARCH text not found in a.go", Hint: "Copy the lines exactly as they stand in the file.",
			Candidates: []edit.Candidate{{LineStart: 1, LineEnd: 1, Similarity: 0.5, Excerpt: "x\n"}}})
	}
	failing.Files = []*apply.FileResult{f}

	line := strings.Repeat("x", 12<<20) // over the client's 10 MiB alone
	long := func(dry bool) *apply.Result {
		return &apply.Result{OK: true, DryRun: dry, Files: []*apply.FileResult{{Path: "a.txt", Op: "modify",
			BeforeHash: "aaaa", AfterHash: "bbbb", Before: []byte(line + "\n"), After: []byte(line + "y\n"),
			Edits: []apply.EditResult{{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1}}}}}
	}
	s := &server{}
	for name, c := range map[string]struct {
		res        *apply.Result
		normalized string
		withDiff   bool
	}{
		"failures": {res: failing},
		"dryRun":   {res: long(true), normalized: line},
		"write":    {res: long(false), withDiff: true},
	} {
		out, err := s.receipt(c.res, c.normalized, c.withDiff)
		if err != nil {
			t.Fatal(err)
		}
		raw := out.StructuredContent.(json.RawMessage)
		var r report.Receipt
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: structured content is not a receipt: %v", name, err)
		}
		text := out.Content[0].(interface{ MarshalJSON() ([]byte, error) })
		tb, _ := text.MarshalJSON()
		if len(raw) > report.ReceiptBudget || len(tb) > 2*report.ReceiptBudget {
			t.Errorf("%s: structured content %d bytes, text %d bytes; want each within %d", name, len(raw), len(tb), report.ReceiptBudget)
		}
		if r.Cut == "" || len(r.Files) != 1 {
			t.Errorf("%s: receipt lists %d files and cut %q, want the file and what was cut", name, len(r.Files), r.Cut)
		}
	}
}
