package locate

import (
	"fmt"
	"testing"

	"github.com/edapply/edapply/edit"
)

// A content an edit made binary is binary for the edits after it, whether
// the batch or the ladder placed the edit: a NUL it wrote anywhere, or a
// UTF-16 byte order mark it wrote at the start. A content the edits leave
// text stays text.
func TestBinaryAfterEdits(t *testing.T) {
	const file = "package a\n\nvar x = 1\nvar y = 2\nvar z = 3\n"
	replace := func(old, new string) *edit.Edit {
		return &edit.Edit{Op: edit.Replace, Count: 1, Format: edit.FormatSearchReplace, Old: old, New: new}
	}
	for _, tc := range []struct {
		name  string
		first *edit.Edit
		want  edit.Code // of the edit after it; "" for none
	}{
		{"nul", replace("var y = 2\n", "var y = \"\x00\"\n"), edit.CodeBinaryFile},
		{"nul at the end", replace("var z = 3\n", "var z = 3\n\x00"), edit.CodeBinaryFile},
		{"utf-16 mark", replace("package a\n", "\xFF\xFEpackage a\n"), edit.CodeBinaryFile},
		{"text", replace("var y = 2\n", "var y = 20\n"), ""},
	} {
		for _, prepared := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/prepared=%v", tc.name, prepared), func(t *testing.T) {
				// The failure makes the batch flush the edit before it, as
				// between landings, before the edit under test is placed.
				es := []*edit.Edit{replace("var x = 1\n", "var x = 10\n"), replace("no such line\n", "x\n"), tc.first, replace("var x = 10\n", "var x = 100\n")}
				d := NewDoc(file, Options{})
				if prepared {
					d.Prepare(es)
				}
				for i, e := range es[:3] {
					if _, err := d.Replace(e); (err != nil) != (i == 1) || i == 1 && err.Code != edit.CodeNoMatch {
						t.Fatalf("edit %d: %+v", i, err)
					}
				}
				_, err := d.Replace(es[3])
				got := edit.Code("") // landed
				if err != nil {
					got = err.Code
				}
				if got != tc.want {
					t.Fatalf("the last edit: %q, want %q", got, tc.want)
				}
			})
		}
	}
}

// Failures between landings judge whether the content is binary from the
// bytes the landings wrote, not by reading every content they leave.
func TestBinaryJudgedOnce(t *testing.T) {
	content := bigFile(20000)
	es := landingAndFailing()
	d := NewDoc(content, Options{})
	d.Prepare(es)
	for i, e := range es {
		if _, err := d.Replace(e); i%2 == 1 != (err != nil) {
			t.Fatalf("edit %d: %+v", i, err)
		}
	}
	if d.binScanned == 0 {
		t.Fatal("no byte was read to judge the content binary: the count is not kept")
	}
	if d.binScanned > 2*len(content) {
		t.Errorf("20 failures between landings read %d bytes to judge a %d-byte content binary: each reads the file", d.binScanned, len(content))
	}
}
