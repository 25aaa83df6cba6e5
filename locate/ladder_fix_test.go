package locate

import (
	"testing"

	"github.com/edapply/edapply/edit"
)

// Edge cases of the ladder's rules where a plausible reading writes the
// wrong thing: a match inside indentation, rescaled indentation, text
// written as sent, a resent loose insertion, the end of a file.

// An exact match that starts inside a line's indentation is a suffix of
// that indentation, not the line: a SEARCH that starts with blanks and
// spans lines, or whose replacement adds lines, is left to the indent rung.
func TestLocateExactInIndent(t *testing.T) {
	py := "def f():\n    pass\n"
	for name, c := range map[string]locateCase{
		"addsLines": {file: py, old: "  pass\n", new: "  pass\n  x = 1\n",
			want: "def f():\n    pass\n    x = 1\n", strategy: edit.StrategyIndent},
		"spansLines": {file: "try:\n    import x\nexcept ImportError:\n    pass\n\ny = 1\n",
			old:  "  pass\n\ny = 1\n",
			new:  "  pass\n\ndef f():\n  return 1\n\ny = 1\n",
			want: "try:\n    import x\nexcept ImportError:\n    pass\n\ndef f():\n    return 1\n\ny = 1\n", strategy: edit.StrategyIndent},
		"sameLinesStaysExact": {file: py, old: "  pass", new: "  return",
			want: "def f():\n    return\n", strategy: edit.StrategyExact},
		"midLineUnaffected": {file: "x = f(a,  b)\ny = 2\n", old: "  b)\ny = 2\n", new: "  c)\ny = 3\nz = 4\n",
			want: "x = f(a,  c)\ny = 3\nz = 4\n", strategy: edit.StrategyExact},
		"noBlankStartUnaffected": {file: py, old: "pass\n", new: "pass\nx = 1\n",
			want: "def f():\n    pass\nx = 1\n", strategy: edit.StrategyExact},
		"lineStartUnaffected": {file: "  a\n  b\n", old: "  a\n  b\n", new: "  a\n  c\n  d\n",
			want: "  a\n  c\n  d\n", strategy: edit.StrategyExact},
		"otherPlaceExact": {file: "    a\n  b\n  a\n  b\n", old: "  a\n  b\n", new: "  a\n  c\n",
			want: "    a\n  b\n  a\n  c\n", strategy: edit.StrategyExact},
	} {
		runLocate(t, name, c)
	}
}

