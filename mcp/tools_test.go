package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/report"
)

// TestEditFileReturnsDiff: a successful edit_file returns the diff of
// what it wrote, in the text the model reads and in the receipt's file,
// as a dry run does; a failed one returns none.
func TestEditFileReturnsDiff(t *testing.T) {
	cs, root := connect(t, map[string]string{"calc.py": calc})
	var r report.Receipt
	res := call(t, cs, "edit_file", map[string]any{"path": "calc.py", "edits": []any{
		map[string]any{"old_string": "    return a - b\n", "new_string": "    return b - a\n"},
		map[string]any{"old_string": "def mul(a, b):\n", "new_string": "def mul(a, b):\n    \"\"\"Multiply.\"\"\"\n"},
	}}, &r)
	if res.IsError || !r.OK || len(r.Files) != 1 {
		t.Fatalf("edit_file failed:\n%s", resultText(res))
	}
	d := r.Files[0].Diff
	for _, w := range []string{"--- a/calc.py\n", "+++ b/calc.py\n", "-    return a - b\n", "+    return b - a\n", "+    \"\"\"Multiply.\"\"\"\n"} {
		if !strings.Contains(d, w) {
			t.Errorf("the receipt's diff does not hold %q:\n%s", w, d)
		}
	}
	if text := resultText(res); !strings.HasPrefix(text, d) {
		t.Errorf("the text does not begin with the diff:\n%s", text)
	}
	var minus, plus int
	for _, l := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			minus++
		case strings.HasPrefix(l, "+"):
			plus++
		}
	}
	if minus != 1 || plus != 2 {
		t.Errorf("the diff changes other lines than the edits':\n%s", d)
	}
	if readFile(t, root, "calc.py") == calc {
		t.Fatal("nothing was written")
	}

	res = call(t, cs, "edit_file", map[string]any{"path": "calc.py", "edits": []any{
		map[string]any{"old_string": "    return a * b\n", "new_string": "    return b * a\n"},
		map[string]any{"old_string": "nothing like it\n", "new_string": "x\n"},
	}}, &r)
	if !res.IsError || r.Files[0].Diff != "" || strings.Contains(resultText(res), "--- a/") {
		t.Errorf("a failed edit returned a diff:\n%s", resultText(res))
	}
}

const shapes = "import math\n\ndef area(r):\n    return math.pi * r * r\n\nclass Square:\n    side = 1\n"

// TestRepeatedFailure: a call identical to one that failed in the same
// session, on the file as it was, fails the same way and says it is the
// same call, asking for a read_file of the lines in question (counted in
// the file on disk); the first failure, another call, a file changed
// since and another session do not.
func TestRepeatedFailure(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "shapes.py"), []byte(shapes), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Root: root, StateDir: t.TempDir(), Version: "test"})
	session := func() *sdk.ClientSession {
		st, ct := sdk.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close(); ss.Wait() })
		return cs
	}
	cs := session()
	typo := func(old string) map[string]any {
		return map[string]any{"path": "shapes.py", "edits": []any{map[string]any{"old_string": old, "new_string": "def area(r):\n    return math.pi * r ** 2\n"}}}
	}
	bad := typo("def area(r):\n    return math.pi * r * rr\n")
	again := "This is the same call as one that already failed on shapes.py"
	// first returns the receipt of the call, whose one error is the one
	// in question.
	first := func(cs *sdk.ClientSession, args map[string]any) report.Receipt {
		t.Helper()
		var r report.Receipt
		res := call(t, cs, "edit_file", args, &r)
		if !res.IsError || len(r.Errors) != 1 {
			t.Fatalf("edit_file(%v) = %+v, want one error", args, r)
		}
		if strings.Contains(resultText(res), again) != strings.Contains(r.Errors[0].Hint, again) {
			t.Errorf("the text and the receipt disagree:\n%s", resultText(res))
		}
		return r
	}

	e1 := first(cs, bad).Errors[0]
	if strings.Contains(e1.Hint, again) {
		t.Fatalf("the first failure is told it is a repeat: %q", e1.Hint)
	}
	e2 := first(cs, bad).Errors[0]
	if e2.Code != e1.Code || e2.Message != e1.Message || len(e2.Candidates) != len(e1.Candidates) {
		t.Errorf("the repeat failed otherwise: %+v, then %+v", e1, e2)
	}
	// area stands at lines 3-4 of shapes.py.
	if want := `Re-read lines 3-4 with read_file {"path": "shapes.py", "offset": 3, "limit": 2}`; !strings.HasPrefix(e2.Hint, again) || !strings.Contains(e2.Hint, want) || !strings.HasSuffix(e2.Hint, e1.Hint) {
		t.Errorf("the repeat's hint is %q; want it to say it is the same call, then %q, then the first hint", e2.Hint, want)
	}
	// The same call under other names, or as a dry run, is the same call.
	alias := map[string]any{"filePath": "shapes.py", "dryRun": true, "edits": []any{map[string]any{"oldText": "def area(r):\n    return math.pi * r * rr\n", "newText": "def area(r):\n    return math.pi * r ** 2\n"}}}
	if e := first(cs, alias).Errors[0]; !strings.HasPrefix(e.Hint, again) {
		t.Errorf("the same call under other names is not told: %q", e.Hint)
	}
	if e := first(cs, typo("def area(r):\n    return math.pi * r * s\n")).Errors[0]; strings.Contains(e.Hint, again) {
		t.Errorf("another call is told it is a repeat: %q", e.Hint)
	}
	if e := first(session(), bad).Errors[0]; strings.Contains(e.Hint, again) {
		t.Errorf("a call of another session is told it is a repeat: %q", e.Hint)
	}

	// Once the file changed, the same call is a new one.
	var r report.Receipt
	if res := call(t, cs, "edit_file", map[string]any{"path": "shapes.py", "edits": []any{map[string]any{"old_string": "import math\n", "new_string": "import math  # pi\n"}}}, &r); res.IsError {
		t.Fatalf("edit: %s", resultText(res))
	}
	if e := first(cs, bad).Errors[0]; strings.Contains(e.Hint, again) {
		t.Errorf("a call on a file changed since is told it is a repeat: %q", e.Hint)
	}
	if e := first(cs, bad).Errors[0]; !strings.HasPrefix(e.Hint, again) {
		t.Errorf("the repeat after the change is not told: %q", e.Hint)
	}
}

