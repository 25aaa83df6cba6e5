package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/textcut"
	"github.com/edapply/edapply/report"
)

// A tool result holds the receipt twice, as structured content and as
// text; each stays within textcut.Budget whatever the reply, so the
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
		if len(raw) > textcut.Budget || len(tb) > 2*textcut.Budget {
			t.Errorf("%s: structured content %d bytes, text %d bytes; want each within %d", name, len(raw), len(tb), textcut.Budget)
		}
		if r.Cut == "" || len(r.Files) != 1 {
			t.Errorf("%s: receipt lists %d files and cut %q, want the file and what was cut", name, len(r.Files), r.Cut)
		}
	}
}

// undo with list answers within the budget however many files the
// writes it lists changed: each lists those that fit and counts the rest,
// in the structured content and in the text.
func TestUndoListBounded(t *testing.T) {
	var cps []apply.Checkpoint
	const files = 100_000
	for i := range apply.HistorySize {
		cp := apply.Checkpoint{Journal: fmt.Sprintf("j%d", i), ID: fmt.Sprintf("id%d", i)}
		for k := range files {
			cp.Files = append(cp.Files, &apply.FileResult{Path: fmt.Sprintf("src/pkg%d/file%06d.go", i, k), Op: "modify"})
		}
		cps = append(cps, cp)
	}
	out, err := historyResult(cps)
	if err != nil {
		t.Fatal(err)
	}
	raw := out.StructuredContent.(json.RawMessage)
	text := out.Content[0].(interface{ MarshalJSON() ([]byte, error) })
	tb, _ := text.MarshalJSON()
	if len(raw)+len(tb) > textcut.Budget+8<<10 {
		t.Errorf("structured content %d bytes and text %d bytes; want both within %d", len(raw), len(tb), textcut.Budget)
	}
	var got struct{ History []report.WireCheckpoint }
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.History) != apply.HistorySize || got.History[0].MoreFiles == 0 || len(got.History[0].Files)+got.History[0].MoreFiles != files {
		t.Errorf("history of %d writes, the first with %d files shown and %d more; want %d writes, %d files counted",
			len(got.History), len(got.History[0].Files), got.History[0].MoreFiles, apply.HistorySize, files)
	}
	if !strings.Contains(string(tb), "more files not shown") {
		t.Errorf("text does not say files were left out")
	}
}

// read_file of a file with a 50 MB line shows the line's first
// apply.ReadLineBudget bytes and says the column that reads on, which
// shows the next piece: no answer of 50 MB.
func TestReadFileLongLine(t *testing.T) {
	long := strings.Repeat("x", 50<<20)
	cs, _ := connect(t, map[string]string{"min.js": "a\n" + long + "\nb\n"})
	var out report.ReadOutput
	res := call(t, cs, "read_file", map[string]any{"path": "min.js"}, &out)
	text := resultText(res)
	if res.IsError || len(out.Content) > 2*apply.ReadLineBudget || len(text) > 2*apply.ReadLineBudget {
		t.Fatalf("read_file of a 50 MB line: content %d bytes, text %d bytes; want about %d", len(out.Content), len(text), apply.ReadLineBudget)
	}
	want := struct{ Line, MoreBytes, NextColumn int }{Line: 2, MoreBytes: len(long) - apply.ReadLineBudget, NextColumn: apply.ReadLineBudget + 1}
	if len(out.CutLines) != 1 || out.CutLines[0].Line != want.Line || out.CutLines[0].MoreBytes != want.MoreBytes || out.CutLines[0].NextColumn != want.NextColumn || out.EndLine != 3 {
		t.Errorf("read_file cut lines %+v, end line %d; want %+v and the window going on to line 3", out.CutLines, out.EndLine, want)
	}
	if !strings.Contains(text, fmt.Sprintf("(line 2 goes on for %d more bytes; read on at offset 2, column %d)", want.MoreBytes, want.NextColumn)) {
		t.Errorf("read_file's text does not say how to read on in line 2:\n%.300s", text)
	}
	res = call(t, cs, "read_file", map[string]any{"path": "min.js", "offset": 2, "column": want.NextColumn, "limit": 1}, &out)
	if res.IsError || out.StartColumn != want.NextColumn || len(out.CutLines) != 1 || out.CutLines[0].NextColumn != 2*apply.ReadLineBudget+1 {
		t.Errorf("read_file at column %d: start column %d, cut lines %+v", want.NextColumn, out.StartColumn, out.CutLines)
	}
}
