package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

// failures is the Result of a reply of n edits to one file, every one of
// which matched nowhere, each error quoting a candidate.
func failures(n int) *apply.Result {
	res := &apply.Result{}
	f := &apply.FileResult{Path: "a.go", Op: "modify", BeforeHash: "aaaa", AfterHash: "aaaa"}
	for i := range n {
		f.Edits = append(f.Edits, apply.EditResult{Index: i, Status: edit.StatusFailed})
		res.Errors = append(res.Errors, &edit.Error{Code: edit.CodeNoMatch, Path: "a.go", Edit: i,
			Msg:        "SEARCH text not found in a.go",
			Candidates: []edit.Candidate{{LineStart: i + 1, LineEnd: i + 1, Similarity: 0.5, Excerpt: "\treturn nil\n"}},
			Hint:       "Copy the lines exactly as they stand in the file at line 1."})
	}
	res.Files = []*apply.FileResult{f}
	return res
}

// receiptOf writes r as WriteJSON does and decodes it back.
func receiptOf(t *testing.T, r Receipt) (map[string]any, int) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("receipt of %d bytes is not JSON: %v", buf.Len(), err)
	}
	if _, ok := got["files"].([]any); !ok {
		t.Fatalf("receipt has no files array")
	}
	if _, ok := got["errors"].([]any); !ok {
		t.Fatalf("receipt has no errors array")
	}
	return got, buf.Len()
}

// A reply of 100,000 failing edits gets a receipt within the budget, as
// JSON and as text, that lists the first errors whole and says how many
// it left out.
func TestReceiptOfManyFailures(t *testing.T) {
	const n = 100000
	res := failures(n)
	got, size := receiptOf(t, NewReceipt(res))
	if size > receiptBudget {
		t.Errorf("JSON receipt of %d failures is %d bytes, want at most %d", n, size, receiptBudget)
	}
	errs := got["errors"].([]any)
	cut, _ := got["cut"].(string)
	if len(errs) == 0 || len(errs) == n || !strings.Contains(cut, plural(n-len(errs), "more error")) {
		t.Errorf("JSON receipt lists %d of %d errors, cut %q; want the first that fit and the count of the rest", len(errs), n, cut)
	}
	if first := errs[0].(map[string]any); first["edit"] != 0.0 || first["hint"] == "" {
		t.Errorf("first error = %v, want edit 0 whole", first)
	}

	var text bytes.Buffer
	if err := Human(&text, res, false); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if text.Len() > receiptBudget {
		t.Errorf("text receipt of %d failures is %d bytes, want at most %d", n, text.Len(), receiptBudget)
	}
	if !strings.Contains(out, "more edits in 1 file not shown") || !strings.Contains(out, "more errors not shown") ||
		!strings.Contains(out, "✗ NO_MATCH a.go, edit 0:") || !strings.HasSuffix(out, "100000 errors; nothing written\n") {
		t.Errorf("text receipt does not list the first error, count the rest and end with the summary:\n%s…%s", out[:200], out[len(out)-300:])
	}

	// Small receipts are left whole.
	if got, _ := receiptOf(t, NewReceipt(failures(3))); got["cut"] != nil || len(got["errors"].([]any)) != 3 {
		t.Errorf("receipt of 3 failures was cut: %v", got)
	}
}

