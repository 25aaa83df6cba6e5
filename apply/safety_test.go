package apply

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
)

// A safetyCase is a reply applied to a tree through the parser and the
// planner, as the command runs it.
type safetyCase struct {
	name   string
	format edit.Format
	before tree
	reply  string
	// want is the tree after; nil: the reply must fail with code and leave
	// the tree as it was.
	want     tree
	code     string
	status   edit.Status   // when set, every edit's status
	strategy edit.Strategy // when set, the first edit's strategy
}

func runSafety(t *testing.T, tc safetyCase) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, tc.before)
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	edits, perrs := parse.Parse(tc.reply, parse.Options{Format: tc.format, Tree: r})
	res, _ := Apply(context.Background(), edits, testOpts(t, dir))
	got := readTree(t, dir)
	cs := append(codes(perrs), codes(res.Errors)...)
	if tc.want == nil {
		if len(cs) == 0 || !strings.Contains(strings.Join(cs, " "), tc.code) {
			t.Errorf("codes %v, want %s", cs, tc.code)
		}
		diffTrees(t, "after a refused reply", got, tc.before)
		return
	}
	if len(cs) > 0 {
		t.Fatalf("codes %v (%v), want success", cs, append(perrs, res.Errors...))
	}
	diffTrees(t, "after", got, tc.want)
	for _, fr := range res.Files {
		for k, er := range fr.Edits {
			if tc.status != "" && er.Status != tc.status {
				t.Errorf("%s edit %d: status %s, want %s", fr.Path, k, er.Status, tc.status)
			}
			if tc.strategy != "" && k == 0 && er.Strategy != tc.strategy {
				t.Errorf("%s edit %d: strategy %s, want %s", fr.Path, k, er.Strategy, tc.strategy)
			}
		}
	}
}

// ledger is a 33-line Python file for the whole-file cases.
var ledger = func() string {
	var b strings.Builder
	b.WriteString("from decimal import Decimal\n\n\nclass Ledger:\n    \"\"\"Entries and their sums.\"\"\"\n\n")
	b.WriteString("    def __init__(self, entries, rate, rebate=0):\n        self.entries = entries\n        self.rate = rate\n        self.rebate = rebate\n\n")
	b.WriteString("    def net(self):\n        return sum(e.amount for e in self.entries)\n\n")
	b.WriteString("    def levy(self):\n        return self.net() * self.rate\n\n")
	b.WriteString("    def gross(self):\n        return self.net() + self.levy()\n\n")
	b.WriteString("    def rows(self):\n        out = []\n        for e in self.entries:\n            out.append(e.label)\n        return out\n\n\n")
	b.WriteString("def open_ledger(path):\n    with open(path) as f:\n        text = f.read()\n    return text\n\n# end of ledger\n")
	return b.String()
}()

func TestSafetyWholeFence(t *testing.T) {
	if n := strings.Count(ledger, "\n"); n != 33 {
		t.Fatalf("ledger has %d lines", n)
	}
	snippet := "Here is the fixed method:\n\nledger.py\n```python\n    def gross(self):\n        return self.net() + self.levy() - self.rebate\n```\n"
	fixed := strings.Replace(ledger, "self.levy()\n\n    def rows", "self.levy() - self.rebate\n\n    def rows", 1)
	reindented := strings.ReplaceAll(fixed, "    ", "  ")
	// A rewrite that keeps most lines but drops the first and the last.
	trimmed := strings.Join(strings.Split(fixed, "\n")[1:31], "\n") + "\n"
	for _, tc := range []safetyCase{
		{name: "snippet under a path line is refused", before: tree{"ledger.py": ledger}, reply: snippet, code: "ELISION"},
		{name: "bold path and a snippet", before: tree{"ledger.py": ledger},
			reply: "**ledger.py**\n```python\n    def levy(self):\n        return self.net() * self.rate * 2\n```\n", code: "ELISION"},
		{name: "-f whole means the file", format: edit.FormatWhole, before: tree{"ledger.py": ledger}, reply: snippet,
			want: tree{"ledger.py": "    def gross(self):\n        return self.net() + self.levy() - self.rebate\n"}},
		{name: "the whole file", before: tree{"ledger.py": ledger}, reply: "ledger.py\n```python\n" + fixed + "```\n",
			want: tree{"ledger.py": fixed}, strategy: edit.StrategyRewrite},
		{name: "re-indented whole file", before: tree{"ledger.py": ledger}, reply: "ledger.py\n```python\n" + reindented + "```\n",
			want: tree{"ledger.py": reindented}},
		{name: "most lines in order", before: tree{"ledger.py": ledger}, reply: "ledger.py\n```python\n" + trimmed + "```\n",
			want: tree{"ledger.py": trimmed}},
		{name: "a new file", before: tree{"x.py": "x\n"}, reply: "ledger.py\n```python\n    def f():\n        pass\n```\n",
			want: tree{"x.py": "x\n", "ledger.py": "    def f():\n        pass\n"}},
		{name: "a draft then the file", before: tree{"ledger.py": ledger},
			reply: "I will write:\n\nledger.py\n```\n... content ...\n```\n\nHere it is:\n\nledger.py\n```python\n" + fixed + "```\n",
			want:  tree{"ledger.py": fixed}},
	} {
		t.Run(tc.name, func(t *testing.T) { runSafety(t, tc) })
	}
}

