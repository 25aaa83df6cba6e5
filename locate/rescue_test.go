package locate

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// A rescueCase is a tool call's edit of one file and what must come of it.
type rescueCase struct {
	file, old, new string
	format         edit.Format // FormatAuto: FormatJSON
	strict         bool
	all            bool // replace_all

	want     string        // the file after, when the edit applies
	status   edit.Status   // "" : edit.StatusApplied
	strategy edit.Strategy // "" : don't check
	note     string        // a word the note must hold; "" : don't check
	code     edit.Code     // a failure
	hint     string        // a word the failure's hint must hold
	lines    [2]int        // LineStart, LineEnd when non-zero
}

func runRescue(t *testing.T, name string, c rescueCase) {
	t.Helper()
	format := c.format
	if format == edit.FormatAuto {
		format = edit.FormatJSON
	}
	e := &edit.Edit{Op: edit.Replace, Old: c.old, New: c.new, Count: 1, Format: format}
	if c.all {
		e.Count = 0
	}
	loc, err := locate(c.file, e, matchOptions{Strict: c.strict})
	if c.code != "" {
		switch {
		case err == nil:
			t.Errorf("%s: located %s (%s) as %q, want %s", name, loc.Strategy, loc.Note, spliced(t, c.file, loc), c.code)
		case err.Code != c.code:
			t.Errorf("%s: error %s (%s), want %s", name, err.Code, err.Msg, c.code)
		case !strings.Contains(err.Hint, c.hint):
			t.Errorf("%s: hint %q does not say %q", name, err.Hint, c.hint)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: error %s: %s (hint %q)", name, err.Code, err.Msg, err.Hint)
		return
	}
	if status := cmp.Or(c.status, edit.StatusApplied); loc.Status != status {
		t.Errorf("%s: status %s, want %s", name, loc.Status, status)
	}
	if c.strategy != "" && loc.Strategy != c.strategy {
		t.Errorf("%s: strategy %s, want %s", name, loc.Strategy, c.strategy)
	}
	if !strings.Contains(loc.Note, c.note) {
		t.Errorf("%s: note %q, want one saying %q", name, loc.Note, c.note)
	}
	if got := spliced(t, c.file, loc); got != c.want {
		t.Errorf("%s: result\n got %q\nwant %q", name, got, c.want)
	}
	if c.lines != [2]int{} && (loc.LineStart != c.lines[0] || loc.LineEnd != c.lines[1]) {
		t.Errorf("%s: lines %d-%d, want %d-%d", name, loc.LineStart, loc.LineEnd, c.lines[0], c.lines[1])
	}
}

// An old_string that starts after its first line's indentation, with the
// other lines shifted by one amount, is located there and re-based.
func TestRescueCutFirstLine(t *testing.T) {
	box := "class Box:\n    def size(self):\n        if self.items:\n            return len(\n                self.items)\n        return 0\n"
	twice := box + "\n\nclass Bag:\n    def size(self):\n        if self.items:\n            return len(\n                self.items)\n        return 0\n"
	goTabs := "func f(items []int) int {\n\tif items != nil {\n\t\treturn len(\n\t\t\titems)\n\t}\n\treturn 0\n}\n"
	for name, c := range map[string]rescueCase{
		"shiftedLess": {file: box, old: "return len(\n            self.items)", new: "return len(\n            self.items) + 1",
			want:     "class Box:\n    def size(self):\n        if self.items:\n            return len(\n                self.items) + 1\n        return 0\n",
			strategy: edit.StrategyIndent, note: "indentation", lines: [2]int{4, 5}},
		"shiftedMore": {file: box, old: "return len(\n                    self.items)\n",
			new:      "return len(\n                    self.items or ())\n",
			want:     "class Box:\n    def size(self):\n        if self.items:\n            return len(\n                self.items or ())\n        return 0\n",
			strategy: edit.StrategyIndent, note: "indentation", lines: [2]int{4, 5}},
		"addsLines": {file: box, old: "if self.items:\n                return len(\n",
			new:  "if self.items:\n                log(self)\n                return len(\n",
			want: "class Box:\n    def size(self):\n        if self.items:\n            log(self)\n            return len(\n                self.items)\n        return 0\n"},
		"dropsFirstLine": {file: box, old: "if self.items:\n                return len(\n                    self.items)\n",
			new:  "                return len(\n                    self.items)\n",
			want: "class Box:\n    def size(self):\n            return len(\n                self.items)\n        return 0\n"},
		"blankFirstLine": {file: box, old: "return len(\n            self.items)\n", new: "\n            return 0\n",
			want: "class Box:\n    def size(self):\n        if self.items:\n\n                return 0\n        return 0\n"},
		"tabs": {file: goTabs, old: "return len(\n    items)", new: "return len(\n    items) + 1",
			want: "func f(items []int) int {\n\tif items != nil {\n\t\treturn len(\n\t\t\titems) + 1\n\t}\n\treturn 0\n}\n", strategy: edit.StrategyIndent},
		"replaceAll": {file: twice, all: true, old: "return len(\n            self.items)", new: "return len(\n            self.items or ())",
			want: strings.ReplaceAll(twice, "self.items)\n", "self.items or ())\n"), strategy: edit.StrategyIndent},

		"resent": {file: strings.Replace(box, "self.items)", "self.items) + 1", 1), old: "return len(\n            self.items)",
			new: "return len(\n            self.items) + 1", status: edit.StatusAlreadyApplied, strategy: edit.StrategyIndent, note: "indentation",
			want: strings.Replace(box, "self.items)", "self.items) + 1", 1), lines: [2]int{4, 5}},
		"crlf": {file: strings.ReplaceAll(box, "\n", "\r\n"), old: "return len(\n            self.items)", new: "return len(\n            self.items) + 1",
			want:     strings.ReplaceAll(strings.Replace(box, "self.items)", "self.items) + 1", 1), "\n", "\r\n"),
			strategy: edit.StrategyIndent},
		"twice":          {file: twice, old: "return len(\n            self.items)", new: "return None", code: edit.CodeMultipleMatches},
		"typo":           {file: box, old: "return len(\n            self.itens)", new: "return None", code: edit.CodeNoMatch},
		"typoFirstLine":  {file: box, old: "return lem(\n            self.items)", new: "return None", code: edit.CodeNoMatch},
		"twoShifts":      {file: box, old: "if self.items:\n                return len(\n                  self.items)\n", new: "pass\n", code: edit.CodeNoMatch},
		"cutInsideText":  {file: box, old: "len(\n            self.items)", new: "len(\n            self.items) + 1", code: edit.CodeNoMatch},
		"firstLineWhole": {file: "def f():\n    a = 1\n    b = 2\n", old: "def f():\n     a = 1\n     b = 2\n", new: "pass\n", code: edit.CodeNoMatch},
		"otherFormat":    {file: box, format: edit.FormatSearchReplace, old: "return len(\n            self.items)", new: "return None", code: edit.CodeNoMatch},
		"strict":         {file: box, strict: true, old: "return len(\n            self.items)", new: "return None", code: edit.CodeNoMatch},
	} {
		runRescue(t, name, c)
	}
}

// An old_string whose every line carries a read's line number, counting
// up, is located without them; exact text always wins.
func TestRescueLineNumbers(t *testing.T) {
	user := "class User:\n    def name(self):\n        return self._name\n\n    def age(self):\n        return self._age\n"
	renamed := "class User:\n    def name(self):\n        return self._name.title()\n\n    def age(self):\n        return self._age\n"
	pair := "def a():\n    return 1\n\ndef b():\n    return 1\n"
	tsv := "1\tapple\n2\tbanana\n3\tcherry\nbananas\n"
	for name, c := range map[string]rescueCase{
		"read": {file: user, old: "     2\t    def name(self):\n     3\t        return self._name",
			new:  "     2\t    def name(self):\n     3\t        return self._name.title()",
			want: renamed, strategy: edit.StrategyLineHint, note: "line-number", lines: [2]int{2, 3}},
		"arrow": {file: user, old: "     2→    def name(self):\n     3→        return self._name\n",
			new:  "     2→    def name(self):\n     3→        return self._name.title()\n",
			want: renamed, strategy: edit.StrategyLineHint, note: "line-number"},
		"colonSpace": {file: user, old: "2:     def name(self):\n3:         return self._name\n",
			new:  "2:     def name(self):\n3:         return self._name.title()\n",
			want: renamed, strategy: edit.StrategyLineHint},
		"colonTight": {file: user, old: "2:    def name(self):\n3:        return self._name\n",
			new:  "2:    def name(self):\n3:        return self._name.title()\n",
			want: renamed, strategy: edit.StrategyLineHint},
		"newPlain": {file: user, old: "     2\t    def name(self):\n     3\t        return self._name\n",
			new:  "    def name(self):\n        return self._name.title()\n",
			want: renamed, strategy: edit.StrategyLineHint},
		"blankLineNumbered": {file: user, old: "     3\t        return self._name\n     4\n     5\t    def age(self):\n",
			new:  "     3\t        return self._name\n     4\t\n     5\t    def age(self) -> int:\n",
			want: strings.Replace(user, "age(self):", "age(self) -> int:", 1), strategy: edit.StrategyLineHint},
		"tieBrokenByNumber": {file: pair, old: "     5\t    return 1\n", new: "     5\t    return 2\n",
			want: "def a():\n    return 1\n\ndef b():\n    return 2\n", strategy: edit.StrategyLineHint, lines: [2]int{5, 5}},
		"tieFarNumber": {file: pair, old: "    40\t    return 1\n", new: "    40\t    return 2\n", code: edit.CodeMultipleMatches, hint: "line-number"},
		"crlf": {file: strings.ReplaceAll(user, "\n", "\r\n"), old: "     2\t    def name(self):\n     3\t        return self._name\n",
			new: "     2\t    def name(self):\n     3\t        return self._name.title()\n", want: strings.ReplaceAll(renamed, "\n", "\r\n")},
		"deletes": {file: user, old: "     4\n     5\t    def age(self):\n     6\t        return self._age\n", new: "",
			want: "class User:\n    def name(self):\n        return self._name\n"},
		"tsvExact": {file: tsv, old: "2\tbanana\n", new: "2\tberry\n",
			want: "1\tapple\n2\tberry\n3\tcherry\nbananas\n", strategy: edit.StrategyExact},
		"tsvNearMiss": {file: tsv, old: "2\tbananas\n", new: "2\tberry\n", code: edit.CodeNoMatch},
		"newPartlyNumbered": {file: user, old: "     2\t    def name(self):\n     3\t        return self._name\n",
			new: "     2\t    def name(self):\n        return 1\n", code: edit.CodeNoMatch, hint: "some lines only"},
		"gapInNumbers":   {file: user, old: "     2\t    def name(self):\n     4\t        return self._name", new: "x", code: edit.CodeNoMatch},
		"someUnnumbered": {file: user, old: "     2\t    def name(self):\n        return self._name", new: "x", code: edit.CodeNoMatch},
		"mixedKinds":     {file: user, old: "     2\t    def name(self):\n     3→        return self._name", new: "x", code: edit.CodeNoMatch},
		"oneColonLine":   {file: user, old: "2:     def name(self):", new: "x", code: edit.CodeNoMatch},
		"bar": {file: user, old: "00002|     def name(self):\n00003|         return self._name\n",
			new:  "    def name(self):\n        return self._name.title()\n",
			want: renamed, strategy: edit.StrategyLineHint, lines: [2]int{2, 3}},
		"barBothNumbered": {file: user, old: "2|     def name(self):\n3|         return self._name\n",
			new:  "2|     def name(self):\n3|         return self._name.title()\n",
			want: renamed, strategy: edit.StrategyLineHint},
		"barOnePaddedLine": {file: pair, old: "00002|     return 1", new: "    return 7", all: true,
			want: "def a():\n    return 7\n\ndef b():\n    return 7\n", strategy: edit.StrategyLineHint},
		"barOneLine": {file: user, old: "3|         return self._name", new: "x", code: edit.CodeNoMatch},
		"barInFile":  {file: "1| x\n2| y\nx\nz\n", old: "1| x\n2| z\n", new: "1| x\n2| w\n", code: edit.CodeNoMatch},
		"typo": {file: user, old: "     2\t    def name(self):\n     3\t        return self._nane", new: "x",
			code: edit.CodeNoMatch, hint: "line-number"},
		"otherFormat": {file: user, format: edit.FormatUDiff, old: "     2\t    def name(self):\n     3\t        return self._name", new: "x", code: edit.CodeNoMatch},
	} {
		runRescue(t, name, c)
	}
}

// An old_string escaped twice is located unescaped, new_string unescaped
// the same way; a file that holds the escapes keeps exact matching.
func TestRescueDoubleEscapes(t *testing.T) {
	py := "def greet(name):\n    print(\"hello\", name)\n    return 'done'\n"
	c := "int main(void) {\n\tprintf(\"a\\n\");\n\treturn 0;\n}\n"
	for name, tc := range map[string]rescueCase{
		"newlines": {file: py, old: `def greet(name):\n    print(\"hello\", name)`, new: `def greet(name):\n    print(\"hi\", name)`,
			want: strings.Replace(py, `"hello"`, `"hi"`, 1), strategy: edit.StrategyUnicode, note: "escaped twice", lines: [2]int{1, 2}},
		"tabsAndQuotes": {file: c, old: `\tprintf(\"a\\n\");`, new: `\tprintf(\"b\\n\");`,
			want: strings.Replace(c, `"a\n"`, `"b\n"`, 1), strategy: edit.StrategyUnicode},
		"singleQuotes": {file: py, old: `return \'done\'`, new: `return \'over\'`,
			want: strings.Replace(py, "'done'", "'over'", 1), strategy: edit.StrategyUnicode},
		"exactWins": {file: c, old: `printf("a\n");`, new: `printf("b\n");`,
			want: strings.Replace(c, `"a\n"`, `"b\n"`, 1), strategy: edit.StrategyExact},
		"realNewlinesNewOnly": {file: py, old: `def greet(name):\n    print(\"hello\", name)`,
			new: "def greet(name):\n    print(\"hi\\n\", name)", code: edit.CodeNoMatch},
		"newWithoutBackslash": {file: "say(\"hi\nthere\")\n", old: `say("hi\nthere")`, new: "say(\"hi\nfriend\")",
			want: "say(\"hi\nfriend\")\n", strategy: edit.StrategyUnicode},
		"dollar": {file: "const s = `Hi ${name}`;\n", old: "const s = `Hi \\${name}`;", new: "const s = `Bye ${name}`;",
			want: "const s = `Bye ${name}`;\n", strategy: edit.StrategyUnicode},
		"rawQuoteInNew": {file: py, old: `print(\"hello\", name)`, new: `print("hi\n", name)`, code: edit.CodeNoMatch},
		"rawQuoteInOld": {file: py, old: `print("hello", name)\n    return 'done'`, new: `print("hi", name)\n    return 'done'`,
			want: strings.Replace(py, `"hello"`, `"hi"`, 1), strategy: edit.StrategyUnicode},
		"twice": {file: py + py, old: `def greet(name):\n    print(\"hello\", name)`, new: "x", code: edit.CodeMultipleMatches, hint: "escaped twice"},
		"typo":  {file: py, old: `def greet(name):\n    print(\"hullo\", name)`, new: "x", code: edit.CodeNoMatch},
		"otherFormat": {file: py, format: edit.FormatSearchReplace, old: `def greet(name):\n    print(\"hello\", name)`, new: "x",
			code: edit.CodeNoMatch},
	} {
		runRescue(t, name, tc)
	}
}

// A one-letter change to the text a rescue reads never lands an edit:
// whatever a rescued edit locates holds the edit's words, letter for
// letter. Blocks of a small vocabulary make near twins common.
func TestRescueTypoNeverLands(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2026))
	rescued := map[edit.Strategy]int{}
	for iter := range 3000 {
		if s := checkRescueTypo(t, r, iter%3); s != "" {
			rescued[s]++
		}
	}
	if len(rescued) < 3 {
		t.Errorf("rescued %v: every rescue should have located some of the forms", rescued)
	}
}

