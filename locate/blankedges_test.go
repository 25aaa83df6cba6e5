package locate

import (
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestBlankEdges: an old text padded with blank lines the file does not
// hold at that place is found without them, in every format; the new text
// loses as many at the same end; everything else stays unique-or-refused.
func TestBlankEdges(t *testing.T) {
	const sr = edit.FormatSearchReplace
	cases := map[string]rescueCase{
		"leadingOverIndent": {file: "    a\n    b\n    c\n", old: "\n  a\n  b\n", new: "  x\n  y\n", format: sr,
			want: "    x\n    y\n    c\n", strategy: edit.StrategyWhitespace, note: "blank lines", lines: [2]int{1, 2}},
		"bothEndsKept": {file: "a\nfoo\nb\n", old: "\nfoo\n\n", new: "\nbar\n\n", format: sr,
			want: "a\nbar\nb\n", strategy: edit.StrategyWhitespace, note: "blank lines"},
		"removedBlankNeverThere": {file: "a\nfoo\n", old: "\nfoo\n", new: "bar\n", format: sr,
			want: "a\nbar\n", strategy: edit.StrategyWhitespace},
		"toolCall": {file: "x = 1\ny = 2\n", old: "\n\ny = 2\n", new: "\n\ny = 3\n",
			want: "x = 1\ny = 3\n", strategy: edit.StrategyWhitespace},
		"fileHasTheBlank": {file: "a\n\nfoo\n", old: "\nfoo\n", new: "\nbar\n", format: sr,
			want: "a\n\nbar\n", strategy: edit.StrategyExact},
		"stillUnique": {file: "foo\nx\nfoo\n", old: "\nfoo\n", new: "bar\n", format: sr,
			code: edit.CodeMultipleMatches, hint: "blank lines"},
		"typoStillRefused": {file: "a\nfoo\n", old: "\nfoa\n", new: "bar\n", format: sr,
			code: edit.CodeNoMatch},
		"strict": {file: "a\nfoo\n", old: "\nfoo\n", new: "bar\n", format: sr, strict: true,
			code: edit.CodeNoMatch},
		// Sent again after it removed the file's blank line: the new text
		// stands, and matching the rest would write it twice.
		"resent": {file: "a\n // note\nfunc f() {\n", old: "\nfunc f() {\n", new: " // note\nfunc f() {\n", format: sr,
			want: "a\n // note\nfunc f() {\n", status: edit.StatusAlreadyApplied},
		"onlyBlankChange": {file: "a\nfoo\n", old: "\nfoo\n", new: "foo\n", format: sr,
			code: edit.CodeNoMatch},
		"onlyBlank": {file: "a\nb\n", old: "\n\n", new: "x\n", format: sr,
			code: edit.CodeNoMatch},
	}
	for name, c := range cases {
		runRescue(t, name, c)
	}
}

func TestTrimBlankEdges(t *testing.T) {
	for _, c := range []struct{ old, nw, o, n string }{
		{"\nfoo\n", "\nbar\n", "foo\n", "bar\n"},
		{"foo\n \n\t\n", "bar\n\n", "foo\n", "bar\n"},
		{"\n\nfoo", "\nbar", "foo", "bar"},
		{"\r\nfoo\r\n", "\r\nbar\r\n", "foo\r\n", "bar\r\n"},
	} {
		o, n, ok := trimBlankEdges(c.old, c.nw)
		if !ok || o != c.o || n != c.n {
			t.Errorf("trimBlankEdges(%q, %q) = %q, %q, %v; want %q, %q", c.old, c.nw, o, n, ok, c.o, c.n)
		}
	}
	for _, old := range []string{"foo\n", "\n", "\n\n", ""} {
		if _, _, ok := trimBlankEdges(old, "x\n"); ok {
			t.Errorf("trimBlankEdges(%q) trimmed", old)
		}
	}
}

// A failing edit read again without its blank edge lines seeks
// candidates once: that reading is a probe, whose NO_MATCH is dropped.
func TestProbesSeekNoCandidates(t *testing.T) {
	file := bigFile(2000)
	for _, e := range []*edit.Edit{
		{Op: edit.Replace, Count: 1, Format: edit.FormatSearchReplace,
			Old: "\nfunc f150(x int) (int, error) {\n\tif x < 150 {\n\t\treturn 0, errTooSmal\n\n", New: "\nx\n\n"},
		{Op: edit.Replace, Count: 1, Format: edit.FormatSearchReplace,
			Old: "\n\n\tif x < 150 {\n\t\treturn 0, errTooSmal\n", New: "\tif x < 150 {\n\t\treturn 1, errTooSmall\n"},
	} {
		f := newFinder(file)
		_, err := locateIn(f, e, newPattern(e.Old), newPattern(e.New), matchOptions{}, nil)
		if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
			t.Fatalf("%q: %+v, want NO_MATCH with candidates", e.Old, err)
		}
		if f.searches != 1 {
			t.Errorf("%q: %d candidate searches, want 1", e.Old, f.searches)
		}
	}
}
