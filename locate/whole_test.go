package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func TestWholeOf(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       bool
	}{
		{"", "anything\n", true},
		{"a\nb\nc\nd\ne\nf\n", "a\nx\nf\n", true},                             // first and last kept
		{"a\nb\nc\nd\ne\nf\n", "b\nc\nd\ne\n", true},                          // most lines, in order
		{"a\nb\nc\nd\ne\nf\n", "c\n", false},                                  // one line of six
		{"a\nb\nc\nd\ne\nf\n", "e\nc\n", false},                               // two lines, out of order
		{"one two three four five six\n", "one two\nthree four five\n", true}, // reflowed
		{"aaaa bbbb\ncccc dddd\n", "a totally different text of the same size\n", true},
	} {
		if got := wholeOf(tc.file, tc.text); got != tc.want {
			t.Errorf("wholeOf(%q, %q) = %v, want %v", tc.file, tc.text, got, tc.want)
		}
	}
}

// TestRewriteError: a rewrite that elides the original's code is refused
// with the placeholder's line, a tentative one that is a piece of the file
// is refused, and a whole rewrite, tentative or not, passes.
func TestRewriteError(t *testing.T) {
	orig := "a\nb\nc\nd\ne\nf\n"
	for _, c := range []struct {
		name, text string
		tentative  bool
		msg        string // a piece of the message; "" for no error
	}{
		{"whole", "a\nb\nC\nd\ne\nf\n", true, ""},
		{"elided", "a\n// ... existing code ...\nf\n", false, "(line 2)"},
		{"piece", "c\n", true, "a piece of the file"},
		{"pieceSent", "c\n", false, ""},
	} {
		err := RewriteError(orig, c.text, c.tentative)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s: RewriteError = %s", c.name, err.Msg)
		case c.msg != "" && (err == nil || err.Code != edit.CodeElision || !strings.Contains(err.Msg, c.msg)):
			t.Errorf("%s: RewriteError = %v, want ELIDED with %q", c.name, err, c.msg)
		}
	}
}
