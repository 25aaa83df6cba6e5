package locate

import (
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