func block(path, search, replace string) string {
	return path + "\n```\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n```\n"
}

func TestSafetyAppend(t *testing.T) {
	for _, tc := range []safetyCase{
		{name: "empty SEARCH appends", before: tree{"n.txt": "one\ntwo\n"}, reply: block("n.txt", "", "three\n"),
			want: tree{"n.txt": "one\ntwo\nthree\n"}, status: edit.StatusApplied, strategy: edit.StrategyAppend},
		{name: "empty SEARCH after a last line without newline", before: tree{"n.txt": "one\ntwo"}, reply: block("n.txt", "", "three\n"),
			want: tree{"n.txt": "one\ntwo\nthree"}, strategy: edit.StrategyAppend},
		{name: "empty SEARCH on a CRLF file", before: tree{"n.txt": "one\r\ntwo\r\n"}, reply: block("n.txt", "", "three\n"),
			want: tree{"n.txt": "one\r\ntwo\r\nthree\r\n"}, strategy: edit.StrategyAppend},
		{name: "empty SEARCH already appended", before: tree{"n.txt": "one\ntwo\nthree\n"}, reply: block("n.txt", "", "three\n"),
			want: tree{"n.txt": "one\ntwo\nthree\n"}, status: edit.StatusAlreadyApplied, strategy: edit.StrategyAppend},
		{name: "empty SEARCH creates", before: tree{"n.txt": "one\n"}, reply: block("m.txt", "", "new\n"),
			want: tree{"n.txt": "one\n", "m.txt": "new\n"}, strategy: edit.StrategyCreate},
		{name: "empty SEARCH fills an empty file", before: tree{"n.txt": ""}, reply: block("n.txt", "", "new\n"),
			want: tree{"n.txt": "new\n"}, strategy: edit.StrategyCreate},
		{name: "empty SEARCH restating the file's end", before: tree{"c.ts": "import { x } from 'y';\n\nexport const all = { x };"},
			reply: block("c.ts", "", "import { z } from 'y';\n\nexport const all = { x };\n"), code: "FILE_EXISTS"},
		{name: "empty SEARCH repeating most of the file", before: tree{"c.py": "import os\n\ndef main():\n    print(os.getcwd())\n\nmain()\n"},
			reply: block("c.py", "", "def main():\n    print(os.getcwd())\n    print('again')\n"), code: "FILE_EXISTS"},
		{name: "empty SEARCH whose closing line is the file's", before: tree{"c.go": "package c\n\nfunc A() {\n}\n"},
			reply: block("c.go", "", "\nfunc B() {\n}\n"), want: tree{"c.go": "package c\n\nfunc A() {\n}\n\nfunc B() {\n}\n"}},
		{name: "empty old_string on a file with content", before: tree{"n.txt": "one\n"},
			reply: `{"path": "n.txt", "old_string": "", "new_string": "two\n"}` + "\n", code: "FILE_EXISTS"},
		{name: "codex chunk of added lines appends", before: tree{"n.txt": "one\n"},
			reply: "*** Begin Patch\n*** Update File: n.txt\n+two\n*** End Patch\n",
			want:  tree{"n.txt": "one\ntwo\n"}, strategy: edit.StrategyAppend},
		{name: "codex chunk of added lines at end of file", before: tree{"n.txt": "one\n"},
			reply: "*** Begin Patch\n*** Update File: n.txt\n@@\n+two\n*** End of File\n*** End Patch\n",
			want:  tree{"n.txt": "one\ntwo\n"}, strategy: edit.StrategyAppend},
		{name: "codex append already there", before: tree{"n.txt": "one\ntwo\n"},
			reply: "*** Begin Patch\n*** Update File: n.txt\n+two\n*** End Patch\n",
			want:  tree{"n.txt": "one\ntwo\n"}, status: edit.StatusAlreadyApplied},
		{name: "a diff's one hunk of added lines without a number appends", before: tree{"n.txt": "one\n"},
			reply: "--- a/n.txt\n+++ b/n.txt\n@@ ... @@\n+two\n", want: tree{"n.txt": "one\ntwo\n"}, strategy: edit.StrategyAppend},
		{name: "replace_all left to right", before: tree{"n.txt": "aaaa\n"},
			reply: `{"path": "n.txt", "old_string": "aa", "new_string": "b", "replace_all": true}` + "\n",
			want:  tree{"n.txt": "bb\n"}},
		{name: "replace_all odd run", before: tree{"n.txt": "aaaaa\n"},
			reply: `{"path": "n.txt", "old_string": "aa", "new_string": "b", "replace_all": true}` + "\n",
			want:  tree{"n.txt": "bba\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) { runSafety(t, tc) })
	}
}

func TestSafetyAlreadyApplied(t *testing.T) {
	imports := "# Local imports\nfrom a import b\n"
	for _, tc := range []safetyCase{
		{name: "a typo whose replacement stands is no match", before: tree{"m.py": imports},
			reply: block("m.py", "# Local imports\nfxom a import b\n", "from a import b\n"), code: "NO_MATCH"},
		{name: "a typo in a one-line SEARCH whose replacement stands elsewhere", before: tree{"m.py": "total = count\nvalue = total\n"},
			reply: block("m.py", "totel = count\n", "value = total\n"), code: "NO_MATCH"},
		{name: "an edit made, sent again", before: tree{"m.py": "from a import c\n"},
			reply: block("m.py", "# Local imports\nfrom a import b\n", "from a import c\n"), want: tree{"m.py": "from a import c\n"},
			status: edit.StatusAlreadyApplied},
		{name: "a small change made, sent again", before: tree{"m.py": "x = 2\ny = 3\n"},
			reply: block("m.py", "x = 1\n", "x = 2\n"), want: tree{"m.py": "x = 2\ny = 3\n"}, status: edit.StatusAlreadyApplied},
		{name: "a replacement with a blank edge the file lacks", before: tree{"m.py": "a = 1\nb = 2\n"},
			reply: block("m.py", "zzz = 0\n", "b = 2\n\n"), code: "NO_MATCH"},
		{name: "a replacement standing only shifted, under an old text that stands but for a typo", before: tree{"m.py": "    count\n"},
			reply: block("m.py", "    coint\n", "count\n"), code: "NO_MATCH"},
	} {
		t.Run(tc.name, func(t *testing.T) { runSafety(t, tc) })
	}
}

func TestSafetyExactWins(t *testing.T) {
	for _, tc := range []safetyCase{
		{name: "a block quotes whole lines", before: tree{"m.py": "x = foo()\nfoo()\n"},
			reply: block("m.py", "foo()\n", "bar()\n"), want: tree{"m.py": "x = foo()\nbar()\n"}, strategy: edit.StrategyExact},
		{name: "a tool call's old_string is a substring", before: tree{"m.py": "x = foo()\nfoo()\n"},
			reply: `{"path": "m.py", "old_string": "foo()", "new_string": "bar()"}` + "\n", code: "MULTIPLE_MATCHES"},
		{name: "a leading blank line that matches once", before: tree{"m.py": "a\n\nfoo\nb\nfoo\n"},
			reply: block("m.py", "\nfoo\n", "\nbar\n"), want: tree{"m.py": "a\n\nbar\nb\nfoo\n"}, strategy: edit.StrategyExact},
		{name: "a hunk quotes whole lines", before: tree{"m.py": "x = foo()\nfoo()\n"},
			reply: "--- a/m.py\n+++ b/m.py\n@@ -2 +2 @@\n-foo()\n+bar()\n", want: tree{"m.py": "x = foo()\nbar()\n"}},
		{name: "a codex chunk quotes whole lines", before: tree{"m.py": "x = foo()\nfoo()\n"},
			reply: "*** Begin Patch\n*** Update File: m.py\n@@\n-foo()\n+bar()\n*** End Patch\n", want: tree{"m.py": "x = foo()\nbar()\n"}},
		{name: "an indented line quoted without its indentation", before: tree{"m.py": "def f():\n    foo()\n"},
			reply: block("m.py", "foo()\n", "bar()\n"), want: tree{"m.py": "def f():\n    bar()\n"}, strategy: edit.StrategyIndent},
	} {
		t.Run(tc.name, func(t *testing.T) { runSafety(t, tc) })
	}
}

func TestSafetyNoSilentNoOp(t *testing.T) {
	notes := "x\n(rest of methods ...)\n(unchanged code ...)\ny\n"
	for _, tc := range []safetyCase{
		{name: "placeholder-looking lines the file holds are lines", before: tree{"n.txt": notes},
			reply: block("n.txt", "(rest of methods ...)\n(unchanged code ...)\n", "(unchanged code ...)\n(rest of methods ...)\n"),
			want:  tree{"n.txt": "x\n(unchanged code ...)\n(rest of methods ...)\ny\n"}, status: edit.StatusApplied},
		{name: "a placeholder the file holds, moved", before: tree{"n.py": "x = 1\n# ... existing code ...\ny = 2\n"},
			reply: block("n.py", "x = 1\n# ... existing code ...\n", "# ... existing code ...\nx = 1\n"),
			want:  tree{"n.py": "# ... existing code ...\nx = 1\ny = 2\n"}, status: edit.StatusApplied},
		{name: "a change that only trailing blanks carried is no change", before: tree{"n.txt": "a\nb\n"},
			reply: block("n.txt", "a  \nb\n", "a\nb\n"), want: tree{"n.txt": "a\nb\n"}, status: edit.StatusAlreadyApplied},
	} {
		t.Run(tc.name, func(t *testing.T) { runSafety(t, tc) })
	}
}

func TestSafetyLineEndings(t *testing.T) {
	for _, tc := range []safetyCase{
		{name: "a mixed file keeps each untouched line's ending", before: tree{"m.txt": "same\r\nsame\nold\n"},
			reply: block("m.txt", "same\nold\n", "same\nnew\n"), want: tree{"m.txt": "same\r\nsame\nnew\n"}},
		{name: "an LF line in a CRLF file keeps its LF", before: tree{"m.txt": "a\r\nb\r\nc\nd\n"},
			reply: block("m.txt", "b\nc\n", "B\nc\n"), want: tree{"m.txt": "a\r\nB\r\nc\nd\n"}},
		{name: "deleting the last line keeps no final newline", before: tree{"m.txt": "a\nb"},
			reply: block("m.txt", "b\n", ""), want: tree{"m.txt": "a"}},
		{name: "deleting the last line of a CRLF file keeps no final newline", before: tree{"m.txt": "a\r\nb"},
			reply: block("m.txt", "b\n", ""), want: tree{"m.txt": "a"}},
		{name: "a tool call deleting the last line", before: tree{"m.txt": "a\nb"},
			reply: `{"path": "m.txt", "old_string": "b", "new_string": ""}` + "\n", want: tree{"m.txt": "a"}},
		{name: "a tool call deleting the last line with its newline", before: tree{"m.txt": "a\nb"},
			reply: `{"path": "m.txt", "old_string": "\nb", "new_string": ""}` + "\n", want: tree{"m.txt": "a"}},
		{name: "replacing the last line keeps no final newline", before: tree{"m.txt": "a\nb"},
			reply: block("m.txt", "b\n", "c\n"), want: tree{"m.txt": "a\nc"}},
	} {
		t.Run(tc.name, func(t *testing.T) { runSafety(t, tc) })
	}
}