// FuzzRescueTypo is TestRescueTypoNeverLands over seeds the fuzzer picks.
func FuzzRescueTypo(f *testing.F) {
	for seed := range uint64(6) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkRescueTypo(t, rand.New(rand.NewPCG(seed, seed>>32)), int(seed%3))
	})
}

// checkRescueTypo writes a random file, quotes a block of it in rescue
// form (see rescuedForm), as it stands and with a one-letter change, and
// checks that what is located holds the quoted words. It returns the
// strategy that rescued the block as it stands, "" when none did.
func checkRescueTypo(t *testing.T, r *rand.Rand, form int) edit.Strategy {
	t.Helper()
	words := []string{"alpha", "beta", "gamma", "items", "len(", "return", "if", "self", "x", "y)", "=", "0"}
	n := 8 + r.IntN(16)
	lines := make([]string, n)
	for i := range lines {
		ws := make([]string, 1+r.IntN(3))
		for j := range ws {
			ws[j] = words[r.IntN(len(words))]
		}
		lines[i] = strings.Repeat("    ", r.IntN(4)) + strings.Join(ws, " ")
	}
	k := r.IntN(n - 1)
	m := min(2+r.IntN(3), n-k)
	if form == 0 && leadingWS(lines[k]) == "" {
		lines[k] = "    " + lines[k] // rescue 1 needs an indented first line
	}
	file := strings.Join(lines, "\n") + "\n"
	var rescued edit.Strategy
	for _, typo := range []bool{false, true} {
		b := slices.Clone(lines[k : k+m])
		if typo && !mutateLetter(r, b) {
			continue
		}
		old := rescuedForm(r, form, b, k+1)
		e := &edit.Edit{Op: edit.Replace, Old: old, New: "replaced", Count: 1, Format: edit.FormatJSON}
		loc, err := locate(file, e, matchOptions{})
		if err != nil {
			if !typo && err.Code != edit.CodeMultipleMatches {
				t.Errorf("form %d: the rescued form of lines %d-%d is not located: %s %s\nold %q\nfile %q", form, k+1, k+m, err.Code, err.Msg, old, file)
			}
			continue
		}
		if !typo && loc.Note != "" {
			rescued = loc.Strategy
		}
		got, want := strings.Fields(loc.Matched), strings.Fields(strings.Join(b, "\n"))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("form %d (typo %v): located %q (%s) for the words %q\nold %q\nfile %q", form, typo, loc.Matched, loc.Strategy, want, old, file)
		}
	}
	return rescued
}

