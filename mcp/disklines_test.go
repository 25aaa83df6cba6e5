package mcp

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/report"
)

// TestDiskLines: a failed edit_file call whose first edit adds a line
// above the second's typo names the second's lines as they stand on disk
// (nothing was written), in its candidates and its hint.
func TestDiskLines(t *testing.T) {
	cs, _ := connect(t, map[string]string{"calc.py": calc})
	var r report.Receipt
	call(t, cs, "edit_file", map[string]any{"path": "calc.py", "edits": []any{
		map[string]any{"old_string": "def add(a, b):\n", "new_string": "def add(a, b):\n    \"\"\"Add a and b.\"\"\"\n"},
		map[string]any{"old_string": "def sub(a, b):\n    retrun a - b\n", "new_string": "def sub(a, b):\n    return b - a\n"},
	}}, &r)
	if len(r.Errors) != 1 || len(r.Errors[0].Candidates) == 0 {
		t.Fatalf("edit_file: %+v, want one error with candidates", r.Errors)
	}
	c := r.Errors[0].Candidates[0]
	if c.LineStart != 4 || c.LineEnd != 5 || !strings.Contains(r.Errors[0].Hint, "Line 5 differs") {
		t.Errorf("candidate lines %d-%d, hint %q; want lines 4-5 of the file on disk", c.LineStart, c.LineEnd, r.Errors[0].Hint)
	}
}