// TestRepeatedFailureReadsWhatItNames: the read_file a repeat is asked
// for shows what its error is about: the file a path candidate names, or
// the file itself when there is no line to name.
func TestRepeatedFailureReadsWhatItNames(t *testing.T) {
	cs, _ := connect(t, map[string]string{"src/calc.py": calc, "src/shapes.py": shapes})
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "calc.py", "edits": []any{map[string]any{"old_string": "nothing\n", "new_string": "x\n"}}},
			`Re-read the file it probably means with read_file {"path": "src/calc.py"}`},
		{map[string]any{"path": "src/calc.py", "base_hash": "0123456789abcdef", "edits": []any{map[string]any{"old_string": "    return a - b\n", "new_string": "x\n"}}},
			`Re-read the file with read_file {"path": "src/calc.py"}`},
	} {
		var r report.Receipt
		call(t, cs, "edit_file", c.args, &r)
		call(t, cs, "edit_file", c.args, &r)
		if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Hint, c.want) {
			t.Errorf("edit_file(%v) again: %+v; want the hint to say %q", c.args, r.Errors, c.want)
		}
	}
	// apply_edits is told in its own arguments.
	reply := "src/shapes.py\n```\n<<<<<<< SEARCH\n    return math.pi * r * rr\n=======\n    return math.pi * r ** 2\n>>>>>>> REPLACE\n```\n"
	var r report.Receipt
	call(t, cs, "apply_edits", map[string]any{"reply": reply}, &r)
	call(t, cs, "apply_edits", map[string]any{"reply": reply}, &r)
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Hint, `read_file {"path": "src/shapes.py", "offset": 4, "limit": 1}`) || !strings.Contains(r.Errors[0].Hint, "in base") || strings.Contains(r.Errors[0].Hint, "base_hash") {
		t.Errorf("apply_edits again: %+v", r.Errors)
	}
}

// TestUndoDryRunAndList: undo lists the writes it can take back, newest
// first, and shows what it would restore without restoring it, as
// `edapply undo --list` and `--dry-run` do; with nothing left, it says so
// with a USAGE error, naming no missing file.
func TestUndoDryRunAndList(t *testing.T) {
	cs, root := connect(t, map[string]string{"a.txt": "alpha\n"})
	var r report.Receipt
	call(t, cs, "edit_file", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"old_string": "alpha\n", "new_string": "ALPHA\n"}}}, &r)
	call(t, cs, "edit_file", map[string]any{"path": "b.txt", "edits": []any{map[string]any{"old_string": "", "new_string": "beta\n"}}}, &r)

	var out undoOutput
	res := call(t, cs, "undo", map[string]any{"list": true}, &out)
	if res.IsError || !out.OK || len(out.History) != 2 {
		t.Fatalf("undo list = %+v\n%s", out, resultText(res))
	}
	if h := out.History; h[0].Files[0].Path != "b.txt" || h[0].Files[0].Op != "create" || h[1].Files[0].Path != "a.txt" || h[1].Files[0].Op != "modify" {
		t.Errorf("history %+v, want b.txt's create, then a.txt's modify", h)
	}
	if text := resultText(res); !strings.Contains(text, "1. ") || !strings.Contains(text, "create b.txt") || !strings.Contains(text, "2. ") || strings.Contains(text, "edapply undo") {
		t.Errorf("undo list's text:\n%s", text)
	}

	res = call(t, cs, "undo", map[string]any{"dryRun": true}, &out)
	if res.IsError || !out.DryRun || len(out.Files) != 1 || out.Files[0].Op != "delete" || !strings.Contains(out.Files[0].Diff, "-beta") {
		t.Errorf("undo dry run = %+v\n%s", out, resultText(res))
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err != nil {
		t.Errorf("a dry run of undo restored: %v", err)
	}
	for range 2 {
		if res = call(t, cs, "undo", nil, &out); res.IsError {
			t.Fatalf("undo: %s", resultText(res))
		}
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); !os.IsNotExist(err) || readFile(t, root, "a.txt") != "alpha\n" {
		t.Errorf("two undos did not take back both writes")
	}

	_, e := usageOf(t, cs, "undo", map[string]any{})
	if !strings.Contains(e.Message, "nothing to undo") || e.Path != "" {
		t.Errorf("undo with nothing left = %+v", e)
	}
	if res := call(t, cs, "undo", map[string]any{"list": true}, &out); res.IsError || len(out.History) != 0 || !strings.Contains(resultText(res), "nothing to undo") {
		t.Errorf("undo list with nothing left = %+v\n%s", out, resultText(res))
	}
	if apply.HistorySize < 2 {
		t.Fatal("the history keeps fewer writes than this test makes")
	}
}

