package locate

import (
	"fmt"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestSpacing: an old text whose lines differ from the file's only by
// blanks beside punctuation is found at the last rung, reported as
// whitespace with a note; blanks between words still count, stricter
// rungs win, and the rung is unique or refused like every other.
func TestSpacing(t *testing.T) {
	const sr = edit.FormatSearchReplace
	cases := map[string]rescueCase{
		"toolCall": {file: "function myFunc(a, b) {\n  return a + b;\n}\n",
			old: "function  myFunc( a, b ) {\n  return a+b;\n}", new: "function myFunc(a, b, c) {\n  return a + b + c;\n}",
			want: "function myFunc(a, b, c) {\n  return a + b + c;\n}\n", strategy: edit.StrategyWhitespace, note: "punctuation", lines: [2]int{1, 3}},
		// A line the edit keeps keeps the file's bytes; an added one is
		// written as sent.
		"keptLinesKeepTheFile": {file: "if (x) {\n    call(a,b);\n}\n", format: sr,
			old: "if ( x ) {\n    call( a, b );\n}\n", new: "if ( x ) {\n    call( a, b );\n    more( );\n}\n",
			want: "if (x) {\n    call(a,b);\n    more( );\n}\n", strategy: edit.StrategyWhitespace, note: "punctuation"},
		// The indentation maps as from the indent rung on: four spaces a
		// level onto the file's tabs.
		"indentRebased": {file: "func f() {\n\tif (x) {\n\t\ty = f(x);\n\t}\n}\n", format: sr,
			old: "if ( x ) {\n    y = f( x );\n}\n", new: "if ( x ) {\n    y = g( x );\n}\n",
			want: "func f() {\n\tif (x) {\n\t\ty = g( x );\n\t}\n}\n", strategy: edit.StrategyWhitespace},
		"crlf": {file: "a\r\nf(a)\r\nb\r\n", format: sr, old: "f( a )\n", new: "g( a )\n",
			want: "a\r\ng( a )\r\nb\r\n", strategy: edit.StrategyWhitespace},
		"typographyFolded": {file: "s = f(\"x\") - 1\n", format: sr, old: "s = f( “x” ) – 1\n", new: "s = 2\n",
			want: "s = 2\n", strategy: edit.StrategyWhitespace},
		"operators": {file: "x=a+b*c;\n", format: sr, old: "x = a + b * c;\n", new: "x = 0;\n",
			want: "x = 0;\n", strategy: edit.StrategyWhitespace},

		// Blanks between two word bytes separate words.
		"joinedWords": {file: "int x = 1;\n", format: sr, old: "intx = 1;\n", new: "int y = 1;\n", code: edit.CodeNoMatch},
		"splitWord":   {file: "intx = 1;\n", format: sr, old: "int x = 1;\n", new: "int y = 1;\n", code: edit.CodeNoMatch},
		// A blank beside a quote may be a string's content, beside "$" a word's edge.
		"stringContent": {file: "sep = \" \"\n", format: sr, old: "sep = \"\"\n", new: "sep = \",\"\n", code: edit.CodeNoMatch},
		"shellWord":     {file: "echo$x\n", format: sr, old: "echo $x\n", new: "echo $y\n", code: edit.CodeNoMatch},
		"typo":          {file: "foo(a, b)\n", format: sr, old: "foo( a, c )\n", new: "foo(a)\n", code: edit.CodeNoMatch},
		"twoPlaces": {file: "f(a, b)\nx\nf(a,b)\n", format: sr, old: "f( a, b )\n", new: "g(a, b)\n",
			code: edit.CodeMultipleMatches, hint: "punctuation"},
		"strict": {file: "f(a)\n", format: sr, old: "f( a )\n", new: "g(a)\n", strict: true, code: edit.CodeNoMatch},

		// Sent again: the new text stands already, at this rung.
		"resentInsertion": {file: "f(a)\nnext()\nend\n", format: sr, old: "f( a )\n", new: "f( a )\nnext()\n",
			want: "f(a)\nnext()\nend\n", status: edit.StatusAlreadyApplied, strategy: edit.StrategyWhitespace},
		"resentChange": {file: "x = f(a)\ny = 2\n", format: sr, old: "x = f( a )\ny = 1\n", new: "x = f( a )\ny = 2\n",
			want: "x = f(a)\ny = 2\n", status: edit.StatusAlreadyApplied, strategy: edit.StrategyWhitespace},
		// The new text standing elsewhere explains nothing while the old
		// text stands, spaced otherwise, where the edit means.
		"newTextElsewhere": {file: "g(x)\nh(x)\n", format: sr, old: "g( x )\n", new: "h(x)\n",
			want: "h(x)\nh(x)\n", strategy: edit.StrategyWhitespace},
	}
	for name, c := range cases {
		runRescue(t, name, c)
	}
}

// TestSpacingLast: every other rung is tried first, and a place one of
// them finds is taken even where the spacing rung would find another.
func TestSpacingLast(t *testing.T) {
	for name, c := range map[string]struct {
		file, old string
		strategy  edit.Strategy
		line      int
	}{
		"exactWins":      {"f( a )\nf(a)\n", "f(a)\n", edit.StrategyExact, 2},
		"whitespaceWins": {"f(a,  b)\nf(a,b)\n", "f(a, b)\n", edit.StrategyWhitespace, 1},
		"indentWins":     {"  f(a)\nf( a )x\n", "f(a)\n", edit.StrategyIndent, 1},
	} {
		e := &edit.Edit{Op: edit.Replace, Old: c.old, New: "g()\n", Count: 1, Format: edit.FormatSearchReplace}
		loc, err := locate(c.file, e, matchOptions{})
		if err != nil {
			t.Errorf("%s: %s: %s", name, err.Code, err.Msg)
			continue
		}
		if loc.Strategy != c.strategy || loc.LineStart != c.line || loc.Note != "" {
			t.Errorf("%s: %s at line %d, note %q; want %s at line %d, no note", name, loc.Strategy, loc.LineStart, loc.Note, c.strategy, c.line)
		}
	}
}

func TestSpacedForm(t *testing.T) {
	for in, want := range map[string]string{
		"  function  myFunc( a, b ) {  ": "function myFunc(a,b){",
		"int   x":                        "int x",
		"a - b":                          "a-b",
		"s = \" \"":                      "s=\" \"",
		"echo $x":                        "echo $x",
		"x\t=\t1":                        "x=1",
		"plain":                          "plain",
		"":                               "",
	} {
		if got := spacedForm(in); got != want {
			t.Errorf("spacedForm(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSpacedLines: the lines found through a pattern line's longest word
// are those a key per line would find.
func TestSpacedLines(t *testing.T) {
	content := "f(a, b)\r\nx = f( a,b )\n  f (a , b)  \nff(a, b)\n(  )\n()\ng(a, “b”)\ng(a, \"b\")\nf(a, b)"
	f := newFinder(content)
	lines := f.lineIndex()
	for _, l := range []string{"f( a, b )", "( )", "g( a, \"b\" )", "x=f(a,b)", "nowhere(a)"} {
		var want []int
		for from := range 3 {
			want = want[:0]
			for k := from; k < len(lines); k++ {
				if spacedKey(content[lines[k].start:lines[k].end]) == spacedKey(l) {
					want = append(want, k)
				}
			}
			if got := f.spacedLines(l, from); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("spacedLines(%q, %d) = %v, want %v", l, from, got, want)
			}
		}
	}
}
