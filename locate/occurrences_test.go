package locate

import (
	"slices"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestOccurrences: an edit that replaces every occurrence says where each
// was, in the content as it saw it; one that replaces one place says
// nothing more than its lines.
func TestOccurrences(t *testing.T) {
	content := "foo()\nx\n\tfoo()\ny\nfoo()\nfoo()\n"
	for _, tc := range []struct {
		name  string
		e     edit.Edit
		want  []edit.LineRange
		first int
	}{
		{"every", edit.Edit{Op: edit.Replace, Format: edit.FormatJSON, Old: "foo()", New: "bar()", Count: 0},
			[]edit.LineRange{{Start: 1, End: 1}, {Start: 3, End: 3}, {Start: 5, End: 5}, {Start: 6, End: 6}}, 1},
		{"two lines each", edit.Edit{Op: edit.Replace, Format: edit.FormatJSON, Old: "foo()\nfoo()\n", New: "z\n", Count: 0},
			[]edit.LineRange{{Start: 5, End: 6}}, 5},
		{"one", edit.Edit{Op: edit.Replace, Old: "y\n", New: "z\n", Count: 1}, nil, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewDoc(content, Options{}).Replace(&tc.e)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if len(want) == 1 {
				want = nil // one place is its lines alone
			}
			if !slices.Equal(r.Occurrences, want) || r.LineStart != tc.first {
				t.Errorf("lines %d, occurrences %v, want %d, %v", r.LineStart, r.Occurrences, tc.first, want)
			}
		})
	}
}
