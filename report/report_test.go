package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// results are the receipts every renderer is tested on.
func results() map[string]*apply.Result {
	return map[string]*apply.Result{
		"empty": {},
		"ok": {
			OK: true,
			Files: []*apply.FileResult{
				{
					Path: "src/a.go", Op: "modify", BeforeHash: "aaaa", AfterHash: "bbbb",
					Before: []byte("package a\n\nfunc f() {}\n"), After: []byte("package a\n\nfunc g() {}\n"),
					Edits: []apply.EditResult{
						{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 3, LineEnd: 3},
						{Index: 2, Status: edit.StatusAlreadyApplied, Strategy: edit.StrategyIndent, LineStart: 1, LineEnd: 2},
					},
				},
				{
					Path: "docs/new.md", Op: "create", AfterHash: "cccc", After: []byte("# New <doc> & more\n"),
					Edits: []apply.EditResult{{Index: 1, Status: edit.StatusApplied, Strategy: edit.StrategyCreate, LineStart: 1, LineEnd: 1}},
				},
				{
					Path: "old.txt", NewPath: "new.txt", Op: "rename", BeforeHash: "dddd", AfterHash: "dddd",
					Before: []byte("same\n"), After: []byte("same\n"),
					Edits: []apply.EditResult{{Index: 3, Status: edit.StatusApplied, Strategy: edit.StrategyRename}},
				},
				{
					Path: "gone.txt", Op: "delete", BeforeHash: "eeee", Before: []byte("bye\n"),
					Edits: []apply.EditResult{{Index: 4, Status: edit.StatusApplied, Strategy: edit.StrategyDelete}},
				},
			},
		},
		"dryrun": {
			OK: true, DryRun: true,
			Files: []*apply.FileResult{{
				Path: "a.txt", Op: "modify", BeforeHash: "aaaa", AfterHash: "aaaa",
				Before: []byte("alpha\r\nbeta\r\n"), After: []byte("ALPHA\r\nbeta\r\n"),
				Edits: []apply.EditResult{{Index: 0, Status: edit.StatusMatched, Strategy: edit.StrategyTrailingWS, LineStart: 1, LineEnd: 1}},
			}},
		},
		"occurrences": {
			OK: true,
			Files: []*apply.FileResult{{
				Path: "f.py", Op: "modify", BeforeHash: "aaaa", AfterHash: "bbbb",
				Before: []byte("foo()\nx\nfoo()\n"), After: []byte("bar()\nx\nbar()\n"),
				Edits: []apply.EditResult{{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1,
					Occurrences: []edit.LineRange{{Start: 1, End: 1}, {Start: 3, End: 4}}}},
			}},
		},
		"fail": {
			Files: []*apply.FileResult{{
				Path: "src/b.go", Op: "modify", BeforeHash: "aaaa", AfterHash: "aaaa",
				Edits: []apply.EditResult{
					{Index: 0, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 3, LineEnd: 4},
					{Index: 1, Status: edit.StatusFailed},
				},
			}},
			Errors: edit.ErrorList{
				{Code: edit.CodeParse, Edit: -1, Line: 12, Msg: "SEARCH block not closed", Hint: "Resend the edit complete."},
				{
					Code: edit.CodeNoMatch, Path: "src/b.go", Edit: 1, Msg: "SEARCH text not found in src/b.go",
					Candidates: []edit.Candidate{{LineStart: 40, LineEnd: 41, Similarity: 0.916, Excerpt: "func b() {\n\treturn\n"}},
					Hint:       "Copy the lines exactly as they stand in the file at lines 40-41.",
				},
			},
		},
		// Code that is not in the file: one weak candidate, no copy hint.
		"weak": {
			Files: []*apply.FileResult{{
				Path: "c.py", Op: "modify", BeforeHash: "cccc", AfterHash: "cccc",
				Edits: []apply.EditResult{{Index: 0, Status: edit.StatusFailed}},
			}},
			Errors: edit.ErrorList{{
				Code: edit.CodeNoMatch, Path: "c.py", Edit: 0, Msg: "old_string not found in c.py",
				Candidates: []edit.Candidate{{LineStart: 7, LineEnd: 8, Similarity: 0.46, Excerpt: "def load(p):\n    return open(p)\n", Weak: true}},
				Repair:     "the fixer exited with status 1; stderr: no candidate to copy",
				Hint:       "Nothing in the file is close to old_string (the best region, lines 7-8, is only 46% similar): it may not be in this file at all. Re-read the file and quote the lines to replace exactly as they stand.",
			}},
		},
		// An undo's result: files restored, no edits.
		"undo": {
			OK: true,
			Files: []*apply.FileResult{
				{Path: "a.txt", Op: "modify", BeforeHash: "bbbb", AfterHash: "aaaa", Before: []byte("ALPHA\n"), After: []byte("alpha\n")},
				{Path: "new.txt", Op: "delete", BeforeHash: "cccc", Before: []byte("new\n")},
			},
		},
		// A failed --verify: the written file is restored.
		"verify": {
			Files: []*apply.FileResult{{
				Path: "a.txt", Op: "modify", BeforeHash: "aaaa", AfterHash: "aaaa",
				Before: []byte("a\n"), After: []byte("A\n"),
				Edits: []apply.EditResult{{Index: 0, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1}},
			}},
			Errors:       edit.ErrorList{{Code: edit.CodeCheckFailed, Edit: -1, Msg: "--verify command exited with status 1; every file was restored"}},
			Verify:       "failed",
			VerifyOutput: "FAIL: TestA\nexit status 1\n",
		},
		// A dry run with --verify, which did not run.
		"verify-skipped": {
			OK: true, DryRun: true, Verify: "skipped",
			Files: []*apply.FileResult{{
				Path: "a.txt", Op: "modify", BeforeHash: "aaaa", AfterHash: "aaaa",
				Before: []byte("a\n"), After: []byte("A\n"),
				Edits: []apply.EditResult{{Index: 0, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1}},
			}},
		},
		// A failed --verify that rewrote a file the apply wrote: that file
		// keeps what the command wrote, and its after hash says so; an edit
		// that changed nothing was not written.
		"verify-kept": {
			Files: []*apply.FileResult{
				{
					Path: "a.txt", Op: "modify", BeforeHash: "aaaa", AfterHash: "cccc",
					Before: []byte("a\n"), After: []byte("A\n"),
					Edits: []apply.EditResult{{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1}},
				},
				{
					Path: "b.txt", Op: "modify", BeforeHash: "bbbb", AfterHash: "bbbb",
					Before: []byte("b\n"), After: []byte("B\n"),
					Edits: []apply.EditResult{{Index: 1, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1}},
				},
				{
					Path: "c.txt", Op: "modify", BeforeHash: "dddd", AfterHash: "dddd",
					Before: []byte("c\n"), After: []byte("c\n"),
					Edits: []apply.EditResult{
						{Index: 2, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1},
						{Index: 3, Status: edit.StatusMatched, Strategy: edit.StrategyExact, LineStart: 1, LineEnd: 1},
					},
				},
			},
			Errors: edit.ErrorList{
				{Code: edit.CodeCheckFailed, Edit: -1, Msg: "--verify command exited with status 1; some files were not restored"},
				{Code: edit.CodeOutOfDate, Path: "a.txt", Edit: -1, Msg: "not restored: it changed after this apply wrote it; what it holds now was kept"},
			},
			Verify:       "failed",
			VerifyOutput: "FAIL: TestA\n",
		},
	}
}

