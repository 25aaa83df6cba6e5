package parse

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// TestParseSearchReplace covers small layouts; the golden files cover
// whole responses.
func TestParseSearchReplace(t *testing.T) {
	rep := func(p, o, n string) string { return "replace " + p + " " + o + "|" + n }
	tests := map[string]struct {
		in   string
		want []string // "op path old|new"
		errs []int    // lines of the PARSE_ERRORs
	}{
		"bare":       {"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n", "y\n")}, nil},
		"noNewline":  {"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE", []string{rep("a.go", "x\n", "y\n")}, nil},
		"blankPath":  {"a.go\n\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n", []string{rep("a.go", "x\n", "y\n")}, nil},
		"create":     {"a.go\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n", []string{"create a.go |"}, nil},
		"blankOld":   {"a.go\n<<<<<<< SEARCH\n\n=======\ny\n>>>>>>> REPLACE\n", []string{rep("a.go", "\n", "y\n")}, nil},
		"crlf":       {"a.go\r\n<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n", []string{rep("a.go", "x\r\n", "y\r\n")}, nil},
		"headLabel":  {"a.go\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\n", nil, nil},
		"openAtEOF":  {"a.go\n<<<<<<< SEARCH\nx\n", nil, []int{2}},
		"noPath":     {"<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", nil, []int{1}},
		"twoSevens":  {"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n=======\nz\n>>>>>>> REPLACE\n", nil, []int{2}},
		"sevenWins":  {"a.go\n<<<<<<< SEARCH\nx\n======\ny\n=======\nz\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n======\ny\n", "z\n")}, nil},
		"nestedOnly": {"a.go\n<<<<<<< SEARCH\n<<<<<<< HEAD\n=======\n>>>>>>> b\n>>>>>>> REPLACE\n", nil, []int{2}},
		// A REPLACE holding a closer line ends there; the text after it up
		// to a second closer would be lost and the rest written cut short.
		"closedAgain":      {"a.go\n<<<<<<< SEARCH\nx\n=======\nS = \"\"\"\n>>>>>>> REPLACE\n\"\"\"\n>>>>>>> REPLACE\n", nil, []int{2}},
		"closedAgainCline": {"a.go\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\nz\n+++++++ REPLACE\n", nil, []int{2}},
		"closerTwice":      {"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n", "y\n")}, nil},
		"closerThenBlock":  {"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\ntext\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n", "y\n"), rep("a.go", "z\n", "w\n")}, nil},
		"conflictAfter":    {"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\ntext\n>>>>>>> feature\n", []string{rep("a.go", "x\n", "y\n")}, nil},
		// A backslash before a line that would read as the block's own
		// syntax makes it the file's text (Roo Code's escaping); other
		// backslash lines, and a backslash before an indented marker, stay.
		"escapedDivider":  {"a.go\n<<<<<<< SEARCH\nx\n\\=======\ny\n=======\nz\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n=======\ny\n", "z\n")}, nil},
		"escapedConflict": {"a.go\n<<<<<<< SEARCH\n\\<<<<<<< HEAD\nx\n\\>>>>>>> b\n=======\nx\n>>>>>>> REPLACE\n", []string{rep("a.go", "<<<<<<< HEAD\nx\n>>>>>>> b\n", "x\n")}, nil},
		"escapedInNew":    {"a.go\n<<<<<<< SEARCH\nx\n=======\n\\-------\n\\+++++++ REPLACE\n\\:start_line:3\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n", "-------\n+++++++ REPLACE\n:start_line:3\n")}, nil},
		// Roo's start line written in brackets, as its tool description
		// shows it, is still the preamble, not the file's text.
		"rooBracketed":  {"a.go\n<<<<<<< SEARCH\n:start_line: [4]\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n", []string{rep("a.go", "x\n", "y\n")}, nil},
		"rooBadNumber":  {"a.go\n<<<<<<< SEARCH\n:start_line:[x]\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n", []string{rep("a.go", ":start_line:[x]\n-------\nx\n", "y\n")}, nil},
		"backslashKept": {"a.go\n<<<<<<< SEARCH\n\\n\n\\ =======\n\\===\n=======\ny\n>>>>>>> REPLACE\n", []string{rep("a.go", "\\n\n\\ =======\n\\===\n", "y\n")}, nil},
	}
	for name, tt := range tests {
		edits, errs := Parse(tt.in, Options{Format: edit.FormatSearchReplace})
		var got []string
		for _, e := range edits {
			got = append(got, e.Op.String()+" "+e.Path+" "+e.Old+"|"+e.New)
		}
		var lines []int
		for _, e := range errs {
			lines = append(lines, e.Line)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") || intsString(lines) != intsString(tt.errs) {
			t.Errorf("%s: Parse(%q) = %q, errors at %v; want %q, errors at %v", name, tt.in, got, lines, tt.want, tt.errs)
		}
	}
}

