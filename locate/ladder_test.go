package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// spliced applies loc's splices to content, checking they are in bounds,
// ascending, disjoint, and replace the bytes they say.
func spliced(t testing.TB, content string, loc location) string {
	t.Helper()
	var b strings.Builder
	off := 0
	for _, s := range loc.Splices {
		if s.At < off || s.At+len(s.Old) > len(content) || content[s.At:s.At+len(s.Old)] != s.Old {
			t.Fatalf("bad splice %+v after %d in %d bytes", s, off, len(content))
		}
		b.WriteString(content[off:s.At])
		b.WriteString(s.New)
		off = s.At + len(s.Old)
	}
	b.WriteString(content[off:])
	return b.String()
}

type locateCase struct {
	file     string
	old, new string
	count    int // -1: 0 (every occurrence); 0: 1
	hint     int
	anchors  []string
	atEOF    bool
	strict   bool
	trimWS   bool
	format   edit.Format // the edit's format; FormatAuto when unset
	marks    string      // edit.Edit.Marks: a hunk's kept, removed and added lines
	lead     [2]int      // LeadContext, TrailContext

	want     string        // the file after, when the edit applies
	strategy edit.Strategy // "" : don't check
	status   edit.Status   // "" : edit.StatusApplied
	code     edit.Code     // a failure
	lines    [2]int        // LineStart, LineEnd when non-zero
}

func (c locateCase) edit() *edit.Edit {
	e := &edit.Edit{Op: edit.Replace, Old: c.old, New: c.new, Count: 1, Hint: c.hint, Anchors: c.anchors, AtEOF: c.atEOF,
		Format: c.format, Marks: c.marks, LeadContext: c.lead[0], TrailContext: c.lead[1]}
	switch {
	case c.count < 0:
		e.Count = 0
	case c.count > 0:
		e.Count = c.count
	}
	return e
}