func TestJSON(t *testing.T) {
	for name, res := range results() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteJSON(&buf, NewReceipt(res)); err != nil {
				t.Fatal(err)
			}
			out := buf.Bytes()
			if bytes.Count(out, []byte("\n")) != 1 || out[len(out)-1] != '\n' {
				t.Errorf("JSON wrote %q, want one line", out)
			}
			// The contract's shape: files and errors are arrays, never null.
			var shape struct {
				Files  []json.RawMessage `json:"files"`
				Errors []json.RawMessage `json:"errors"`
			}
			if err := json.Unmarshal(out, &shape); err != nil || shape.Files == nil || shape.Errors == nil {
				t.Errorf("JSON(%s) = %s: files or errors not an array (err %v)", name, out, err)
			}
			golden(t, "receipt-"+name+".json", out)
		})
	}
}

func TestHuman(t *testing.T) {
	for name, res := range results() {
		for _, colored := range []bool{false, true} {
			file := "human-" + name + ".txt"
			if colored {
				file = "human-" + name + "-color.txt"
			}
			t.Run(file, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Human(&buf, res, colored); err != nil {
					t.Fatal(err)
				}
				if !colored && bytes.Contains(buf.Bytes(), []byte("\x1b[")) {
					t.Errorf("Human(color=false) wrote escape sequences:\n%q", buf.Bytes())
				}
				golden(t, file, buf.Bytes())
			})
		}
	}
}

// TestErrors: what --check prints is the human receipt's errors, whole,
// and nothing of its files or summary.
func TestErrors(t *testing.T) {
	for name, res := range results() {
		var human, errs bytes.Buffer
		if err := Human(&human, res, false); err != nil {
			t.Fatal(err)
		}
		if err := Errors(&errs, res, false); err != nil {
			t.Fatal(err)
		}
		got := errs.String()
		lines := strings.Split(strings.TrimSuffix(human.String(), "\n"), "\n")
		summary := lines[len(lines)-1]
		if !strings.Contains(human.String(), got) || strings.Contains(got, summary) || (len(res.Errors) == 0) != (got == "") {
			t.Errorf("%s: Errors wrote\n%s\nfrom the human receipt\n%s", name, got, human.String())
		}
		for _, e := range res.Errors {
			if !strings.Contains(got, string(e.Code)) {
				t.Errorf("%s: Errors left out %s", name, e.Code)
			}
		}
	}
}

