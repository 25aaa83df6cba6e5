package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func TestElidedRewrite(t *testing.T) {
	orig := "package p\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n}\n"
	md := "# T\n\nIntro.\n\n## A\n\nBody a.\n\n## B\n\nBody b.\n"
	mdMore := strings.Repeat("\n## C\n\nMore body c.\nAnd more.\n", 4)
	py := "import os\n\n\ndef f(a):\n    b = a + 1\n    c = b * 2\n    d = c - 3\n    e = d // 4\n    return e\n\n\nclass B:\n    def g(self):\n        return 1\n\n    def h(self):\n        return 2\n\n\nclass C:\n    pass\n\n\nclass D:\n    pass\n"
	for name, c := range map[string]struct {
		original, rewritten string
		line                int // 0: not elided
	}{
		"full":           {orig, orig + "\nfunc c() {}\n", 0},
		"existingCode":   {orig, "package p\n\n// ... existing code ...\n\nfunc b() {\n\ty(1)\n}\n", 3},
		"restOfFile":     {orig, "package p\n\nfunc a() {\n\tx(1)\n}\n\n// (rest of file unchanged)\n", 7},
		"bareDots":       {orig, "package p\n\nfunc a() {\n\tx(1)\n}\n...\n", 6},
		"dotsComment":    {orig, "package p\n\nfunc a() {\n\t// ...\n}\n", 4},
		"blockComment":   {orig, "package p\n/* ... */\n", 2},
		"html":           {"<p>a</p>\n<p>b</p>\n", "<p>a</p>\n<!-- ... rest unchanged ... -->\n", 2},
		"hash":           {"a = 1\nb = 2\n", "a = 2\n# ... rest of the file unchanged ...\n", 2},
		"inOriginal":     {"a()\n// ...\nb()\n", "a(1)\n// ...\nb()\n", 0},
		"pyEllipsis":     {"def f(): ...\n", "def f(): ...\n\ndef g(): ...\n", 0},
		"pyEllipsisBody": {"class P:\n    pass\n", "class P:\n    def f(self) -> int:\n        ...\n", 0},
		"pyStubDoc":      {"x = 1\n", "def f():\n    \"\"\"Doc.\"\"\"\n    ...\n", 0},
		"pySlice":        {"x = a[0]\n", "x = a[..., 0]\n", 0},
		// A bare "..." after a line ending in ':' reads as Python's
		// Ellipsis, but ending a rewrite that lost most of the original's
		// tail (here a Markdown directive block) it is a cut.
		"mdDotsAfterColon": {md + "```{toctree}\n:hidden:\n\nintro\n```\n" + mdMore,
			"# T\n\nIntro, clarified.\n\n## A\n\nBody a.\n\n```{toctree}\n:hidden:\n\n...\n", 12},
		"jsSpread":    {"f(a)\n", "f(...args)\nconst o = {...rest};\n", 0},
		"goVariadic":  {"f(a)\n", "f(args...)\nfunc g(xs ...int) {}\n", 0},
		"proseDots":   {"x\n", "// wait for it...\nx\n", 0},
		"realComment": {"x\n", "// The rest of the buffer is zeroed by the caller so that reads stay cheap.\nx\n", 0},

		// Placeholders that are not comments (red team R4).
		"mdParens":       {md, "# T\n\nIntro!\n\n(rest of file unchanged)\n", 5},
		"mdBrackets":     {md, "# T\n\nIntro!\n\n[...]\n", 5},
		"mdBracketsU":    {md, "# T\n\nIntro!\n\n[…]\n", 5},
		"mdRestDoc":      {md, "# T\n\nIntro!\n\n[rest of the document unchanged]\n", 5},
		"mdHTMLContent":  {md, "# T\n\nIntro!\n\n<!-- existing content -->\n", 5},
		"mdItalic":       {md, "# T\n\nIntro!\n\n*(remaining sections unchanged)*\n", 5},
		"mdParenDots":    {md, "# T\n\nIntro!\n\n(...)\n", 5},
		"pyEtc":          {"import os\nx = 1\ny = 2\n", "import os\nx = 2\n# etc.\n", 3},
		"shNoop":         {"#!/bin/sh\nset -e\necho a\necho b\n", "#!/bin/sh\nset -e\necho A\n: # rest unchanged\n", 4},
		"jsonDots":       {"{\n  \"a\": 1,\n  \"b\": 2\n}\n", "{\n  \"a\": 3,\n  \"...\": \"...\"\n}\n", 3},
		"sameAsBefore":   {orig, "package p\n\n// same as before\n\nfunc b() {\n\ty(1)\n}\n", 3},
		"labelOmitted":   {orig, "package p\n\n// helpers omitted\n\nfunc b() {\n\ty(1)\n}\n", 3},
		"brevity":        {orig, "package p\n\n// (omitted for brevity)\n", 3},
		"mdInOriginal":   {"a\n\n[...]\n\nb\n", "A\n\n[...]\n\nb\n", 0},
		"yamlDocEnd":     {"a: 1\n", "a: 1\n...\n---\nb: 2\n", 0},
		"yamlDocEndCmt":  {"a: 1\n", "a: 1\n...\n\n# next\n---\nb: 2\n", 0},
		"mdRuleAfter":    {md, "# T\n\nIntro!\n...\n---\n", 4},
		"etcInComment":   {"x = 1\n", "# Handles a, b\n# etc.\nx = 1\n", 0},
		"unchangedProse": {"x\n", "// Sub returns fsys unchanged.\nx\n", 0},
		"jsSetLike":      {"f()\n", "f({...a})\n", 0},

		// Python's "..." that cannot be a body of its own (red team P3).
		"pyEllipsisThenMore": {py, "import os\n\n\ndef f(a):\n    ...\n    return a\n", 5},
		"pyStubbedBody":      {py, "import os\n\n\ndef f(a):\n    b = a + 1\n    c = b * 2\n    d = c - 3\n    e = d // 4\n    return e\n\n\nclass B:\n    ...\n", 13},
		"pyNewProtocol":      {"x = 1\n", "x = 1\n\nclass P(Protocol):\n    ...\n    def f(self): ...\n", 0},
		"pyPassToEllipsis":   {"def f():\n    pass\n", "def f():\n    ...\n", 0},
		"pyEllipsisInOrig":   {"def g(): \n    ...\n" + py, "def g(): \n    ...\n\ndef f(a):\n    ...\n    return a\n", 0},
		"pyDropFunction":     {py, "import os\n\n\nclass Z:\n    ...\n", 0}, // Z is new: a stub; the rest is deleted

		// A rewrite cut short by a note that is in no list (P1 backstop).
		"tailProse":     {md + mdMore, "# T\n\nIntro!\n\n## A\n\nRest of the document as it was.\n", 7},
		"tailComment":   {py, "import os\n\n\ndef f(a):\n    b = a + 1\n# keep the remaining helpers\n", 6},
		"tailOrigLine":  {md + mdMore, "# T\n\nIntro!\n\n## A\n\nBody a.\n", 0},
		"tailCode":      {py, "import os\n\n\ndef f(a):\n    return 2  # rest\n", 0},
		"tailShortFile": {md, "# T\n\nIntro!\n\nRest of the document as it was.\n", 0},
		"tailRewritten": {md + mdMore, "# New\n\nOther intro.\n\nRest of the document as it was.\n", 0},
		// A list's end after a comment continues it, unless the rewrite
		// stops there and loses the original's tail.
		"tailEtcAfterComment": {py, "import os\n\n\ndef f(a):\n    b = a + 1\n# A helper\n# etc.\n", 7},
		"etcAfterCommentKept": {py, "import os\n\n# Handles a, b\n# etc.\n" + py[len("import os\n"):], 0},
		// A bare "..." at the margin ends the rewrite; the original's only
		// "..." is indented, in a sample: a cut still.
		"tailDotsOrigIndented": {md + "\n    ...\n" + mdMore, "# T\n\nIntro!\n\n## A\n- item\n...\n", 7},
		"tailDotsOrigMargin":   {md + "\n...\n" + mdMore, "# T\n\nIntro!\n\n## A\n- item\n...\n", 0},
	} {
		line, elided := elidedRewrite(c.original, c.rewritten)
		if elided != (c.line > 0) || line != c.line {
			t.Errorf("%s: elidedRewrite = %d, %v, want line %d", name, line, elided, c.line)
		}
	}
}