// TestHintsInToolWords: a hint whose way out the command line words with
// a flag or a subcommand (--encoding, `edapply undo`) reaches a tool's
// caller without it, in words that hold for the tools.
func TestHintsInToolWords(t *testing.T) {
	cs, _ := connect(t, map[string]string{"latin.txt": "x = 1\n# caf\xe9\n",
		"calc.py":            "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n",
		"utf8/.editorconfig": "[*.txt]\ncharset = latin1\n", "utf8/u.txt": "x = 1\n# caf\u00e9\n"})
	var r report.Receipt
	res := call(t, cs, "edit_file", map[string]any{"path": "latin.txt", "edits": []any{
		map[string]any{"old_string": "x = 1\n", "new_string": "x = 'é'\n"},
	}}, &r)
	if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "BINARY_FILE" {
		t.Fatalf("edit_file of a Latin-1 file adding é: %s", resultText(res))
	}
	if h := r.Errors[0].Hint; strings.Contains(h, "--") || !strings.Contains(h, "working-tree-encoding") {
		t.Errorf("BINARY_FILE hint = %q, want the encoding declared without a command-line flag", h)
	}

	// A file whose declared encoding does not fit its bytes: the tools
	// take no encoding, so the way out is the declaration, for an edit and
	// for a read alike.
	res = call(t, cs, "edit_file", map[string]any{"path": "utf8/u.txt", "edits": []any{
		map[string]any{"old_string": "x = 1\n", "new_string": "x = 2\n"},
	}}, &r)
	if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "BINARY_FILE" {
		t.Fatalf("edit_file of a UTF-8 file declared Latin-1: %s", resultText(res))
	}
	if h := r.Errors[0].Hint; strings.Contains(h, "--") || !strings.Contains(h, "charset in .editorconfig") {
		t.Errorf("misdeclared BINARY_FILE hint = %q, want the declaration corrected without a command-line flag", h)
	}
	var ro report.ReadOutput
	res = call(t, cs, "read_file", map[string]any{"path": "utf8/u.txt"}, &ro)
	if !res.IsError || len(ro.Errors) != 1 || ro.Errors[0].Code != "BINARY_FILE" || strings.Contains(resultText(res), "caf") {
		t.Fatalf("read_file of a UTF-8 file declared Latin-1: %s", resultText(res))
	}
	if h := ro.Errors[0].Hint; strings.Contains(h, "--") || !strings.Contains(h, "charset in .editorconfig") {
		t.Errorf("read_file's misdeclared BINARY_FILE hint = %q, want the declaration corrected without a command-line flag", h)
	}

	// A fence that holds a piece of the file: apply_edits takes no format.
	res = call(t, cs, "apply_edits", map[string]any{"reply": "calc.py\n```python\ndef b():\n    return 20\n```\n"}, &r)
	if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Code != "ELISION" {
		t.Fatalf("apply_edits of a piece of calc.py: %s", resultText(res))
	}
	if h := r.Errors[0].Hint; strings.Contains(h, "-f") || !strings.Contains(h, "every line of the file") {
		t.Errorf("ELISION hint = %q, want the whole file asked for without a command-line flag", h)
	}

	// Calls the library refuses in words of its own: an undo_edit, and a
	// call that asks for a dry run.
	for _, reply := range []string{
		`{"command": "undo_edit", "path": "latin.txt"}`,
		`{"name": "edit_file", "arguments": {"path": "calc.py", "edits": [{"oldText": "return 1", "newText": "return 7"}], "dryRun": true}}`,
	} {
		res = call(t, cs, "apply_edits", map[string]any{"reply": reply}, &r)
		if !res.IsError || len(r.Errors) == 0 {
			t.Fatalf("apply_edits of %s: %s", reply, resultText(res))
		}
		for _, e := range r.Errors {
			if strings.Contains(e.Hint, "edapply ") || strings.Contains(e.Hint, "--") {
				t.Errorf("%s hint = %q, names the command line", e.Code, e.Hint)
			}
		}
	}
}
