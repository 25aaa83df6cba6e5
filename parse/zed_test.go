package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// TestParseZed: Zed's <old_text>/<new_text> pairs read as Zed's parser
// reads them, lowered to whole-line replacements with the tag's line as
// the hint; pairs that do not read are refused.
func TestParseZed(t *testing.T) {
	rep := func(o, n string, hint int) string { return fmt.Sprintf("a.py %q|%q @%d", o, n, hint) }
	tests := map[string]struct {
		in   string
		want []string
		errs []int // lines of the PARSE_ERRORs
	}{
		"lines":      {"a.py\n<old_text>\nx = 1\n</old_text>\n<new_text>\nx = 2\n</new_text>\n", []string{rep("x = 1\n", "x = 2\n", 0)}, nil},
		"inline":     {"a.py\n<old_text>x = 1</old_text><new_text>x = 2</new_text>\n", []string{rep("x = 1\n", "x = 2\n", 0)}, nil},
		"hint":       {"a.py\n<old_text line=12>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n", []string{rep("x\n", "y\n", 12)}, nil},
		"quoted":     {"a.py\n<old_text line=\"7\">\nx\n</old_text>\n<new_text>\ny\n</new_text>\n", []string{rep("x\n", "y\n", 7)}, nil},
		"deletes":    {"a.py\n<old_text>\nx\n</old_text>\n<new_text>\n</new_text>\n", []string{rep("x\n", "", 0)}, nil},
		"crlf":       {"a.py\r\n<old_text>\r\nx\r\nz\r\n</old_text>\r\n<new_text>\r\ny\r\n</new_text>\r\n", []string{rep("x\r\nz\r\n", "y\r\n", 0)}, nil},
		"crlfInline": {"a.py\r\n<old_text>x\r\nz</old_text><new_text>y</new_text>\r\n", []string{rep("x\r\nz\r\n", "y\n", 0)}, nil},
		"multiple":   {"a.py\n<edits>\n<old_text>\na\nb\n</old_text>\n<new_text>\nB\n</new_text>\n\n<old_text>\nc\n</old_text>\n<new_text>\nC\n</new_text>\n</edits>\n", []string{rep("a\nb\n", "B\n", 0), rep("c\n", "C\n", 0)}, nil},
		"sameLine":   {"a.py\n<old_text>a</old_text><new_text>A</new_text> <old_text>b</old_text><new_text>B</new_text>\n", []string{rep("a\n", "A\n", 0), rep("b\n", "B\n", 0)}, nil},
		"prose":      {"Here is the change.\n\na.py\n<old_text>\na\n</old_text>\nwith\n<new_text>\nA\n</new_text>\nDone.\n", []string{rep("a\n", "A\n", 0)}, nil},
		// Zed's parser ends a text at the first closing tag of any kind.
		"mismatched":      {"a.py\n<old_text>\na\n</new_text>\n<new_text>\nA\n</old_text>\n", []string{rep("a\n", "A\n", 0)}, nil},
		"closedByEdits":   {"a.py\n<edits>\n<old_text>\na\n</old_text>\n<new_text>\nA\n</edits>\n", []string{rep("a\n", "A\n", 0)}, nil},
		"closedByInvoke":  {"a.py\n<old_text>a</old_text><new_text>A</parameter></invoke>\n", []string{rep("a\n", "A\n", 0)}, nil},
		"tagsInText":      {"a.py\n<old_text>\n<b>x</b>\n</old_text>\n<new_text>\n<i>x</i>\n</new_text>\n", []string{rep("<b>x</b>\n", "<i>x</i>\n", 0)}, nil},
		"emptyOld":        {"a.py\n<old_text>\n</old_text>\n<new_text>\nx\n</new_text>\n", nil, []int{2}},
		"noNewText":       {"a.py\n<old_text>\na\n</old_text>\n\nb.py\n<old_text>\nb\n</old_text>\n<new_text>\nB\n</new_text>\n", []string{"b.py \"b\\n\"|\"B\\n\" @0"}, []int{2}},
		"oldUnclosed":     {"a.py\n<old_text>\na\n", nil, []int{2}},
		"newUnclosed":     {"a.py\n<old_text>\na\n</old_text>\n<new_text>\nA\n", nil, []int{2}},
		"closingTagLeft":  {"a.py\n<old_text>\na\n<new_text>\nA\n</new_text>\n", nil, []int{2}},
		"notATag":         {"a.py\n<old_textual>\na\n", nil, nil},
		"openerInProse":   {"Use <old_text> and <new_text> tags.\n", nil, nil},
		"pathBeforeEdits": {"a.py\n<edits>\n<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n</edits>\n", []string{rep("x\n", "y\n", 0)}, nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			edits, errs := Parse(tt.in, Options{})
			var got []string
			for _, e := range edits {
				if e.Op != edit.Replace || e.Count != 1 || e.Format != edit.FormatSearchReplace {
					t.Errorf("edit %+v: want a Replace of Count 1 in format search-replace", e)
				}
				got = append(got, fmt.Sprintf("%s %q|%q @%d", e.Path, e.Old, e.New, e.Hint))
			}
			var lines []int
			for _, e := range errs {
				lines = append(lines, e.Line)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") || intsString(lines) != intsString(tt.errs) {
				t.Errorf("Parse(%q) = %q, errors at %v %v; want %q, errors at %v", tt.in, got, lines, errs, tt.want, tt.errs)
			}
		})
	}
}

