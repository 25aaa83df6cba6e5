package apply

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestResultsDoNotAlias: the receipt's Before and After are the caller's.
// Writing every byte of them changes no string of the result (Matched,
// Written) and neither changes the other: for edits the batch index
// answers, those the ladder answers, and a file no edit changed; also
// with Omit.After, whose staged files were written from pieces of Before.
func TestResultsDoNotAlias(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "func f%d() {\n\treturn %d\n}\n\n", i, i)
	}
	src := b.String()
	fn := func(i int) string { return fmt.Sprintf("func f%d() {\n\treturn %d\n}\n", i, i) }
	var edits []edit.Edit
	for i := 10; i < 200; i += 20 {
		edits = append(edits, replace("a.go", fn(i), strings.Replace(fn(i), "return", "return 1 +", 1)))
	}
	edits = append(edits,
		replace("a.go", "func f5() {\n  return 5\n}\n", "func f5() {\n\treturn 6\n}\n"), // the indent rung
		replace("a.go", fn(7), fn(7)),       // already applied
		replace("b.go", "keep\n", "keep\n"), // b.go unchanged
	)
	for _, c := range []struct{ dry, noAfter bool }{{false, false}, {true, false}, {false, true}} {
		dry := c.dry
		root := t.TempDir()
		writeTree(t, root, tree{"a.go": src, "b.go": "keep\n"})
		opts := testOpts(t, root)
		opts.DryRun, opts.Omit.After = dry, c.noAfter
		res, err := Apply(context.Background(), edits, opts)
		if err != nil {
			t.Fatal(err)
		}
		type texts struct{ matched, written string }
		var before []texts
		for _, f := range res.Files {
			for _, e := range f.Edits {
				before = append(before, texts{strings.Clone(e.Matched), strings.Clone(e.Written)})
			}
		}
		for _, f := range res.Files {
			after := string(f.After)
			for i := range f.Before {
				f.Before[i] = '#'
			}
			if string(f.After) != after {
				t.Errorf("dry run %v, %s: writing Before changed After", dry, f.Path)
			}
			for i := range f.After {
				f.After[i] = '%'
			}
		}
		k := 0
		for _, f := range res.Files {
			for _, e := range f.Edits {
				if e.Matched != before[k].matched || e.Written != before[k].written {
					t.Errorf("dry run %v, %s edit %d: writing Before and After changed Matched or Written to %q, %q",
						dry, f.Path, e.Index, e.Matched, e.Written)
				}
				k++
			}
		}
		if k != len(edits) {
			t.Fatalf("%d edit results, want %d", k, len(edits))
		}
	}
}