// mutateLetter changes one lowercase letter of the lines to another.
func mutateLetter(r *rand.Rand, lines []string) bool {
	var at [][2]int
	for i, l := range lines {
		for j := 0; j < len(l); j++ {
			if 'a' <= l[j] && l[j] <= 'z' {
				at = append(at, [2]int{i, j})
			}
		}
	}
	if len(at) == 0 {
		return false
	}
	p := at[r.IntN(len(at))]
	l := lines[p[0]]
	c := byte('a' + (int(l[p[1]]-'a')+1+r.IntN(25))%26)
	lines[p[0]] = l[:p[1]] + string(c) + l[p[1]+1:]
	return true
}

// rescuedForm writes lines as a tool call quoting them would for rescue
// form: 0 cut after the first line's indentation and the rest shifted,
// 1 numbered from first as a read shows them, 2 escaped twice.
func rescuedForm(r *rand.Rand, form int, lines []string, first int) string {
	out := make([]string, len(lines))
	switch form {
	case 0:
		least := 1 << 30
		for _, l := range lines[1:] {
			least = min(least, len(leadingWS(l)))
		}
		shift := []int{-4, 4, 8}[r.IntN(3)]
		if least+shift < 0 {
			shift = 4
		}
		for i, l := range lines {
			if i == 0 {
				out[i] = strings.TrimLeft(l, " ")
				continue
			}
			out[i] = strings.Repeat(" ", len(leadingWS(l))+shift) + strings.TrimLeft(l, " ")
		}
	case 1:
		format := []string{"%6d\t%s", "%6d→%s", "%d: %s"}[r.IntN(3)]
		for i, l := range lines {
			out[i] = fmt.Sprintf(format, first+i, l)
		}
	default:
		return strings.Join(lines, `\n`)
	}
	return strings.Join(out, "\n")
}