// TestParseZedFormat: the pairs are read with --format search-replace and
// left unread by the other formats.
func TestParseZedFormat(t *testing.T) {
	in := "a.py\n<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n"
	if edits, errs := Parse(in, Options{Format: edit.FormatSearchReplace}); len(edits) != 1 || len(errs) != 0 {
		t.Errorf("search-replace: %d edits, errors %v; want 1 edit", len(edits), errs)
	}
	if edits, errs := Parse(in, Options{Format: edit.FormatUDiff}); len(edits) != 0 || len(errs) != 0 {
		t.Errorf("udiff: %d edits, errors %v; want none", len(edits), errs)
	}
}

// TestParseZedSearchLine: Zed's other dialect, a SEARCH/REPLACE block
// whose opener carries the line, reads as a block with that hint.
func TestParseZedSearchLine(t *testing.T) {
	tests := map[string]struct {
		opener string
		hint   int
	}{
		"plain":    {"<<<<<<< SEARCH line=42", 42},
		"quoted":   {`<<<<<<< SEARCH line="42"`, 42},
		"zero":     {"<<<<<<< SEARCH line=0", -1},
		"notANum":  {"<<<<<<< SEARCH line=x", -1},
		"otherArg": {"<<<<<<< SEARCH col=4", -1},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			in := "a.py\n" + tt.opener + "\nx\n=======\ny\n>>>>>>> REPLACE\n"
			edits, _ := Parse(in, Options{})
			if tt.hint < 0 {
				// Not an opener: the lines are a git conflict's, prose.
				if len(edits) != 0 {
					t.Errorf("Parse(%q) = %+v, want no edit", in, edits)
				}
				return
			}
			if len(edits) != 1 || edits[0].Hint != tt.hint || edits[0].Old != "x\n" || edits[0].New != "y\n" {
				t.Errorf("Parse(%q) = %+v, want one block x -> y with hint %d", in, edits, tt.hint)
			}
		})
	}
}

// TestParseZedNotWhole: a fence under a path that holds pairs is not the
// file's whole text.
func TestParseZedNotWhole(t *testing.T) {
	in := "a.py\n```\n<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n```\n"
	edits, errs := Parse(in, Options{})
	if len(errs) != 0 || len(edits) != 1 || edits[0].Op != edit.Replace {
		t.Errorf("Parse(%q) = %+v, errors %v; want one Replace", in, edits, errs)
	}
}

// TestParseZedLinear: many pairs, and many openers never closed, cost
// time linear in the reply, not a scan to its end for each.
func TestParseZedLinear(t *testing.T) {
	pairs := func(n int) string {
		return "a.py\n" + strings.Repeat("<old_text>\nx\n</old_text>\n<new_text>\ny\n</new_text>\n", n)
	}
	unclosed := func(n int) string {
		return "a.py\n" + strings.Repeat("<old_text>\nx\n", n)
	}
	if edits, errs := Parse(pairs(100), Options{}); len(edits) != 100 || len(errs) != 0 {
		t.Fatalf("Parse = %d edits, %v; want 100 edits", len(edits), errs)
	}
	closed := map[int]string{1: pairs(4000), 2: pairs(8000)}
	growth.Linear(t, "Parse of Zed pairs", func(scale int) { Parse(closed[scale], Options{}) })
	open := map[int]string{1: unclosed(4000), 2: unclosed(8000)}
	growth.Linear(t, "Parse of unclosed Zed openers", func(scale int) { Parse(open[scale], Options{}) })
}
