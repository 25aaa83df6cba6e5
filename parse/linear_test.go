package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestWholeScanLinear: a run of path lines and fences before a block of
// another format makes every fence a candidate file whose scan reaches
// the block; the lines the scans look at, in all, stay within a few times
// the reply's, at every size.
func TestWholeScanLinear(t *testing.T) {
	const block = "<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n"
	for _, tt := range []struct {
		name, unit string
	}{
		{"code", "f.go\n```go\n"},
		{"document", "a.md\n```md\n"},
		{"tildes", "f.go\n~~~go\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{1000, 8000} {
				text := strings.Repeat(tt.unit, n) + "f.go\n```go\n" + block
				p := newParser(text, edit.FormatAuto)
				edits, _ := p.parse()
				if len(edits) != 1 || edits[0].Op != edit.Replace || edits[0].Path != "f.go" {
					t.Fatalf("%d units: got %d edits (%+v), want the block's one replace of f.go", n, len(edits), edits)
				}
				if lines := len(p.lines); p.whole.scanned > 4*lines {
					t.Errorf("%d units: the whole-file scans looked at %d lines of %d: more than linear", n, p.whole.scanned, lines)
				}
			}
		})
	}
}

// TestFenceCloseLinear: after each file's closing fence, the fences up to
// the next edit region are weighed to find the file's true close; a run
// of small files whose fences no region ends makes each look far ahead.
// What each line there is, is judged once per reply, not once per file.
func TestFenceCloseLinear(t *testing.T) {
	for _, tt := range []struct {
		name, unit string
	}{
		{"bare fences", "f.go\n```\n"},
		{"closed files", "f.go\n```go\nx\n```\n"},
		{"documents", "a.md\n```\nx\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{1000, 8000} {
				p := newParser(strings.Repeat(tt.unit, n), edit.FormatAuto)
				p.parse()
				if lines := len(p.lines); p.whole.scanned > 4*lines {
					t.Errorf("%d units: the fences' scans looked at %d lines of %d: more than linear", n, p.whole.scanned, lines)
				}
			}
		})
	}
}

// TestRepeatedErrorsSummarized: errors of one kind are listed in full
// maxSameErrors times; the last listed counts the rest and names the last
// line, and errors of another kind keep their own count.
func TestRepeatedErrorsSummarized(t *testing.T) {
	for _, tt := range []struct {
		name   string
		reply  string
		errors int    // in the list
		last   string // the last one's message ends so
	}{
		{"few", strings.Repeat("<<<<<<< SEARCH\n", 3), 3, "end of the response"},
		{"exactly the bound", strings.Repeat("<<<<<<< SEARCH\n", maxSameErrors), maxSameErrors, "end of the response"},
		{"one more", strings.Repeat("<<<<<<< SEARCH\n", maxSameErrors+1), maxSameErrors,
			"(and 1 more like it, the last on line 6)"},
		{"many", strings.Repeat("<<<<<<< SEARCH\n", 100000), maxSameErrors,
			"(and 99,995 more like it, the last on line 100000)"},
		{"two kinds", strings.Repeat("<<<<<<<SEARCH\nx\n>>>>>>> REPLACE\n", 7) + strings.Repeat("<<<<<<< SEARCH\n", 7), 2 * maxSameErrors,
			"(and 2 more like it, the last on line 28)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Parse(tt.reply, Options{})
			if len(errs) != tt.errors {
				t.Fatalf("got %d errors, want %d: %v", len(errs), tt.errors, errs)
			}
			for _, e := range errs {
				if e.Code != edit.CodeParse {
					t.Errorf("error %v: code %s, want PARSE_ERROR", e, e.Code)
				}
			}
			if got := errs[len(errs)-1].Msg; !strings.HasSuffix(got, tt.last) {
				t.Errorf("last error %q, want it to end in %q", got, tt.last)
			}
			if tt.name == "two kinds" {
				if got := errs[maxSameErrors-1].Msg; !strings.HasSuffix(got, "(and 2 more like it, the last on line 19)") {
					t.Errorf("last error of the first kind %q does not count the 2 left out", got)
				}
			}
		})
	}
}

// TestUnlikeErrorsBounded: errors that are not alike are listed up to
// maxErrors; the last listed counts the rest.
func TestUnlikeErrorsBounded(t *testing.T) {
	var b strings.Builder
	const n = 3 * maxErrors
	for k := 0; k < n; k++ {
		b.WriteString(strings.Repeat("<", 12+k) + "SEARCH\n") // a near miss of a marker, each its own
	}
	_, errs := Parse(b.String(), Options{})
	if len(errs) != maxErrors {
		t.Fatalf("got %d errors, want %d", len(errs), maxErrors)
	}
	want := fmt.Sprintf("(and %d more errors, the last on line %d)", n-maxErrors, n)
	if got := errs[len(errs)-1].Msg; !strings.HasSuffix(got, want) {
		t.Errorf("last error %q, want it to end in %q", got, want)
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 999995: "999,995", 1234567: "1,234,567"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
