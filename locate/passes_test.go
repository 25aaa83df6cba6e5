package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// passShapes are runs of edits that each once cost a pass over the file
// per edit: blocks whose tabs came back as four spaces, one-line blocks,
// and a diff's hunks without context, whose line stands every few lines.
var passShapes = []struct {
	name     string
	strategy edit.Strategy
	run      func(n int) (string, []edit.Edit)
	// refused, when set, says edit k is refused: MULTIPLE_MATCHES.
	refused func(k int) bool
}{
	{"drifted", edit.StrategyIndent, func(n int) (string, []edit.Edit) {
		var b strings.Builder
		var es []edit.Edit
		for i := range n {
			fn := fmt.Sprintf("func f%d(x int) int {\n\tif x > %d {\n\t\treturn x\n\t}\n\treturn 0\n}\n\n", i, i)
			b.WriteString(fn)
			old := strings.ReplaceAll(fn[:strings.Index(fn, "\t}")], "\t", "    ")
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: old,
				New: strings.Replace(old, "return x", "return x + 1", 1), Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, nil},
	{"one-line", edit.StrategyExact, func(n int) (string, []edit.Edit) {
		var b strings.Builder
		var es []edit.Edit
		for i := range n {
			fmt.Fprintf(&b, "func f%d() {\n\treturn\n}\n", i)
			old := fmt.Sprintf("func f%d() {\n", i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: old, New: fmt.Sprintf("func g%d() {\n", i), Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, nil},
	{"zero-context", edit.StrategyLineHint, func(n int) (string, []edit.Edit) {
		var b strings.Builder
		var es []edit.Edit
		for i := range n {
			fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil\n", New: fmt.Sprintf("\treturn err%d\n", i),
				Count: 1, Hint: 6*i + 5, Format: edit.FormatUDiff})
		}
		b.WriteString("func last() error {\n\treturn nil\n}\n") // a place the last hunk's hint chooses against
		return b.String(), es
	}, nil},
	{"adds-after", edit.StrategyExact, addsAfterRun, nil},
	{"adds-after-crlf", edit.StrategyExact, crlfRun(addsAfterRun), nil},
	{"adds-after-drifted", edit.StrategyIndent, func(n int) (string, []edit.Edit) {
		// A SEARCH that quotes a line, its tab written as four spaces,
		// and adds one after it: found at the indent rung only.
		var b strings.Builder
		var es []edit.Edit
		for i := range n {
			fmt.Fprintf(&b, "func f%d() {\n\tx := %d\n\treturn\n}\n", i, i)
			old := fmt.Sprintf("    x := %d\n", i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: old, New: old + "    log(x)\n", Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, nil},
	{"added-lines", edit.StrategyLineHint, func(n int) (string, []edit.Edit) {
		var b strings.Builder
		var es []edit.Edit
		for i := range n {
			fmt.Fprintf(&b, "func f%d() {\n\treturn\n}\n", i)
			// A hunk of added lines only, before line 4i+2 of the content
			// the hunks before it leave.
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", New: fmt.Sprintf("\tlog(%d)\n", i), Count: 1, Hint: 4*i + 2, Format: edit.FormatUDiff})
		}
		return b.String(), es
	}, nil},
	{"crossing", edit.StrategyExact, crossingRun, nil},
	{"crossing-crlf", edit.StrategyExact, crlfRun(crossingRun), nil},
	{"ambiguous", edit.StrategyExact, func(n int) (string, []edit.Edit) {
		// A file that holds its functions twice (two build variants), and
		// a run of blocks that each change a function's comment in one
		// variant and then quote a function that stands in both, without
		// a line hint.
		var b strings.Builder
		for _, v := range []string{"linux", "windows"} {
			for i := range n / 2 {
				fmt.Fprintf(&b, "// f%d, %s\nfunc f%d() {\n\treturn %d\n}\n", i, v, i, i)
			}
		}
		var es []edit.Edit
		for i := range n / 2 {
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("// f%d, linux\n", i),
				New: fmt.Sprintf("// f%d, for linux\n", i), Count: 1, Format: edit.FormatSearchReplace})
			old := fmt.Sprintf("func f%d() {\n\treturn %d\n", i, i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: old, New: strings.Replace(old, "return", "return 1 +", 1), Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, func(k int) bool { return k%2 == 1 }},
	{"ambiguous-many", edit.StrategyExact, func(n int) (string, []edit.Edit) {
		// Blocks that rename a function, each followed by one that quotes
		// lines standing in every function: the ladder lists the first
		// twenty places.
		var b strings.Builder
		var es []edit.Edit
		for i := range n / 2 {
			fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d(x bool) error {\n", i),
				New: fmt.Sprintf("func g%d(x bool) error {\n", i), Count: 1, Format: edit.FormatSearchReplace})
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\t}\n\treturn nil\n}\n", New: "\t}\n\treturn err\n}\n",
				Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, func(k int) bool { return k%2 == 1 }},
	{"ambiguous-line", edit.StrategyExact, func(n int) (string, []edit.Edit) {
		// Blocks that rename a function, each followed by one that quotes
		// "\treturn nil" alone, which stands at the end of every
		// function and, inside the indentation of a deeper one, before
		// the first: the ladder counts every place at a line start.
		var b strings.Builder
		var es []edit.Edit
		b.WriteString("package a\n\n")
		for i := range n / 2 {
			fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d(x bool) error {\n", i),
				New: fmt.Sprintf("func g%d(x bool) error {\n", i), Count: 1, Format: edit.FormatSearchReplace})
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil\n", New: "\treturn err\n",
				Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, func(k int) bool { return k%2 == 1 }},
	{"ambiguous-line-first", edit.StrategyExact, func(n int) (string, []edit.Edit) {
		// The same where the first twenty places stand before any inside
		// a line: the ladder lists those and counts no more.
		var b strings.Builder
		var es []edit.Edit
		b.WriteString("package a\n\n")
		for i := range n / 2 {
			if i < 25 {
				fmt.Fprintf(&b, "func f%d() error {\n\tlog(%d)\n\treturn nil\n}\n", i, i)
			} else {
				fmt.Fprintf(&b, "func f%d() error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
			}
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d() error {\n", i),
				New: fmt.Sprintf("func g%d() error {\n", i), Count: 1, Format: edit.FormatSearchReplace})
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil\n", New: "\treturn err\n",
				Count: 1, Format: edit.FormatSearchReplace})
		}
		return b.String(), es
	}, func(k int) bool { return k%2 == 1 }},
	{"ambiguous-hinted", edit.StrategyExact, func(n int) (string, []edit.Edit) {
		// A diff's hunks without context: each renames a function, and
		// then one changes a line that stands in every function, its line
		// number halfway between two of them, which picks neither.
		var b strings.Builder
		var es []edit.Edit
		b.WriteString("package a\n\n")
		for i := range n / 2 {
			fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d(x bool) error {\n", i),
				New: fmt.Sprintf("func g%d(x bool) error {\n", i), Count: 1, Hint: 6*i + 3, Format: edit.FormatUDiff})
			es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil\n", New: "\treturn err\n",
				Count: 1, Hint: 6*i + 10, Format: edit.FormatUDiff})
		}
		b.WriteString("func last(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n")
		return b.String(), es
	}, func(k int) bool { return k%2 == 1 }},
}