func TestDiff(t *testing.T) {
	for name, res := range results() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Diff(&buf, res); err != nil {
				t.Fatal(err)
			}
			golden(t, "diff-"+name+".txt", buf.Bytes())
		})
	}
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff.Diff("want", want, "got", got))
	}
}

// TestHumanRepaired: the human receipt says "repaired" on exactly the edit
// lines whose entries the JSON receipt marks repaired, and keeps their
// strategy and lines.
func TestHumanRepaired(t *testing.T) {
	res := &apply.Result{OK: true, Files: []*apply.FileResult{{
		Path: "calc.go", Op: "modify", BeforeHash: "aaaa", AfterHash: "bbbb",
		Edits: []apply.EditResult{
			{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 4, LineEnd: 4, Repaired: true},
			{Index: 1, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 9, LineEnd: 10},
			{Index: 2, Status: edit.StatusAlreadyApplied, Strategy: edit.StrategyIndent, LineStart: 1, LineEnd: 2, Repaired: true},
		},
	}}}
	var jb bytes.Buffer
	if err := WriteJSON(&jb, NewReceipt(res)); err != nil {
		t.Fatal(err)
	}
	var r Receipt
	if err := json.Unmarshal(jb.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := map[int]wireEdit{}
	for _, e := range r.Files[0].Edits {
		want[e.Index] = e
	}
	editNum := regexp.MustCompile(`edit (\d+): `)
	for _, colored := range []bool{false, true} {
		var buf bytes.Buffer
		if err := Human(&buf, res, colored); err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, line := range strings.Split(buf.String(), "\n") {
			m := editNum.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			i, _ := strconv.Atoi(m[1])
			w, ok := want[i]
			if !ok {
				t.Fatalf("color=%v: line for edit %d, which the JSON receipt does not hold: %q", colored, i, line)
			}
			seen++
			if got := strings.Contains(line, "repaired"); got != w.Repaired {
				t.Errorf("color=%v: edit %d line %q says repaired %v, JSON says %v", colored, i, line, got, w.Repaired)
			}
			if !strings.Contains(line, w.Strategy+", "+lineRange(w.LineStart, w.LineEnd)) {
				t.Errorf("color=%v: edit %d line %q lost its strategy or lines", colored, i, line)
			}
		}
		if seen != len(want) {
			t.Errorf("color=%v: %d edit lines, want %d:\n%s", colored, seen, len(want), buf.String())
		}
	}
}

// TestParsedEditFormat: `edapply parse` names each edit's format as -f
// spells it, and leaves it empty for an edit built by hand, which names
// none.
func TestParsedEditFormat(t *testing.T) {
	for f, want := range map[edit.Format]string{
		edit.FormatSearchReplace: "search-replace", edit.FormatUDiff: "udiff", edit.FormatWhole: "whole",
		edit.FormatCodex: "codex", edit.FormatJSON: "json", edit.FormatAuto: "",
	} {
		if got := newParsedEdit(edit.Edit{Op: edit.Replace, Path: "a", Format: f}).Format; got != want {
			t.Errorf("format %d: %q, want %q", int(f), got, want)
		}
	}
}

// TestHumanEditLineParts: an edit's line names its mark, index and status,
// then in parentheses its strategy, lines and "repaired" (each only when
// it has one, joined by commas), then its note; colored, only the mark and
// the note are wrapped.
func TestHumanEditLineParts(t *testing.T) {
	edits := []apply.EditResult{
		{Index: 0, Status: edit.StatusApplied, Strategy: edit.StrategyExact, LineStart: 7, LineEnd: 7},
		{Index: 1, Status: edit.StatusApplied, Strategy: edit.StrategyIndent, LineStart: 10, LineEnd: 12, Repaired: true, Note: "indentation adjusted"},
		{Index: 12, Status: edit.StatusFailed, Repaired: true},
		{Index: 345, Status: edit.StatusFailed},
		{Index: 6, Status: edit.StatusAlreadyApplied, LineStart: 3, LineEnd: 2},
		{Index: 7, Status: edit.StatusApplied, Strategy: edit.StrategyRename, Note: "n"},
	}
	want := []string{
		"  ✓ edit 0: applied (exact, line 7)",
		"  ✓ edit 1: applied (indent, lines 10-12, repaired): indentation adjusted",
		"  ✗ edit 12: failed (repaired)",
		"  ✗ edit 345: failed",
		"  = edit 6: already applied (line 3)",
		"  ✓ edit 7: applied (rename): n",
	}
	res := &apply.Result{Files: []*apply.FileResult{{Path: "a.go", Op: "modify", Edits: edits}}}
	for _, colored := range []bool{false, true} {
		var b bytes.Buffer
		if err := Human(&b, res, colored); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")[1 : 1+len(want)]
		for i, l := range lines {
			if colored {
				if !strings.Contains(l, "\x1b[") {
					t.Errorf("colored line %q has no color", l)
				}
				l = regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(l, "")
			}
			if l != want[i] {
				t.Errorf("color=%v: edit line %d is %q, want %q", colored, i, l, want[i])
			}
		}
	}
}
