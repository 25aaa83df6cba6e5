package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestLadderFinderFollowsText: the ladder's finder, kept across edits,
// always reads the text the edit sees: edits that change nothing (already
// applied, or failed) share one, and an edit that changes the text gets a
// finder of the new text. Run on a reply sent twice: its second pass is
// all edits already made, each of which asks the finder for the whole
// file's derived lines.
func TestLadderFinderFollowsText(t *testing.T) {
	var file strings.Builder
	for i := range 400 {
		fmt.Fprintf(&file, "func f%d() {\n\treturn %d\n}\n\n", i, i)
	}
	edits := make([]edit.Edit, 0, 8)
	for _, i := range []int{3, 50, 51, 200, 399} {
		edits = append(edits, edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1,
			Old: fmt.Sprintf("func f%d() {\n\treturn %d\n", i, i), New: fmt.Sprintf("func f%d() {\n\treturn %d + 1\n", i, i)})
	}
	// One edit that fails: its old text is nowhere.
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1, Old: "func g() {\n\tnothing\n}\n", New: "x\n"})
	d := NewDoc(file.String(), Options{})
	for pass := range 2 {
		var seen []*finder
		for i := range edits {
			p := Prepare(&edits[i])
			before := d.Text()
			r, err := d.ladder(&p)
			if d.fin == nil || d.fin.content != before {
				t.Fatalf("pass %d, edit %d: the ladder's finder reads other text than the edit's", pass, i)
			}
			seen = append(seen, d.fin)
			changed := err == nil && r.Status == StatusApplied
			if pass == 1 && changed {
				t.Fatalf("pass %d, edit %d: applied again (%+v)", pass, i, r)
			}
			d.settle()
			if changed && d.fin != nil {
				t.Fatalf("pass %d, edit %d: the text changed and the old finder stayed", pass, i)
			}
		}
		if pass == 1 {
			for i := range seen {
				if seen[i] != seen[0] {
					t.Errorf("a reply's second pass, which changes nothing, made a new finder at edit %d", i)
					break
				}
			}
		}
	}
}