// TestDocPasses holds a run of edits to one file to a number of passes
// over it that does not grow with the edits: each shape, at two sizes a
// factor of eight apart, costs at most three passes, however many edits.
func TestDocPasses(t *testing.T) {
	for _, s := range passShapes {
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := s.run(n)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				for k := range es {
					r, err := d.Replace(&es[k])
					if s.refused != nil && s.refused(k) {
						if err == nil || err.Code != edit.CodeMultipleMatches {
							t.Fatalf("%d edits: edit %d: %+v %v, want MULTIPLE_MATCHES", n, k, r, err)
						}
						continue
					}
					if err != nil || r.Status != edit.StatusApplied || r.Strategy != s.strategy {
						t.Fatalf("%d edits: edit %d: %+v %v, want applied by %s", n, k, r, err, s.strategy)
					}
				}
				// A segment; and where the first edit writes the file's
				// first bytes (which might make it binary), its flush and
				// the next segment.
				if d.passes > 3 {
					t.Errorf("%d edits: %d passes over the file, want at most 3", n, d.passes)
				}
			}
			// And the answers are the ladder's, edit by edit.
			content, es := s.run(40)
			checkBatch(t, map[string]string{"a.go": content}, es, Options{})
		})
	}
}

// crossingRun is the crossing shape of passShapes: blocks that quote a
// line an earlier block wrote, or the line right after it.
func crossingRun(n int) (string, []edit.Edit) {
	var b strings.Builder
	var es []edit.Edit
	b.WriteString("package a\n\n")
	for i := range n / 2 {
		fmt.Fprintf(&b, "func f%d() {\n\treturn %d\n}\n", i, i)
		// Blocks in file order, each quoting the line after the last
		// one's (which the zone of the splice before it takes in),
		// and then a block that quotes a line an earlier block wrote.
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d() {\n", i),
			New: fmt.Sprintf("func g%d() {\n", i), Count: 1, Format: edit.FormatSearchReplace})
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func g%d() {\n\treturn %d\n", i, i),
			New: fmt.Sprintf("func g%d() {\n\treturn %d + 1\n", i, i), Count: 1, Format: edit.FormatSearchReplace})
	}
	return b.String(), es
}

// crlfRun is run with the file's line endings CRLF, its edits' texts as
// a model sends them: the ladder writes their lines in the file's
// endings.
func crlfRun(run func(n int) (string, []edit.Edit)) func(n int) (string, []edit.Edit) {
	return func(n int) (string, []edit.Edit) {
		file, es := run(n)
		return strings.ReplaceAll(file, "\n", "\r\n"), es
	}
}

// addsAfterRun is the adds-after shape of passShapes: blocks whose new
// text holds the old.
func addsAfterRun(n int) (string, []edit.Edit) {
	var b strings.Builder
	var es []edit.Edit
	for i := range n {
		fmt.Fprintf(&b, "func f%d() {\n\treturn\n}\n", i)
		// A SEARCH that quotes a line and adds one after it: its new
		// text holds its old one.
		old := fmt.Sprintf("func f%d() {\n", i)
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: old, New: old + fmt.Sprintf("\tlog(%d)\n", i), Count: 1, Format: edit.FormatSearchReplace})
	}
	return b.String(), es
}