func intsString(v []int) string {
	var b strings.Builder
	for _, n := range v {
		b.WriteString(strconv.Itoa(n) + " ")
	}
	return b.String()
}

// TestSearchReplaceSpan checks that an edit's region runs from its path
// line through its closing marker, and that Line is the path line.
func TestSearchReplaceSpan(t *testing.T) {
	src := "Intro.\n\na/b.go\n```go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n"
	edits, errs := Parse(src, Options{Format: edit.FormatSearchReplace})
	if len(errs) != 0 || len(edits) != 1 {
		t.Fatalf("Parse = %v, %v; want one edit", edits, errs)
	}
	e := edits[0]
	if got, want := src[e.Start:e.End], "a/b.go\n```go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"; got != want || e.Line != 3 {
		t.Errorf("span %q, line %d; want %q, line 3", got, e.Line, want)
	}
}

// TestParseLinear: doubling a response of many blocks, files and prose
// fences, or of many unclosed openers, must double the work (growth counts
// it): a rescan to the end from each block would quadruple it.
func TestParseLinear(t *testing.T) {
	build := func(scale int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < scale<<20; i++ {
			b.WriteString("Change " + strconv.Itoa(i) + ":\n\npkg/f" + strconv.Itoa(i) + ".go\n```go\n<<<<<<< SEARCH\nold line\n=======\nnew line\n>>>>>>> REPLACE\n```\n\n")
			b.WriteString("pkg/w" + strconv.Itoa(i) + ".md\n```markdown\n# T\n```bash\nrun\n```\ntext\n```\n\n```bash\ngo test\n```\n")
		}
		// An unclosed block at the end makes every reader look to the end.
		b.WriteString("x.go\n```go\n<<<<<<< SEARCH\n")
		return []byte(b.String())
	}
	srcs := map[int][]byte{1: build(1), 2: build(2)}
	for _, f := range []edit.Format{edit.FormatAuto, edit.FormatSearchReplace, edit.FormatWhole} {
		growth.Linear(t, fmt.Sprintf("Parse(%v)", f), func(scale int) {
			if edits, _ := Parse(string(srcs[scale]), Options{Format: f}); len(edits) == 0 {
				t.Errorf("Parse(%v): no edits", f)
			}
		})
	}
	// Many unclosed openers: each must not rescan to the end.
	openers := map[int][]byte{1: []byte(strings.Repeat("<<<<<<< SEARCH\nx\n", 25000)), 2: []byte(strings.Repeat("<<<<<<< SEARCH\nx\n", 50000))}
	growth.Linear(t, "unclosed openers", func(scale int) { Parse(string(openers[scale]), Options{Format: edit.FormatSearchReplace}) })
}

func TestSearchReplaceKinds(t *testing.T) {
	edits, _ := Parse("a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", Options{Format: edit.FormatSearchReplace})
	if len(edits) != 1 || edits[0].Op != edit.Replace || edits[0].Count != 1 || edits[0].Format != edit.FormatSearchReplace {
		t.Errorf("Parse = %+v; want one Replace with Count 1 in format search-replace", edits)
	}
}

// TestRooStartLineHint checks that Roo's start line, bare or bracketed,
// becomes the edit's hint.
func TestRooStartLineHint(t *testing.T) {
	for _, num := range []string{"7", " 7", "[7]", " [7]", "[ 7 ]"} {
		in := "a.go\n<<<<<<< SEARCH\n:start_line:" + num + "\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n"
		edits, errs := Parse(in, Options{Format: edit.FormatSearchReplace})
		if len(errs) != 0 || len(edits) != 1 || edits[0].Hint != 7 || edits[0].Old != "x\n" {
			t.Errorf(":start_line:%s: edits %+v, errors %v; want one edit of x with hint 7", num, edits, errs)
		}
	}
}

// A path line before a block's fence names its file over a word of the
// fence's info string that reads as a file name: ```makefile is a
// language tag there, and taking it edited another file.
func TestPathLineOverInfoWord(t *testing.T) {
	for _, tc := range []struct{ reply, want string }{
		{"src/Makefile\n```makefile\n<<<<<<< SEARCH\n\tcc main.c\n=======\n\tcc -O2 main.c\n>>>>>>> REPLACE\n```\n", "src/Makefile"},
		{"build/justfile\n```justfile\n<<<<<<< SEARCH\n=======\nall:\n>>>>>>> REPLACE\n```\n", "build/justfile"},
		{"```makefile\n<<<<<<< SEARCH\n\tcc main.c\n=======\n\tcc -O2 main.c\n>>>>>>> REPLACE\n```\n", "makefile"},
	} {
		edits, errs := Parse(tc.reply, Options{Format: edit.FormatSearchReplace})
		if len(errs) > 0 || len(edits) != 1 || edits[0].Path != tc.want {
			t.Errorf("%q: edits %+v, errors %v; want one edit of %s", tc.reply, edits, errs, tc.want)
		}
	}
}
