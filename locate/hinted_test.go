package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// hintedWrittenRun is n functions whose last line is "\treturn nil", and
// a -U0 hunk for each, in file order, that writes a line before it
// (hinted at its line as the hunks before it left the content): each
// hunk's one-line quote stands at every function, its own hinted, and
// on the lines the hunks before it wrote. With drop set every other
// hunk writes no "\treturn nil" (it takes it away), so that the lines
// written before stand apart from one another.
func hintedWrittenRun(n int, drop bool) (string, []edit.Edit) {
	var b strings.Builder
	var es []edit.Edit
	b.WriteString("package a\n\n")
	line := 3
	for i := range n {
		fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
		add := fmt.Sprintf("\tlog.Print(%d)\n\treturn nil\n", i)
		if drop && i%2 == 1 {
			add = fmt.Sprintf("\treturn err%d\n", i)
		}
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil\n", New: add, Count: 1,
			Format: edit.FormatUDiff, Hint: line + 4})
		line += 6 + strings.Count(add, "\n") - 1
	}
	return b.String(), es
}

// TestHintedPlaceVisits holds a run of hinted edits in file order, each
// of which writes a line its next ones quote, to a number of places
// looked at per edit that does not grow with the lines written: the
// places within the hint's window (here its own and the one written
// before it) and a few more, not every line the edits before it wrote.
func TestHintedPlaceVisits(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(fmt.Sprintf("drop=%v", drop), func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := hintedWrittenRun(n, drop)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				for k := range es {
					if _, err := d.Replace(&es[k]); err != nil {
						t.Fatalf("%d edits: edit %d: %v", n, k, err)
					}
				}
				if limit := 4 * n; d.visits > limit {
					t.Errorf("%d edits: %d places looked at, want at most %d", n, d.visits, limit)
				}
			}
			content, es := hintedWrittenRun(60, drop)
			checkBatch(t, map[string]string{"a.go": content}, es, Options{})
		})
	}
}