func runLocate(t *testing.T, name string, c locateCase) {
	t.Helper()
	loc, err := locate(c.file, c.edit(), matchOptions{Strict: c.strict, TrimTrailingWS: c.trimWS})
	if c.code != "" {
		if err == nil {
			t.Errorf("%s: locate = %+v, want %s", name, loc, c.code)
		} else if err.Code != c.code {
			t.Errorf("%s: locate error %s (%s), want %s", name, err.Code, err.Msg, c.code)
		} else if err.Msg == "" || strings.HasSuffix(err.Msg, ".") || err.Hint == "" || !strings.HasSuffix(err.Hint, ".") {
			t.Errorf("%s: error Msg %q / Hint %q: want a message without a period and a full-sentence hint", name, err.Msg, err.Hint)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: locate error %s: %s (hint %q)", name, err.Code, err.Msg, err.Hint)
		return
	}
	wantStatus := c.status
	if wantStatus == "" {
		wantStatus = edit.StatusApplied
	}
	if loc.Status != wantStatus {
		t.Errorf("%s: status %s, want %s", name, loc.Status, wantStatus)
	}
	if wantStatus == edit.StatusAlreadyApplied && len(loc.Splices) != 0 {
		t.Errorf("%s: already applied with splices %v", name, loc.Splices)
	}
	if c.strategy != "" && loc.Strategy != c.strategy {
		t.Errorf("%s: strategy %s, want %s", name, loc.Strategy, c.strategy)
	}
	want := c.want
	if wantStatus == edit.StatusAlreadyApplied && want == "" {
		want = c.file
	}
	if got := spliced(t, c.file, loc); got != want {
		t.Errorf("%s: result\n got %q\nwant %q", name, got, want)
	}
	if c.lines != [2]int{} && (loc.LineStart != c.lines[0] || loc.LineEnd != c.lines[1]) {
		t.Errorf("%s: lines %d-%d, want %d-%d", name, loc.LineStart, loc.LineEnd, c.lines[0], c.lines[1])
	}
	if len(loc.Splices) > 0 {
		s := loc.Splices[0]
		if loc.Matched != s.Old || loc.Written != s.New {
			t.Errorf("%s: Matched/Written %q/%q do not describe the first splice", name, loc.Matched, loc.Written)
		}
	}
}

func TestLocateExact(t *testing.T) {
	for name, c := range map[string]locateCase{
		"line": {file: "a\nb\nc\n", old: "b\n", new: "B\n", want: "a\nB\nc\n", strategy: edit.StrategyExact, lines: [2]int{2, 2}},
		"subLine": {file: "x := 1\ny := 2\n", old: "y := 2", new: "y := 3",
			want: "x := 1\ny := 3\n", strategy: edit.StrategyExact, lines: [2]int{2, 2}},
		"crlfFileLFEdit": {file: "a\r\nb\r\nc\r\n", old: "a\nb\n", new: "a\nB\nnew\n",
			want: "a\r\nB\r\nnew\r\nc\r\n", strategy: edit.StrategyExact},
		"lfFileCRLFEdit": {file: "a\nb\nc\n", old: "b\r\nc\r\n", new: "b\r\nC\r\n", want: "a\nb\nC\n", strategy: edit.StrategyExact},
		"mixedEndings": {file: "a\r\nb\nc\r\nd\n", old: "b\nc\n", new: "b\nX\nc\n",
			want: "a\r\nb\nX\nc\r\nd\n", strategy: edit.StrategyExact, lines: [2]int{2, 3}},
		"noFinalNewline":        {file: "a\nb", old: "b", new: "B", want: "a\nB"},
		"noFinalNewlineAdd":     {file: "a\nb", old: "a\nb", new: "a\nb\nc", want: "a\nb\nc"},
		"searchWithoutFinalNL":  {file: "a\nb\nc\n", old: "a\nb", new: "a\nB\n", want: "a\nB\nc\n"},
		"replaceWithoutFinalNL": {file: "a\nb\nc\n", old: "b\n", new: "B", want: "a\nB\nc\n"},
		"deleteLines":           {file: "a\nb\nc\n", old: "b\n", new: "", want: "a\nc\n"},
		"stricterWins":          {file: "foo  \nfoo\n", old: "foo\n", new: "bar\n", want: "foo  \nbar\n", strategy: edit.StrategyExact},
		"ambiguous":             {file: "x\ny\nx\n", old: "x\n", new: "z\n", code: edit.CodeMultipleMatches},
		"overlapping":           {file: "a\na\na\n", old: "a\na\n", new: "b\n", code: edit.CodeMultipleMatches},
		"countAll":              {file: "x\ny\nx\n", old: "x", new: "z", count: -1, want: "z\ny\nz\n"},
		"countTwo":              {file: "x\ny\nx\n", old: "x", new: "z", count: 2, want: "z\ny\nz\n"},
		"countTooFew":           {file: "x\ny\nx\n", old: "x", new: "z", count: 3, code: edit.CodeNoMatch},
		"countTooMany":          {file: "x\nx\nx\n", old: "x", new: "z", count: 2, code: edit.CodeMultipleMatches},
		"missing":               {file: "a\nb\n", old: "zzz\n", new: "y\n", code: edit.CodeNoMatch},
		"nonUTF8": {file: "caf\xe9 = 1\nb = \x93q\x94\n", old: "b = \x93q\x94\n", new: "b = \x93r\x94\n",
			want: "caf\xe9 = 1\nb = \x93r\x94\n", strategy: edit.StrategyExact},
		"emptyOld":    {file: "a\n", old: "", new: "b\n", want: "a\nb\n", strategy: edit.StrategyAppend},
		"strictExact": {file: "a\nb\n", old: "b\n", new: "c\n", strict: true, want: "a\nc\n"},
		// An exact SEARCH quotes the file's blanks, so a REPLACE without
		// them is a deliberate cleanup, not a line to keep as the file has it.
		"stripTrailingBlanks": {file: "a\nx := 1 \nb\n", old: "x := 1 \n", new: "x := 1\n",
			want: "a\nx := 1\nb\n", strategy: edit.StrategyExact},
		"addTrailingBlanks": {file: "a\nx\nb\n", old: "a\nx\n", new: "a\nx\t\n",
			want: "a\nx\t\nb\n", strategy: edit.StrategyExact},
		"strictNoDrift": {file: "a  \nb\n", old: "a\nb\n", new: "c\n", strict: true, code: edit.CodeNoMatch},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateTrailingWS(t *testing.T) {
	for name, c := range map[string]locateCase{
		"fileHasTrailing": {file: "func f() {  \n\tx := 1\t\n\treturn x\n}\n",
			old: "func f() {\n\tx := 1\n\treturn x\n}\n", new: "func f() {\n\tx := 2\n\treturn x\n}\n",
			want: "func f() {  \n\tx := 2\n\treturn x\n}\n", strategy: edit.StrategyTrailingWS, lines: [2]int{1, 4}},
		"searchHasTrailing": {file: "a\nb\nc\n", old: "a  \nb \n", new: "a  \nB\n",
			want: "a\nB\nc\n", strategy: edit.StrategyTrailingWS},
		"crlf": {file: "a \r\nb\r\nc\r\n", old: "a\nb\n", new: "a\nb\nx\n",
			want: "a \r\nb\r\nx\r\nc\r\n", strategy: edit.StrategyTrailingWS},
		"lastLineWithoutNewline": {file: "a\nb", old: "a\nb\n", new: "a\nc\n", want: "a\nc"},
		"trimAdded": {file: "a \nb\n", old: "a\nb\n", new: "a\nnew  \nb\n", trimWS: true,
			want: "a \nnew\nb\n"},
		"ambiguous":      {file: "a \nb\na\t\nb\n", old: "a\nb\n", new: "c\n", code: edit.CodeMultipleMatches},
		"emptyAfterTrim": {file: "a\n\nb\n", old: " \n", new: "x\n", code: edit.CodeNoMatch},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateIndent(t *testing.T) {
	goFile := "func f() {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	for name, c := range map[string]locateCase{
		"spacesForTabs": {file: goFile,
			old:  "    if x {\n        return 1\n    }\n",
			new:  "    if x {\n        log(x)\n        return 1\n    }\n",
			want: "func f() {\n\tif x {\n\t\tlog(x)\n\t\treturn 1\n\t}\n\treturn 0\n}\n", strategy: edit.StrategyIndent, lines: [2]int{2, 4}},
		"underIndented": {file: goFile,
			old:  "if x {\n\treturn 1\n}\n",
			new:  "if x && y {\n\treturn 1\n}\n",
			want: "func f() {\n\tif x && y {\n\t\treturn 1\n\t}\n\treturn 0\n}\n", strategy: edit.StrategyIndent},
		"overIndented": {file: goFile,
			old:  "\t\t\tif x {\n\t\t\t\treturn 1\n\t\t\t}\n",
			new:  "\t\t\tif !x {\n\t\t\t\treturn 1\n\t\t\t}\n",
			want: "func f() {\n\tif !x {\n\t\treturn 1\n\t}\n\treturn 0\n}\n", strategy: edit.StrategyIndent},
		"pythonSpaces": {file: "class A:\n    def f(self):\n        return 1\n",
			old:  "def f(self):\n    return 1\n",
			new:  "def f(self):\n    return 2\n",
			want: "class A:\n    def f(self):\n        return 2\n", strategy: edit.StrategyIndent},
		"crlf": {file: "func f() {\r\n\tx()\r\n}\r\n", old: "    x()\n}\n", new: "    x()\n    y()\n}\n",
			want: "func f() {\r\n\tx()\r\n\ty()\r\n}\r\n", strategy: edit.StrategyIndent},
		"alignmentSpaces": {file: "\tf(a,\n\t  b)\n", old: "    f(a,\n      b)\n", new: "    f(a,\n      b,\n      c)\n",
			want: "\tf(a,\n\t  b,\n\t  c)\n", strategy: edit.StrategyIndent},
		// A tab before spaces: the lines written take the tab as it is, not
		// the widths in the file's style, which would break the mix.
		"tabThenSpaces": {file: "def f(a):\n\tif a:\n\t    b()\n\t    d()\n", old: "if a:\n    b()\n", new: "if a:\n    c()\n        e()\n",
			want: "def f(a):\n\tif a:\n\t    c()\n\t        e()\n\t    d()\n", strategy: edit.StrategyIndent},
		"inconsistent": {file: "if a:\n    b()\n    c()\n",
			old: "if a:\n    b()\nc()\n", new: "if a:\n    d()\n", code: edit.CodeNoMatch},
		"ambiguous": {file: "\tx()\n\ty()\n\t\tx()\n\t\ty()\n", old: "x()\ny()\n", new: "z()\n", code: edit.CodeMultipleMatches},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateWhitespaceUnicode(t *testing.T) {
	for name, c := range map[string]locateCase{
		"innerRuns": {file: "type T struct {\n\tName    string\n\tAge     int\n}\n",
			old:  "\tName string\n\tAge int\n",
			new:  "\tName string\n\tAge int64\n",
			want: "type T struct {\n\tName    string\n\tAge int64\n}\n", strategy: edit.StrategyWhitespace},
		"curlyQuotes": {file: "// Say \"hi\" to Bob's friend.\nx := 1\n",
			old:  "// Say “hi” to Bob’s friend.\nx := 1\n",
			new:  "// Say “hi” to Bob’s friend.\nx := 2\n",
			want: "// Say \"hi\" to Bob's friend.\nx := 2\n", strategy: edit.StrategyUnicode},
		"nbspAndDash": {file: "a - b\nc := 1\n", old: "a\u00a0\u2013 b\nc := 1\n", new: "a\u00a0\u2013 b\nc := 3\n",
			want: "a - b\nc := 3\n", strategy: edit.StrategyUnicode},
		"ellipsis": {file: "fmt.Println(\"wait...\")\n", old: "fmt.Println(\"wait…\")\n", new: "fmt.Println(\"done\")\n",
			want: "fmt.Println(\"done\")\n", strategy: edit.StrategyUnicode},
		// A changed line takes the file's ASCII where the model's old
		// text wrote it as typography: curly quotes break code.
		"changedLineRetyped": {file: "s := \"it's\"\n", old: "s := \"it’s\"\n", new: "s := \"it’s ok\"\n",
			want: "s := \"it's ok\"\n", strategy: edit.StrategyUnicode},
		"curlyInCode": {file: "say(\"hi\", 1)\n", old: "say(“hi”, 1)\n", new: "say(“hi”, 2)\nsay(“bye”, 3)\n",
			want: "say(\"hi\", 2)\nsay(\"bye\", 3)\n", strategy: edit.StrategyUnicode},
		// A class the file also writes typographically is kept as sent:
		// which spelling a new line means is a guess.
		"classInFileAsSent": {file: "s = \"a\" // “b”\nt = 1\n", old: "s = “a” // “b”\nt = 1\n", new: "s = “a” // “b”\nt = “c”\n",
			want: "s = \"a\" // “b”\nt = “c”\n", strategy: edit.StrategyUnicode},
		"otherClassRetyped": {file: "s = 'a' // “b”\nt = 1\n", old: "s = ‘a’ // “b”\nt = 1\n", new: "s = ‘a’ // “b”\nt = ‘c’\n",
			want: "s = 'a' // “b”\nt = 'c'\n", strategy: edit.StrategyUnicode},
		"fileCurly": {file: "// “quoted”\nx\n", old: "// \"quoted\"\nx\n", new: "// \"quoted\"\ny\n",
			want: "// “quoted”\ny\n", strategy: edit.StrategyUnicode},
		"emDashForDoubleHyphen": {file: "// a -- b\nx := 1\n", old: "// a — b\nx := 1\n", new: "// a — b\nx := 2\n",
			want: "// a -- b\nx := 2\n", strategy: edit.StrategyUnicode},
		"emDashWhereFileDoubles": {file: "// a -- b\nx := 1\n", old: "// a — b\nx := 1\n", new: "// a — b\nx := 2 // c — d\n",
			want: "// a -- b\nx := 2 // c — d\n", strategy: edit.StrategyUnicode},
		"emDashRetyped": {file: "// a - b\nx := 1\n", old: "// a — b\nx := 1\n", new: "// a — b\nx := 2 // c — d\n",
			want: "// a - b\nx := 2 // c - d\n", strategy: edit.StrategyUnicode},
		"nonUTF8Kept": {file: "s = \"\x93a\x94\"  \nt = 1\n", old: "s = \"\x93a\x94\"\nt = 1\n", new: "s = \"\x93a\x94\"\nt = 2\n",
			want: "s = \"\x93a\x94\"  \nt = 2\n", strategy: edit.StrategyTrailingWS},
		"ambiguous": {file: "a  b\nc\na b\nc\n", old: "a   b\nc\n", new: "x\n", code: edit.CodeMultipleMatches},
	} {
		runLocate(t, name, c)
	}
}

// TestTypographyNoted: an edit whose new lines were respelled in the
// file's ASCII says so, and one written as sent does not.
func TestTypographyNoted(t *testing.T) {
	for _, c := range []struct {
		file, old, new string
		noted          bool
	}{
		{"say(\"hi\", 1)\n", "say(“hi”, 1)\n", "say(“hi”, 2)\n", true},
		{"say(\"hi\", 1)\n", "say(“hi”, 1)\n", "say(2)\n", false},
		{"// “b” \"a\"\nx\n", "// “b” “a”\nx\n", "// “b” “a”\ny “c”\n", false},
	} {
		loc, err := locate(c.file, &edit.Edit{Path: "f", Old: c.old, New: c.new}, matchOptions{})
		if err != nil {
			t.Fatalf("%q → %q: %v", c.old, c.new, err)
		}
		if noted := strings.Contains(loc.Note, noteTypography); noted != c.noted {
			t.Errorf("%q → %q in %q: note %q, want the typography note: %v", c.old, c.new, c.file, loc.Note, c.noted)
		}
	}
}

func TestLocateElision(t *testing.T) {
	file := "func f() {\n\ta()\n\tb()\n\tc()\n\td()\n}\n"
	for name, c := range map[string]locateCase{
		"middle": {file: file,
			old:  "func f() {\n\t// ... existing code ...\n\td()\n}\n",
			new:  "func f() {\n\t// ... existing code ...\n\td(1)\n}\n",
			want: "func f() {\n\ta()\n\tb()\n\tc()\n\td(1)\n}\n", strategy: edit.StrategyElision, lines: [2]int{1, 6}},
		"leadingGap": {file: file, old: "\t// ...\n\td()\n}\n", new: "\t// ...\n\td(1)\n}\n",
			want: "func f() {\n\ta()\n\tb()\n\tc()\n\td(1)\n}\n", strategy: edit.StrategyElision, lines: [2]int{5, 6}},
		"trailingGap": {file: file, old: "func f() {\n\ta()\n// ... rest unchanged ...\n", new: "func f() {\n\tA()\n// ... rest unchanged ...\n",
			want: "func f() {\n\tA()\n\tb()\n\tc()\n\td()\n}\n", strategy: edit.StrategyElision, lines: [2]int{1, 2}},
		"gapIndentShift": {file: file, old: "func f() {\n    // ...\n    d()\n}\n", new: "func f() {\n    // ...\n    d()\n    e()\n}\n",
			want: "func f() {\n\ta()\n\tb()\n\tc()\n\td()\n\te()\n}\n", strategy: edit.StrategyElision},
		"minimalRun": {file: "x\ny\nx\ny\n", old: "x\n...\ny\n", new: "x\n...\nz\n", code: edit.CodeMultipleMatches},
		"twoGaps": {file: file,
			old:  "func f() {\n// ...\n\tb()\n// ...\n}\n",
			new:  "func f() {\n// ...\n\tB()\n// ...\n}\n",
			want: "func f() {\n\ta()\n\tB()\n\tc()\n\td()\n}\n", strategy: edit.StrategyElision},
		"hashComment": {file: "def f():\n    a = 1\n    b = 2\n    return a\n",
			old:  "def f():\n    # ... rest unchanged ...\n    return a\n",
			new:  "def f():\n    # ... rest unchanged ...\n    return a + b\n",
			want: "def f():\n    a = 1\n    b = 2\n    return a + b\n", strategy: edit.StrategyElision},
		"replaceDropsGap":      {file: file, old: "func f() {\n\t// ...\n\td()\n}\n", new: "func f() {\n\td()\n}\n", code: edit.CodeElision},
		"replaceAddsGap":       {file: file, old: "\tb()\n\tc()\n", new: "\tb()\n\t// ... rest of the code unchanged ...\n", code: edit.CodeElision},
		"placeholderInFile":    {file: "a()\n// ...\nb()\n", old: "b()\n", new: "b()\n// ...\n", want: "a()\n// ...\nb()\n// ...\n"},
		"placeholderSubstring": {file: "f(xs...)\n// ... and more\nb()\n", old: "b()\n", new: "b()\n...\n", code: edit.CodeElision},
		"literalPlaceholder": {file: "a()\n// ...\nb()\n", old: "a()\n// ...\nb()\n", new: "a()\n// ...\nc()\n",
			want: "a()\n// ...\nc()\n", strategy: edit.StrategyExact},
		// A bare "..." in the old text is a gap only where the file does
		// not have it: a placeholder of the new text at its place is then
		// the same elision, and otherwise drops the lines around it.
		"otherPlaceholderForGap": {file: "a = 1\nb = 2\nc = 3\nd = 4\n", old: "a = 1\n...\nd = 4\n", new: "a = 1\nx = 9\n# rest unchanged\nd = 4\n",
			want: "a = 1\nx = 9\nb = 2\nc = 3\nd = 4\n", strategy: edit.StrategyElision},
		"otherPlaceholderForLiteralDots": {file: "a = 1\nb = 2\n...\nc = 3\nd = 4\n", old: "a = 1\nb = 2\n...\nc = 3\nd = 4\n",
			new: "a = 1\nx = 9\n# rest unchanged\nd = 4\n", code: edit.CodeElision},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateHint(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		if i == 10 || i == 40 {
			b.WriteString("dup()\n")
		} else {
			fmt.Fprintf(&b, "l%d\n", i)
		}
	}
	file := b.String()
	last := strings.LastIndex(file, "dup()")
	want40 := file[:last] + "new()" + file[last+len("dup()"):]
	for name, c := range map[string]locateCase{
		"exactHint":   {file: file, old: "dup()\n", new: "new()\n", hint: 40, want: want40, strategy: edit.StrategyLineHint, lines: [2]int{40, 40}},
		"nearHint":    {file: file, old: "dup()\n", new: "new()\n", hint: 37, want: want40, strategy: edit.StrategyLineHint},
		"farHint":     {file: file, old: "dup()\n", new: "new()\n", hint: 25, code: edit.CodeMultipleMatches},
		"tieHint":     {file: "a\nx\nb\nx\n", old: "x\n", new: "y\n", hint: 3, code: edit.CodeMultipleMatches},
		"noHint":      {file: file, old: "dup()\n", new: "new()\n", code: edit.CodeMultipleMatches},
		"staleUniq":   {file: file, old: "l9\ndup()\n", new: "l9\nnew()\n", hint: 200, want: strings.Replace(file, "l9\ndup()", "l9\nnew()", 1), strategy: edit.StrategyExact},
		"tolerantTie": {file: "a \nb\na\t\nb\n", old: "a\nb\n", new: "c\n", hint: 3, want: "a \nb\nc\n", strategy: edit.StrategyLineHint},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateAlreadyApplied(t *testing.T) {
	for name, c := range map[string]locateCase{
		"newPresent":   {file: "a\nB\nc\n", old: "b\n", new: "B\n", status: edit.StatusAlreadyApplied, lines: [2]int{2, 2}},
		"sameText":     {file: "a\nb\nc\n", old: "b\n", new: "b\n", status: edit.StatusAlreadyApplied},
		"insertResent": {file: "import (\n\t\"fmt\"\n\t\"os\"\n)\n", old: "\t\"fmt\"\n", new: "\t\"fmt\"\n\t\"os\"\n", status: edit.StatusAlreadyApplied},
		"insertFresh": {file: "import (\n\t\"fmt\"\n)\n", old: "\t\"fmt\"\n", new: "\t\"fmt\"\n\t\"os\"\n",
			want: "import (\n\t\"fmt\"\n\t\"os\"\n)\n"},
		"insertElsewhere": {file: "a\nb\nx\na\n", old: "a\n", new: "a\nb\n", code: edit.CodeMultipleMatches},
		"newTolerant":     {file: "a\n\tB()  \nc\n", old: "    b()\n", new: "    B()\n", status: edit.StatusAlreadyApplied},
		"neitherFound":    {file: "a\n", old: "b\n", new: "c\n", code: edit.CodeNoMatch},
		"deletionNoNew":   {file: "a\n", old: "b\n", new: "", code: edit.CodeNoMatch},
		"newAmbiguous":    {file: "B\nB\n", old: "b\n", new: "B\n", code: edit.CodeNoMatch},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateAnchorsAndEOF(t *testing.T) {
	file := "func a() {\n\treturn nil\n}\n\nfunc b() {\n\treturn nil\n}\n"
	for name, c := range map[string]locateCase{
		"anchor": {file: file, anchors: []string{"func b() {"}, old: "\treturn nil\n", new: "\treturn err\n",
			want: strings.Replace(file, "b() {\n\treturn nil", "b() {\n\treturn err", 1), lines: [2]int{6, 6}},
		"anchorIndented": {file: file, anchors: []string{"  func b() {  "}, old: "\treturn nil\n", new: "\treturn err\n",
			want: strings.Replace(file, "b() {\n\treturn nil", "b() {\n\treturn err", 1)},
		"anchorRepeated": {file: file, anchors: []string{"func b() {"}, old: "func b() {\n\treturn nil\n", new: "func b() {\n\treturn err\n",
			want: strings.Replace(file, "b() {\n\treturn nil", "b() {\n\treturn err", 1)},
		"anchorMissing": {file: file, anchors: []string{"func c() {"}, old: "\treturn nil\n", new: "\treturn err\n", code: edit.CodeNoMatch},
		"anchorInsert": {file: file, anchors: []string{"func a() {"}, old: "", new: "\tlog()\n",
			want: "func a() {\n\tlog()\n\treturn nil\n}\n\nfunc b() {\n\treturn nil\n}\n"},
		"anchorInsertResent": {file: "func a() {\n\tlog()\n\treturn nil\n}\n", anchors: []string{"func a() {"}, old: "", new: "\tlog()\n",
			status: edit.StatusAlreadyApplied},
		"atEOF":           {file: "x\ny\nx\n", old: "x\n", new: "z\n", atEOF: true, want: "x\ny\nz\n"},
		"atEOFNoNL":       {file: "x\ny\nx", old: "x\n", new: "z\n", atEOF: true, want: "x\ny\nz"},
		"atEOFMissing":    {file: "x\ny\n", old: "x\n", new: "z\n", atEOF: true, code: edit.CodeNoMatch},
		"append":          {file: "a\n", old: "", new: "b\n", atEOF: true, want: "a\nb\n"},
		"appendNoFinalNL": {file: "a", old: "", new: "b\n", atEOF: true, want: "a\nb"},
		"appendCRLF":      {file: "a\r\n", old: "", new: "b\nc\n", atEOF: true, want: "a\r\nb\r\nc\r\n"},
		"appendResent":    {file: "a\nb\n", old: "", new: "b\n", atEOF: true, status: edit.StatusAlreadyApplied},
		"appendEmptyFile": {file: "", old: "", new: "b\n", atEOF: true, want: "b\n"},
		"insertAtHint":    {file: "a\nb\nc\n", old: "", new: "x\n", hint: 2, want: "a\nx\nb\nc\n", strategy: edit.StrategyLineHint},
		"insertAtEnd":     {file: "a\n", old: "", new: "x\n", hint: 2, want: "a\nx\n", strategy: edit.StrategyLineHint},
		"insertPastEnd":   {file: "a\n", old: "", new: "x\n", hint: 9, code: edit.CodeNoMatch},
		"insertResent":    {file: "a\nx\nb\n", old: "", new: "x\n", hint: 2, status: edit.StatusAlreadyApplied},
		// A blank line stands next to any blank line: inserted as asked,
		// never taken for a retry.
		"insertBlankBeforeBlank": {file: "a\n\nb\n", old: "", new: "\n", hint: 2, want: "a\n\n\nb\n", strategy: edit.StrategyLineHint},
		"appendBlankAfterBlank":  {file: "a\n\n", old: "", new: "\n", want: "a\n\n\n", strategy: edit.StrategyAppend},
	} {
		runLocate(t, name, c)
	}
}

func TestLocateCandidates(t *testing.T) {
	file := "package p\n\nfunc f() int {\n\tx := 1\n\ty := 2\n\treturn x + y\n}\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1,
		Old: "func f() int {\n\tx = 1\n\ty := 2\n", New: "func f() int {\n\tx = 3\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch {
		t.Fatalf("locate = %v, want NO_MATCH", err)
	}
	if len(err.Candidates) == 0 {
		t.Fatalf("no candidates")
	}
	c := err.Candidates[0]
	if c.LineStart != 3 || c.LineEnd != 5 || c.Similarity <= 0.5 || c.Similarity >= 1 || !strings.Contains(c.Excerpt, "x := 1") {
		t.Errorf("best candidate %+v", c)
	}
	wantHint := "Line 4 differs: the file has `\tx := 1`, the SEARCH has `\tx = 1`. Copy lines 3-5 exactly as they stand."
	if err.Hint != wantHint {
		t.Errorf("hint %q\nwant %q", err.Hint, wantHint)
	}

	_, err = locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: "completely\nunrelated\n", New: "x\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) != 0 || err.Hint == "" {
		t.Errorf("hallucinated: %+v", err)
	}

	_, err = locate("a\nb\na\nb\n", &edit.Edit{Op: edit.Replace, Count: 1, Old: "a\nb\n", New: "c\n"}, matchOptions{})
	if err == nil || len(err.Candidates) != 2 || err.Candidates[1].LineStart != 3 || err.Candidates[0].Similarity != 1 {
		t.Errorf("MULTIPLE_MATCHES candidates: %+v", err)
	}
}

func TestSameContent(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"a\nb\n", "a\nb\n", true},
		{"a\r\nb\r\n", "a\nb", true},
		{"a  \nb\n\n", "a\nb\n", true},
		{"a\nb\n", "a\nc\n", false},
		{"a\n", "a\nb\n", false},
	} {
		if got := SameContent(c.a, c.b); got != c.want {
			t.Errorf("SameContent(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestFoldPunct(t *testing.T) {
	for in, want := range map[string]string{
		"plain":             "plain",
		"a -- b":            "a - b",
		"a — b – c":         "a - b - c",
		"“q” ‘s’":           "\"q\" 's'",
		"x\u00a0y…":         "x y...",
		"caf\xe9 \x93q\x94": "caf\xe9 \x93q\x94",
		"i--":               "i-",
	} {
		if got := foldPunct(in); got != want {
			t.Errorf("foldPunct(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLocateOtherLanguages(t *testing.T) {
	py := "class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 0\n"
	yaml := "jobs:\n  build:\n    runs-on: ubuntu-latest  \n    steps:\n      - uses: actions/checkout@v4\n"
	md := "# Title\n\nIt’s a “test” — really.\n\n- item one\n- item two\n"
	js := "{\n  \"name\": \"x\",\n  \"deps\": {\n    \"a\": \"1.0\"\n  }\n}\n"
	sh := "#!/bin/sh\nset -e\necho start\nmake build\nmake test\necho done\n"
	for name, c := range map[string]locateCase{
		"pythonUnderIndented": {file: py, old: "if x:\n    return 1\nreturn 0\n", new: "if x:\n    return 1\nif x is None:\n    return -1\nreturn 0\n",
			want: "class A:\n    def f(self, x):\n        if x:\n            return 1\n        if x is None:\n            return -1\n        return 0\n", strategy: edit.StrategyIndent},
		"pythonWrongNesting": {file: py, old: "if x:\nreturn 1\n", new: "if x:\nreturn 2\n", code: edit.CodeNoMatch},
		"yamlTrailing": {file: yaml, old: "    runs-on: ubuntu-latest\n    steps:\n", new: "    runs-on: ubuntu-24.04\n    steps:\n",
			want: "jobs:\n  build:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n", strategy: edit.StrategyTrailingWS},
		"markdownTypography": {file: md, old: "It's a \"test\" -- really.\n\n- item one\n", new: "It's a \"test\" -- really.\n\n- item zero\n- item one\n",
			want: "# Title\n\nIt’s a “test” — really.\n\n- item zero\n- item one\n- item two\n", strategy: edit.StrategyUnicode},
		"jsonUnderIndented": {file: js, old: "\"deps\": {\n  \"a\": \"1.0\"\n}\n", new: "\"deps\": {\n  \"a\": \"1.0\",\n  \"b\": \"2.0\"\n}\n",
			want: "{\n  \"name\": \"x\",\n  \"deps\": {\n    \"a\": \"1.0\",\n    \"b\": \"2.0\"\n  }\n}\n", strategy: edit.StrategyIndent},
		"yamlBareDots": {file: yaml, old: "  build:\n    ...\n      - uses: actions/checkout@v4\n", new: "  build:\n    ...\n      - uses: actions/checkout@v5\n",
			want: strings.Replace(yaml, "@v4", "@v5", 1), strategy: edit.StrategyElision},
		"pythonEllipsisLiteral": {file: "class P:\n    def f(self):\n        ...\n", old: "    def f(self):\n        ...\n", new: "    def f(self):\n        return 1\n",
			want: "class P:\n    def f(self):\n        return 1\n", strategy: edit.StrategyExact},
		"shellElision": {file: sh, old: "set -e\n# ... existing steps ...\necho done\n", new: "set -e\n# ... existing steps ...\nmake install\necho done\n",
			want: "#!/bin/sh\nset -e\necho start\nmake build\nmake test\nmake install\necho done\n", strategy: edit.StrategyElision},
	} {
		runLocate(t, name, c)
	}
}

// TestSentAsIs holds finder.sentAsIs to its claim: when it says an exact
// hit's new text is written as sent, write, given the lines paired, writes
// exactly that; and it does say so for plain edits, or the shortcut
// would be dead code.
func TestSentAsIs(t *testing.T) {
	for _, c := range []struct {
		content, old, new string
		asIs              bool
	}{
		{"a\nb\nc\n", "a\nb\n", "a\nB\n", true},
		{"a\nb\nc\n", "b\nc", "x\nc", true},
		{"a\nb\nc", "b\nc", "b\nc\nd", true},
		{"  x\n  y\n", "  x\n  y\n", "\tx\n  y\n  z\n", true},
		{"a\r\nb\r\n", "a\r\nb\r\n", "a\r\nB\r\n", false},             // CRLF: the file's endings are written
		{"a\nb\n", "a\nb\n", "a\nb", false},                           // the new text lost its final newline
		{"a\nb", "a\nb\n", "a\nB\n", false},                           // the hit ends a file without one
		{"if x:\n// ...\n", "if x:\n// ...\n", "if x:\n...\n", false}, // a gap line is paired with the old one
		{"f(\n// ...\n)\n", "f(\n// ...\n)\n", "g(\n// ...\n)\n", false},
	} {
		f := newFinder(c.content)
		op, np := newPattern(c.old), newPattern(c.new)
		hits := f.exactHits(op, 0, 10)
		if len(hits) == 0 {
			t.Fatalf("%q not found in %q", c.old, c.content)
		}
		for _, h := range hits {
			asIs := f.sentAsIs(op, np, h, false)
			if asIs != c.asIs {
				t.Errorf("sentAsIs(%q → %q in %q) = %v, want %v", c.old, c.new, c.content, asIs, c.asIs)
			}
			if !asIs {
				continue
			}
			if w, _ := f.write(np, np.finalNL, pairLines(op, np, true, false), h, f.units(op, h), false, nil); w != np.text {
				t.Errorf("%q → %q in %q: write gives %q, not the new text", c.old, c.new, c.content, w)
			}
		}
	}
}

// TestLocateHintPastManyPlaces: the line-hint rung judges every place of
// the old text, not the first few the file holds, and a MULTIPLE_MATCHES
// for an edit that names a line lists the places nearest it first.
func TestLocateHintPastManyPlaces(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 2*maxListed+60; i++ {
		if i <= 2*maxListed || i == 2*maxListed+40 || i == 2*maxListed+50 {
			b.WriteString("}\n")
		} else {
			fmt.Fprintf(&b, "l%d\n", i)
		}
	}
	file := b.String()
	at := 2*maxListed + 40 // the hinted place
	want := strings.Join(strings.SplitAfter(file, "\n")[:at-1], "") + "} // x\n" + strings.Join(strings.SplitAfter(file, "\n")[at:], "")
	runLocate(t, "hinted", locateCase{file: file, old: "}\n", new: "} // x\n", hint: at, want: want,
		strategy: edit.StrategyLineHint, lines: [2]int{at, at}})

	// Halfway between two places, the hint decides nothing.
	e := &edit.Edit{Op: edit.Replace, Old: "}\n", New: "} // x\n", Count: 1, Hint: 2*maxListed + 45}
	_, err := locate(file, e, matchOptions{})
	if err == nil || err.Code != edit.CodeMultipleMatches {
		t.Fatalf("got %v, want MULTIPLE_MATCHES", err)
	}
	if len(err.Candidates) != maxListed {
		t.Fatalf("%d candidates, want %d", len(err.Candidates), maxListed)
	}
	if got := []int{err.Candidates[0].LineStart, err.Candidates[1].LineStart}; got[0] != 2*maxListed+40 || got[1] != 2*maxListed+50 {
		t.Errorf("first candidates at lines %v, want the two places nearest line %d", got, e.Hint)
	}
	if !strings.Contains(err.Msg, fmt.Sprintf("found %d times", 2*maxListed+2)) {
		t.Errorf("message %q does not count every place", err.Msg)
	}
	if !strings.Contains(err.Hint, fmt.Sprintf("lines %d, %d,", 2*maxListed+40, 2*maxListed+50)) {
		t.Errorf("hint %q does not name the nearest places first", err.Hint)
	}
}