func TestElidedReplacement(t *testing.T) {
	for name, c := range map[string]struct {
		old, new string
		line     int
	}{
		"plain":            {"a\nb\n", "a\nc\n", 0},
		"dropsCode":        {"a\nb\nc\nd\n", "a\nB\n// ... rest of the code unchanged ...\n", 3},
		"samePlace":        {"a\n// ... existing code ...\nd\n", "a\n// ... existing code ...\nD\n", 0},
		"otherWording":     {"a\n// ...\nd\n", "a\n    # ... existing code ...\nD\n", 0},
		"movedPlaceholder": {"a\n// ...\nd\n", "a\nd\n// ...\n", 3},
		"spread":           {"f(a)\n", "f(...a)\n", 0},
		"variadic":         {"f(a)\n", "f(a...)\n", 0},
		"pyBody":           {"def f():\n    pass\n", "def f():\n    ...\n", 0},
		"bare":             {"a\nb\nc\n", "a\n...\n", 2},
	} {
		line, elided := elidedReplacement(c.old, c.new)
		if elided != (c.line > 0) || line != c.line {
			t.Errorf("%s: elidedReplacement = %d, %v, want line %d", name, line, elided, c.line)
		}
	}
}

// TestIsPlaceholder is the one table of the placeholder rule, which the
// ladder and package lint share: lines a model writes for code it left
// out, and ordinary lines (code, comments, prose) that must not be taken
// for one.
func TestIsPlaceholder(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"...", true},
		{"…", true},
		{"// ...", true},
		{"  // ... existing code ...", true},
		{"# ... rest unchanged ...", true},
		{"/* ... */", true},
		{"<!-- ... -->", true},
		{"// (rest of file unchanged)", true},
		{"// ... rest of the code unchanged ...", true},
		{"{/* ... */}", true},
		{"-- ...", true},
		{"// rest of the function", true},
		{"# existing code", true},
		{"// … unchanged …", true},
		{"// . . .", true},
		{"(rest of file unchanged)", true},
		{"[...]", true},
		{"[…]", true},
		{"(...)", true},
		{"{...}", true},
		{"[rest of the document unchanged]", true},
		{"<!-- existing content -->", true},
		{"# etc.", true},
		{": # rest unchanged", true},
		{`"...": "..."`, true},
		{`  "...": "...",`, true},
		{`"…": …`, true},
		{"*[...]*", true},
		{"_(unchanged)_", true},
		{"**(rest of the file unchanged)**", true},
		{"# (unchanged)", true},
		{"// same as above", true},
		{"// imports unchanged", true},
		{"# tests as before", true},
		{"<!-- omitted for brevity -->", true},
		{"(remaining content)", true},
		{"// and so on", true},
		{"[truncated]", true},
		{"// rest same as before", true},
		{"// ... existing code ...", true},
		{"\t\t// ... existing code ...", true},
		{"// ...existing code...", true},
		{"// … existing code …", true},
		{"// rest of code here", true},
		{"// existing code here", true},
		{"// keep existing code", true},
		{"// ... keep existing code", true},
		{"// existing code remains the same", true},
		{"/// ...", true},
		{"/* ... other methods ... */", true},
		{"// ...snip...", true},
		{"// ... more tests", true},
		{"// ... rest unchanged", true},
		{"// existing code...", true},
		{"// rest of the file unchanged...", true},
		{"# ... existing keys ...", true},
		{"# ... other keys unchanged ...", true},
		{"<!-- ... existing content ... -->", true},
		{"/* ... existing styles ... */", true},
		{"(* ... *)", true},
		{"... existing code ...", true},
		{"// Original file unchanged.", true},
		{"// Existing code", true},
		{"x...", false},
		{"...args", false},
		{"f(a, ...)", false},
		{"// wait...", false},
		{"// TODO", false},
		{"return ...", false},
		{"// see above", false},
		{"x[..., 0]", false},
		{"# comment", false},
		{"// Copyright 2009 The Go Authors. All rights reserved.", false},
		{"// Handles a, b, c, etc...", false},
		{"// Retry with the previous value...", false},
		{"// existing users ... are migrated below by the loop that follows here", false},
		{"{}", false},
		{"()", false},
		{"[]", false},
		{"(a)", false},
		{"[x]", false},
		{"__init__", false},
		{"*emphasis*", false},
		{"(function() { ... })", false},
		{"// ... }()", false},
		{"// x.typ is unchanged", false},
		{"// Leave the type unchanged.", false},
		{"# return the iterator unchanged", false},
		{"// Same as above, but punycoded.", false},
		{"# remaining contents in this directory.  This", false},
		{"// Commas and colons are elided.", false},
		{"# didn't match as much as before", false},
		{"# remainder", false},
		{"[remaining]", false},
		{"[existing]", false},
		{"[unchanged]", false},
		{`"key": "..."`, false},
		{`"...": 1`, false},
		{": ${X:=1}", false},
		{":", false},
		{"# preserved by the same argument as before.", false},
		{"\tf(args...)", false},
		{"//\t...", false},
		{"//\t// ... existing code ...", false},
		{"// skip ahead to where we are close to wrap around...", false},
		{"// retry, wait, ...", false},
		{"// See also f, g, ...", false},
		{"// ...other than that, we retry", false},
		{"// ...and then the code retries", false},
		{"// remaining fields are zero", false},
		{"// Other methods", false},
		{"// Ensure types are the same", false},
		{"// composite literal element types may be elided", false},
		{"// ... file:line] msg ...", false},
		{"# ...with a Go 1.17 go.mod file...", false},
		{"//......................................................................", false},
		{"// handle the remaining lines...", false},
		{"// Keep existing code paths for compatibility", false},
		{"x := y // ... existing code ...", false},
		{"  ...rest,", false},
		{"const y = {...x};", false},
		{"---", false},
		{"", false},
	} {
		if got := IsPlaceholder([]string{tc.line}, 0); got != tc.want {
			t.Errorf("IsPlaceholder(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestOnlyDots checks onlyDots against its definition: with "…" spelled
// "..." and blanks dropped, three dots or more and nothing else.
func TestOnlyDots(t *testing.T) {
	def := func(s string) bool {
		s = strings.ReplaceAll(s, "…", "...")
		s = strings.ReplaceAll(s, " ", "")
		return len(s) >= 3 && strings.Trim(s, ".") == ""
	}
	for _, s := range []string{"", ".", "..", "...", ". . .", "…", "… ", "..…", "…x", "x...", "\t...", "....", " .. ", "\xe2\x80", "\xe2\x80...", ".. .", "…‥"} {
		if got, want := onlyDots(s), def(s); got != want {
			t.Errorf("onlyDots(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestLocateElisionBrackets: a bracketed placeholder in SEARCH works at the
// elision level like "...", and one in REPLACE alone drops code.
func TestLocateElisionBrackets(t *testing.T) {
	file := "# T\n\nA\nB\nC\n\nD\n"
	for name, c := range map[string]locateCase{
		"brackets":  {file: file, old: "A\n[...]\nD\n", new: "A\n[...]\nD!\n", want: "# T\n\nA\nB\nC\n\nD!\n", strategy: edit.StrategyElision},
		"ellipsis":  {file: file, old: "A\n[…]\nD\n", new: "A!\n[…]\nD\n", want: "# T\n\nA!\nB\nC\n\nD\n", strategy: edit.StrategyElision},
		"parens":    {file: file, old: "A\n(rest unchanged)\nD\n", new: "A\n(rest unchanged)\nD!\n", want: "# T\n\nA\nB\nC\n\nD!\n", strategy: edit.StrategyElision},
		"dropsCode": {file: file, old: "A\nB\nC\n", new: "A\n[...]\n", code: edit.CodeElision},
		"inFile":    {file: "A\n[...]\nB\n", old: "A\n[...]\nB\n", new: "A\n[...]\nB!\n", want: "A\n[...]\nB!\n", strategy: edit.StrategyExact},
	} {
		runLocate(t, name, c)
	}
}

// elidedReplacement is elidedIn for texts, with no file to consult.
func elidedReplacement(old, new string) (line int, elided bool) {
	return elidedIn(newPattern(old), newPattern(new), func(string) bool { return false })
}

// TestMoreFields: moreFields agrees with counting strings.Fields.
func TestMoreFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a ", "a b c", "a\tb\nc\vd\fe\rf", "  a  b  ", "a\u00a0b c", "a\u2003b", "é è ê", "one two three four five six seven eight", "one two three four five six seven eight nine"} {
		for n := range 10 {
			if got, want := moreFields(s, n), len(strings.Fields(s)) > n; got != want {
				t.Errorf("moreFields(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
}

// mayBePlaceholder rules lines out before they are trimmed; it must never
// rule out one whose trimmed text starts with a byte a placeholder can
// start with, whatever blanks (ASCII or Unicode) come first.
func TestMayBePlaceholder(t *testing.T) {
	for _, lead := range []string{"", "  ", "\t", "\v\f\r", "\u00a0", "\u2003 ", " \u0085"} {
		for c := range 256 {
			for _, rest := range []string{"", "x", "…"} {
				line := lead + string([]byte{byte(c)}) + rest
				trimmed := strings.TrimSpace(line)
				need := trimmed != "" && placeholderFirst[trimmed[0]]
				if need && !mayBePlaceholder(line) {
					t.Errorf("mayBePlaceholder(%q) = false; trimmed it starts with %q", line, trimmed[0])
				}
			}
		}
	}
	for _, l := range []string{"", "   ", "\t\t", "func f() {", "\treturn nil", "}"} {
		if mayBePlaceholder(l) {
			t.Errorf("mayBePlaceholder(%q) = true", l)
		}
	}
}