// A block written with another indent width than the file's, over several
// levels, maps by a ratio of units; an additive shift is preferred.
func TestLocateIndentRescale(t *testing.T) {
	py4 := "def f(x):\n    if x:\n        return 1\n    y = 2\n    return y\n"
	py8 := "def f(x):\n        if x:\n                return 1\n        y = 2\n        return y\n"
	py2 := "def f(x):\n  if x:\n    return 1\n  y = 2\n  return y\n"
	for name, c := range map[string]locateCase{
		"2to4": {file: py4, old: "  if x:\n    return 1\n  y = 2\n", new: "  if x:\n    return 10\n  y = 2\n",
			want: "def f(x):\n    if x:\n        return 10\n    y = 2\n    return y\n", strategy: edit.StrategyIndent},
		"4to8": {file: py8, old: "    if x:\n        return 1\n    y = 2\n", new: "    if x:\n        log(x)\n        return 1\n    y = 2\n",
			want: "def f(x):\n        if x:\n                log(x)\n                return 1\n        y = 2\n        return y\n", strategy: edit.StrategyIndent},
		"4to2": {file: py2, old: "def f(x):\n    if x:\n        return 1\n", new: "def f(x):\n    if x:\n        if x > 1:\n            return 2\n        return 1\n",
			want: "def f(x):\n  if x:\n    if x > 1:\n      return 2\n    return 1\n  y = 2\n  return y\n", strategy: edit.StrategyIndent},
		"2to4Based": {file: "class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 0\n",
			old:  "  def f(self, x):\n    if x:\n      return 1\n",
			new:  "  def f(self, x):\n    if x:\n      return 2\n    pass\n",
			want: "class A:\n    def f(self, x):\n        if x:\n            return 2\n        pass\n        return 0\n", strategy: edit.StrategyIndent},
		"dedentBelowBlock": {file: py4, old: "  if x:\n    return 1\n", new: "  if x:\n    return 1\nz = 0\n",
			want: "def f(x):\n    if x:\n        return 1\nz = 0\n    y = 2\n    return y\n", strategy: edit.StrategyIndent},
		"inconsistent": {file: py4, old: "  if x:\n    return 1\n    y = 2\n", new: "  pass\n", code: edit.CodeNoMatch},
		"oddSteps":     {file: py4, old: "  if x:\n     return 1\n", new: "  pass\n", code: edit.CodeNoMatch},
		"ambiguous": {file: py4 + "def g(x):\n    if x:\n        return 1\n", old: "if x:\n  return 1\n", new: "pass\n",
			code: edit.CodeMultipleMatches},
		"alignedContinuation": {file: "V = ('A',\n                            'B',\n                            'C')\n",
			old:  "V = ('A',\n              'B',\n",
			new:  "V = ('A',\n              # c\n              'B',\n",
			want: "V = ('A',\n                            # c\n                            'B',\n                            'C')\n", strategy: edit.StrategyIndent},
		// Units doubled, and an alignment line's odd remainder kept: 4·4+1
		// spaces became 4·8+1.
		"remainderKept": {file: "def f(self):\n    if x:\n        raise E('at %d' %\n                 n)\n",
			old:  "        if x:\n                raise E('at %d' %\n                                 n)\n",
			new:  "        if x:\n                # c\n                raise E('at %d' %\n                                 n)\n",
			want: "def f(self):\n    if x:\n        # c\n        raise E('at %d' %\n                 n)\n", strategy: edit.StrategyIndent},
		"remainderInconsistent": {file: "def f(self):\n    if x:\n        raise E('at %d' %\n                 n)\n",
			old: "        if x:\n                raise E('at %d' %\n                                  n)\n", new: "pass\n", code: edit.CodeNoMatch},
		"notWholeUnits": {file: "V = ('A',\n       'B')\n", old: "V = ('A',\n              'B')\n", new: "V = 1\n", code: edit.CodeNoMatch},
		// The additive shift at one place wins over a rescaled match at another.
		"additiveFirst": {file: "def f():\n    if x:\n        return 1\ndef g():\n  if x:\n    return 1\n",
			old: "if x:\n  return 1\n", new: "if x:\n  return 2\n",
			want: "def f():\n    if x:\n        return 1\ndef g():\n  if x:\n    return 2\n", strategy: edit.StrategyIndent},
	} {
		runLocate(t, name, c)
	}
}

