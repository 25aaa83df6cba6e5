package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// pointers returns a pointer to each of es, in order: the edits a Doc is
// prepared for.
func pointers(es []edit.Edit) []*edit.Edit {
	ps := make([]*edit.Edit, len(es))
	for k := range es {
		ps[k] = &es[k]
	}
	return ps
}

// replay applies r's Splices to content, checking that each replaces the
// bytes it says.
func replay(t *testing.T, content string, r Result) string {
	t.Helper()
	var b strings.Builder
	last := 0
	for _, c := range r.Splices {
		if c.At < last || c.At+len(c.Old) > len(content) || content[c.At:c.At+len(c.Old)] != c.Old {
			t.Fatalf("change %+v is not content's bytes at its offset (after %d) in %q", c, last, content)
		}
		b.WriteString(content[last:c.At])
		b.WriteString(c.New)
		last = c.At + len(c.Old)
	}
	b.WriteString(content[last:])
	return b.String()
}

// TestDocSplices holds a Doc's Splices to what it does: every edit's
// splices, replayed in order on the content each edit saw (a BOM
// included), give the content the Doc makes, whether the batch index
// answered or the ladder did, and a replace_all reports every place.
func TestDocSplices(t *testing.T) {
	var b strings.Builder
	b.WriteString(bom)
	for i := range 40 {
		fmt.Fprintf(&b, "func f%d() {\r\n\treturn %d\r\n}\r\n", i, i)
	}
	content := b.String()
	es := []edit.Edit{
		// The batch's: exact, whole lines, one place each.
		{Op: edit.Replace, Old: "func f3() {\n\treturn 3\n}\n", New: "func f3() {\n\treturn 30\n}\n", Count: 1, Format: edit.FormatSearchReplace},
		{Op: edit.Replace, Old: "func f1() {\n\treturn 1\n}\n", New: "", Count: 1, Format: edit.FormatSearchReplace},
		{Op: edit.Replace, Old: "func f7() {\n\treturn 7\n}\n", New: "func g() {}\n", Count: 1, Format: edit.FormatSearchReplace},
		// Every place: the ladder's.
		{Op: edit.Replace, Old: "}", New: "} // end", Count: 0, Format: edit.FormatJSON},
		// A tolerant rung.
		{Op: edit.Replace, Old: "func f9() {\n    return 9\n} // end\n", New: "func f9() {\n    return 90\n} // end\n", Count: 1, Format: edit.FormatSearchReplace},
	}
	d := NewDoc(content, Options{})
	d.Prepare(pointers(es))
	want := content
	for k := range es {
		r, err := d.Replace(&es[k])
		if err != nil {
			t.Fatalf("edit %d: %v", k, err)
		}
		if r.Status != edit.StatusApplied || len(r.Splices) == 0 {
			t.Fatalf("edit %d: %s with %d changes, want applied", k, r.Status, len(r.Splices))
		}
		if k == 3 && len(r.Splices) != 39 {
			t.Errorf("replace_all of } reported %d changes, want one for each of the 39 functions left", len(r.Splices))
		}
		want = replay(t, want, r)
	}
	got, _ := d.Bytes(true)
	if string(got) != want {
		t.Errorf("the Doc makes\n%q\nits Splices replayed make\n%q", got, want)
	}
}

// TestResultRead holds a rescue's and an edge rung's Result to the texts
// they located in the edit's place, and an edit read as written to none.
func TestResultRead(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		e        edit.Edit
		old, new string // the reading; "" for none
	}{
		{"lineNumbers", "a\nb\nc\n",
			edit.Edit{Op: edit.Replace, Old: "     2\tb\n     3\tc", New: "     2\tB\n     3\tc", Count: 1, Format: edit.FormatJSON},
			"b\nc", "B\nc"},
		{"blankEdges", "a\nb\nc\n",
			edit.Edit{Op: edit.Replace, Old: "\nb\n", New: "\nB\n", Count: 1, Format: edit.FormatSearchReplace},
			"b\n", "B\n"},
		{"asWritten", "a\nb\nc\n",
			edit.Edit{Op: edit.Replace, Old: "b\n", New: "B\n", Count: 1, Format: edit.FormatSearchReplace}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewDoc(tt.content, Options{}).Replace(&tt.e)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.old == "" && r.Read != nil:
				t.Errorf("Read = %+v, want none", *r.Read)
			case tt.old != "" && (r.Read == nil || r.Read.Old != tt.old || r.Read.New != tt.new):
				t.Errorf("Read = %+v, want {%q %q}", r.Read, tt.old, tt.new)
			}
		})
	}
}