// A 50 MB line, in a dry run's diff, in normalized and in an error's
// excerpt, gets a receipt within the budget that keeps the files and
// errors and marks each cut.
func TestReceiptOfLongLine(t *testing.T) {
	line := strings.Repeat("x", 50<<20)
	before, after := []byte(line+"\n"), []byte(line+"y\n")
	dry := &apply.Result{OK: true, DryRun: true, Files: []*apply.FileResult{{Path: "a.txt", Op: "modify",
		BeforeHash: "aaaa", AfterHash: "bbbb", Before: before, After: after,
		Edits: []apply.EditResult{{Index: 0, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1}}}}}
	r := NewReceipt(dry)
	r.Normalized = "a.txt\n<<<<<<< SEARCH\n" + line + "\n=======\n" + line + "y\n>>>>>>> REPLACE\n"
	got, size := receiptOf(t, r)
	if size > receiptBudget {
		t.Errorf("dry-run receipt of a 50 MB line is %d bytes, want at most %d", size, receiptBudget)
	}
	files := got["files"].([]any)
	diff, _ := files[0].(map[string]any)["diff"].(string)
	cut, _ := got["cut"].(string)
	if len(files) != 1 || got["normalized"] != nil || !strings.Contains(cut, "normalized") ||
		!strings.HasPrefix(diff, "diff a/a.txt b/a.txt\n") || !strings.Contains(diff, "more bytes not shown") {
		t.Errorf("dry-run receipt: %d files, normalized %v, cut %q, diff %.80q…; want the file, its diff cut and marked, normalized left out",
			len(files), got["normalized"] != nil, cut, diff)
	}

	miss := &apply.Result{Errors: edit.ErrorList{{Code: edit.CodeNoMatch, Path: "a.txt", Edit: 0, Msg: "SEARCH text not found in a.txt",
		Candidates: []edit.Candidate{{LineStart: 1, LineEnd: 1, Similarity: 0.9, Excerpt: line + "\n"}}}}}
	got, size = receiptOf(t, NewReceipt(miss))
	errs := got["errors"].([]any)
	if size > receiptBudget || len(errs) != 1 {
		t.Fatalf("receipt of a miss on a 50 MB line is %d bytes with %d errors, want at most %d with the one", size, len(errs), receiptBudget)
	}
	if ex := errs[0].(map[string]any)["candidates"].([]any)[0].(map[string]any)["excerpt"].(string); len(ex) > fieldBudget+100 || !strings.Contains(ex, "more bytes not shown") {
		t.Errorf("excerpt of a 50 MB line is %d bytes, want it cut to %d and marked", len(ex), fieldBudget)
	}
	var text bytes.Buffer
	if err := Human(&text, miss, false); err != nil {
		t.Fatal(err)
	}
	if text.Len() > receiptBudget || !strings.Contains(text.String(), "more bytes not shown") {
		t.Errorf("text receipt of a miss on a 50 MB line is %d bytes, want at most %d with the cut marked", text.Len(), receiptBudget)
	}
}

// An error quoting many long candidates keeps the first that fit and
// counts the rest, in JSON and in text, rather than leaving the error out.
func TestReceiptOfManyCandidates(t *testing.T) {
	e := &edit.Error{Code: edit.CodeMultipleMatches, Path: "a.txt", Edit: 0, Msg: "SEARCH text found in 1000 places"}
	for i := range 1000 {
		e.Candidates = append(e.Candidates, edit.Candidate{LineStart: i + 1, LineEnd: i + 1, Similarity: 1, Excerpt: strings.Repeat("y", fieldBudget) + "\n"})
	}
	res := &apply.Result{Errors: edit.ErrorList{e}}
	got, size := receiptOf(t, NewReceipt(res))
	errs := got["errors"].([]any)
	if size > receiptBudget || len(errs) != 1 {
		t.Fatalf("receipt of 1000 long candidates is %d bytes with %d errors, want at most %d with the one", size, len(errs), receiptBudget)
	}
	n := len(errs[0].(map[string]any)["candidates"].([]any))
	if cut, _ := got["cut"].(string); n == 0 || n == 1000 || !strings.Contains(cut, plural(1000-n, "more candidate")) {
		t.Errorf("receipt lists %d of 1000 candidates, cut %q; want the first that fit and the count of the rest", n, cut)
	}
	var text bytes.Buffer
	if err := Human(&text, res, false); err != nil {
		t.Fatal(err)
	}
	if text.Len() > receiptBudget || !strings.Contains(text.String(), "more candidates not shown") {
		t.Errorf("text receipt of 1000 long candidates is %d bytes, want at most %d with the rest counted", text.Len(), receiptBudget)
	}
}