// At the whitespace and unicode rungs the replacement is written as sent
// unless an indentation mapping was needed to match; the file's indent
// style is that of the matched lines that show it.
func TestLocateWrittenAsSent(t *testing.T) {
	sh := "f() {\n    echo \"don't\"\n    return 0\n}\n"
	goFile := "package a\n\n/*\n * doc\n */\nfunc f() {\n\tx := 1\n\t_ = x\n}\n"
	for name, c := range map[string]locateCase{
		"unicodeKeepsTab": {file: sh, old: "    echo \"don’t\"\n", new: "    echo \"don’t\"\n\techo two\n",
			want: "f() {\n    echo \"don't\"\n\techo two\n    return 0\n}\n", strategy: edit.StrategyUnicode},
		"whitespaceKeepsTab": {file: "type T struct {\n    Name    string\n}\n", old: "    Name string\n", new: "    Name string\n\tAge int\n",
			want: "type T struct {\n    Name    string\n\tAge int\n}\n", strategy: edit.StrategyWhitespace},
		"unicodeShifted": {file: "func f() {\n\ts := \"it's\"\n}\n", old: "    s := \"it’s\"\n", new: "    s := \"it’s\"\n    t := 1\n",
			want: "func f() {\n\ts := \"it's\"\n\tt := 1\n}\n", strategy: edit.StrategyUnicode},
		"styleFromMajority": {file: goFile, old: " */\nfunc f() {\n    x := 1\n    _ = x\n", new: " */\nfunc f() {\n    x := 2\n    _ = x\n",
			want: "package a\n\n/*\n * doc\n */\nfunc f() {\n\tx := 2\n\t_ = x\n}\n", strategy: edit.StrategyIndent},
		"styleSpacesKept": {file: "class A:\n    def f(self):\n        return 1\n", old: "def f(self):\n  return 1\n", new: "def f(self):\n  x = 1\n  return x\n",
			want: "class A:\n    def f(self):\n        x = 1\n        return x\n", strategy: edit.StrategyIndent},
	} {
		runLocate(t, name, c)
	}
}

// A resent insertion is already applied however loosely its old text
// matched.
func TestLocateResentLoose(t *testing.T) {
	for name, c := range map[string]locateCase{
		"trailingBlanks": {file: "a\nadded\nb\n", old: "a  \n", new: "a\nadded\n", status: edit.StatusAlreadyApplied},
		"punctuation":    {file: "x = \"a\"\nadded\n", old: "x = “a”\n", new: "x = \"a\"\nadded\n", status: edit.StatusAlreadyApplied},
		"indentation":    {file: "def f():\n    a()\n    added()\n", old: "  a()\n", new: "a()\nadded()\n", status: edit.StatusAlreadyApplied},
		"fresh":          {file: "a\nb\n", old: "a  \n", new: "a\nadded\n", want: "a\nadded\nb\n"},
		"elsewhere":      {file: "a\nadded\nq\na \n", old: "a  \n", new: "a\nadded\n", code: edit.CodeMultipleMatches},
	} {
		runLocate(t, name, c)
	}
}

// The end of the file is a line end at the exact rung (so --strict takes a
// SEARCH that reaches a last line without a newline), and an old text that
// ends the file without a newline, replaced by one with, adds it.
func TestLocateEndOfFile(t *testing.T) {
	for name, c := range map[string]locateCase{
		"strictNoFinalNL":  {file: "a\nb", old: "a\nb\n", new: "a\nc\n", strict: true, want: "a\nc", strategy: edit.StrategyExact},
		"exactNoFinalNL":   {file: "x\na\nb", old: "a\nb\n", new: "a\nb\nc\n", want: "x\na\nb\nc", strategy: edit.StrategyExact, lines: [2]int{2, 3}},
		"crlfNoFinalNL":    {file: "a\r\nb", old: "a\nb\n", new: "a\nc\nd\n", strict: true, want: "a\r\nc\r\nd", strategy: edit.StrategyExact},
		"eofTie":           {file: "b\nx\nb", old: "b\n", new: "c\n", code: edit.CodeMultipleMatches},
		"addFinalNL":       {file: "alpha\nbeta\ngamma", old: "beta\ngamma", new: "beta\ngamma\n", want: "alpha\nbeta\ngamma\n", strategy: edit.StrategyExact},
		"addFinalNLResent": {file: "alpha\nbeta\ngamma\n", old: "beta\ngamma", new: "beta\ngamma\n", status: edit.StatusAlreadyApplied},
		"keepNoFinalNL":    {file: "alpha\nbeta\ngamma", old: "beta\ngamma", new: "beta\nGAMMA", want: "alpha\nbeta\nGAMMA"},
		"midLineNoNL":      {file: "a\nb\nc\n", old: "a\nb", new: "a\nB\n", want: "a\nB\nc\n"},
	} {
		runLocate(t, name, c)
	}
}
