package apply

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/testhook"
	"github.com/edapply/edapply/parse"
)

// plant sets testhook.Plan to fn for the test.
func plant(t *testing.T, fn func(path string, content []byte, mode fs.FileMode) ([]byte, fs.FileMode)) {
	t.Helper()
	testhook.Plan = fn
	t.Cleanup(func() { testhook.Plan = nil })
}

// internalRule returns the rule of res's INTERNAL error, "" when it has
// none.
func internalRule(res *Result) string {
	for _, e := range res.Errors {
		if e.Code == edit.CodeInternal {
			_, r, _ := strings.Cut(e.Msg, "(")
			r, _, _ = strings.Cut(r, ")")
			return r
		}
	}
	return ""
}

// TestCheckRefusesAPlantedDefect plants defects in a plan that commit
// would write (a byte outside the edit's span, a kept line's ending, a
// mode) and shows each refused with INTERNAL before anything is written,
// in a dry run as in a real one, the receipt claiming no write.
func TestCheckRefusesAPlantedDefect(t *testing.T) {
	before := tree{"a.txt": "one\r\ntwo\r\nthree\r\n", "b.txt": "keep\n"}
	edits := []edit.Edit{{Op: edit.Replace, Path: "a.txt", Old: "two\n", New: "TWO\n", Count: 1, Format: edit.FormatSearchReplace}}
	tests := []struct {
		name string
		rule string
		fn   func(path string, b []byte, mode fs.FileMode) ([]byte, fs.FileMode)
	}{
		{"outsideTheSpan", "replay", func(p string, b []byte, m fs.FileMode) ([]byte, fs.FileMode) {
			return bytes.Replace(b, []byte("three"), []byte("thr3e"), 1), m
		}},
		{"lineEnding", "replay", func(p string, b []byte, m fs.FileMode) ([]byte, fs.FileMode) {
			return bytes.Replace(b, []byte("one\r\n"), []byte("one\n"), 1), m
		}},
		{"mode", "mode", func(p string, b []byte, m fs.FileMode) ([]byte, fs.FileMode) { return b, 0o777 }},
	}
	for _, tt := range tests {
		for _, dry := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				dir := t.TempDir()
				writeTree(t, dir, before)
				plant(t, tt.fn)
				opts := testOpts(t, dir)
				opts.DryRun = dry
				res, err := Apply(context.Background(), edits, opts)
				if err == nil || res.OK || internalRule(res) != tt.rule {
					t.Fatalf("Apply (dry run %v) = %v, want INTERNAL (%s)", dry, res.Errors, tt.rule)
				}
				diffTrees(t, "after a refused transaction", readTree(t, dir), before)
				noTemps(t, dir)
				if res.Journal != "" {
					t.Errorf("a refused transaction named the journal %s", res.Journal)
				}
				for _, f := range res.Files {
					if f.AfterHash != f.BeforeHash {
						t.Errorf("%s: after hash %s, want the before hash: nothing was written", f.Path, f.AfterHash)
					}
					for _, er := range f.Edits {
						if er.Status == edit.StatusApplied {
							t.Errorf("%s: edit %d reported applied in a refused transaction", f.Path, er.Index)
						}
					}
				}
				if fi, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil || fi.Mode().Perm() != 0o644 {
					t.Errorf("a.txt's mode after a refused transaction: %v %v", fi.Mode(), err)
				}
			})
		}
	}
	// Unplanted, the same plan passes the check and lands.
	dir := t.TempDir()
	writeTree(t, dir, before)
	if res, err := Apply(context.Background(), edits, testOpts(t, dir)); err != nil {
		t.Fatalf("Apply = %v", res.Errors)
	}
	diffTrees(t, "applied", readTree(t, dir), tree{"a.txt": "one\r\nTWO\r\nthree\r\n", "b.txt": "keep\n"})
}

// TestCheckRefusesAPlantedDefectOnPieces plants one in a file written
// from its pieces (Options.Omit.After): the check reads the pieces too.
func TestCheckRefusesAPlantedDefectOnPieces(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		b.WriteString(strings.Repeat("line ", i%5) + "x\n")
	}
	before := tree{"big.txt": b.String()}
	var edits []edit.Edit
	for _, old := range []string{"line line line line x\n", "line line x\n"} {
		edits = append(edits, edit.Edit{Op: edit.Replace, Path: "big.txt", Old: old, New: "NEW\n", Count: 0, Format: edit.FormatSearchReplace})
	}
	dir := t.TempDir()
	writeTree(t, dir, before)
	plant(t, func(p string, b []byte, m fs.FileMode) ([]byte, fs.FileMode) {
		return append(b[:len(b)-2:len(b)-2], "y\n"...), m
	})
	opts := testOpts(t, dir)
	opts.Omit.After = true
	res, err := Apply(context.Background(), edits, opts)
	if err == nil || internalRule(res) != "replay" {
		t.Fatalf("Apply = %v, want INTERNAL (replay)", res.Errors)
	}
	diffTrees(t, "after a refused transaction", readTree(t, dir), before)
}

// TestIssue31NeverWrong applies the issue's reproductions through the
// parser and the planner: each either lands as the issue says, or is
// refused (by the planner, or by the check as INTERNAL) with the tree as
// it was. Never a wrong write.
func TestIssue31NeverWrong(t *testing.T) {
	tests := []struct {
		name   string
		before tree
		link   bool // link.txt → target.txt
		reply  string
		want   tree // nil: refused
		marks  bool // needs the hunk's marks, which the parser may not give yet
	}{
		{name: "alreadyInFinalContent", before: tree{"f.py": "def f():\n    run()\n    check()\n    done()\n"},
			reply: "f.py\n```\n<<<<<<< SEARCH\n    done()\n=======\n    check()\n    done()\n>>>>>>> REPLACE\n```\n\nf.py\n```\n<<<<<<< SEARCH\n    run()\n    check()\n=======\n    try:\n        run()\n        check()\n    except E:\n        pass\n>>>>>>> REPLACE\n```\n",
			want:  tree{"f.py": "def f():\n    try:\n        run()\n        check()\n    except E:\n        pass\n    check()\n    done()\n"}},
		{name: "keptLineCRLF", before: tree{"t.txt": "x\r\nx\n"}, marks: true,
			reply: "*** Begin Patch\n*** Update File: t.txt\n@@\n-x\n x\n*** End Patch\n", want: tree{"t.txt": "x\n"}},
		{name: "keptLineTrailingBlank", before: tree{"t.txt": "x\nx \n"}, marks: true,
			reply: "*** Begin Patch\n*** Update File: t.txt\n@@\n-x\n x\n*** End Patch\n", want: tree{"t.txt": "x \n"}},
		{name: "keptLineUDiff", before: tree{"t.txt": "same\r\nsame\n"}, marks: true,
			reply: "--- a/t.txt\n+++ b/t.txt\n@@ -1,2 +1,1 @@\n-same\n same\n", want: tree{"t.txt": "same\n"}},
		{name: "appendRestates", before: tree{"x.rb": "# x.rb\n"},
			reply: "x.rb\n```\n<<<<<<< SEARCH\n=======\n# x.rb\n\nclass A\nend\n>>>>>>> REPLACE\n```\n"},
		{name: "deleteSymlink", before: tree{"target.txt": "t\n"}, link: true,
			reply: "*** Begin Patch\n*** Delete File: link.txt\n*** End Patch\n", want: tree{"target.txt": "t\n"}},
		{name: "newlineOnly", before: tree{"a.txt": "one\ntwo\n"},
			reply: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+two\n\\ No newline at end of file\n", want: tree{"a.txt": "one\ntwo"}},
		{name: "createdTwice",
			reply: "hud.py\n```\n<<<<<<< SEARCH\n=======\nimport core\n\ndef hud():\n    print(core.Ship().gold)\n    return True\n>>>>>>> REPLACE\n```\n\nLet me fix this:\n\nhud.py\n```\n<<<<<<< SEARCH\n=======\nfrom core import Ship\n\ndef hud():\n    print(Ship().gold)\n    return True\n>>>>>>> REPLACE\n```\n",
			want:  tree{"hud.py": "from core import Ship\n\ndef hud():\n    print(Ship().gold)\n    return True\n"}},
		{name: "cp1251Unicode", before: tree{"c.txt": "\xcf\xf0\xe8\xe2\xe5\xf2\nend\n"},
			reply: "c.txt\n```\n<<<<<<< SEARCH\nend\n=======\nend\nмир\n>>>>>>> REPLACE\n```\n"},
		{name: "cp1251ASCII", before: tree{"c.txt": "\xcf\xf0\xe8\xe2\xe5\xf2\nend\n"},
			reply: "c.txt\n```\n<<<<<<< SEARCH\nend\n=======\nfin\n>>>>>>> REPLACE\n```\n", want: tree{"c.txt": "\xcf\xf0\xe8\xe2\xe5\xf2\nfin\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.before)
			if tt.link {
				if err := os.Symlink("target.txt", filepath.Join(dir, "link.txt")); err != nil {
					t.Skip("no symlinks here:", err)
				}
			}
			before := readTree(t, dir)
			r, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			edits, perrs := parse.Parse(tt.reply, parse.Options{Tree: r})
			if tt.marks {
				for _, e := range edits {
					if e.Op == edit.Replace && e.Marks == "" {
						t.Skip("the parser gives this hunk no marks yet: the kept line cannot be told from its twin")
					}
				}
			}
			res, aerr := Apply(context.Background(), edits, testOpts(t, dir))
			got := readTree(t, dir)
			if len(perrs) > 0 || aerr != nil {
				diffTrees(t, "after a refusal", got, before)
				return
			}
			if tt.want == nil {
				t.Fatalf("applied (%+v), leaving %q; want a refusal", res.Files, got)
			}
			if tt.link {
				tt.want = tree{"target.txt": "t\n"}
			}
			diffTrees(t, "applied", got, tt.want)
		})
	}
}

// TestCheckGitRenameMode: a git rename with a new mode lands with that
// mode, or is refused with nothing moved.
func TestCheckGitRenameMode(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, tree{"run.sh": "echo\n"})
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	reply := "diff --git a/run.sh b/bin/run.sh\nold mode 100644\nnew mode 100755\nsimilarity index 100%\nrename from run.sh\nrename to bin/run.sh\n"
	edits, perrs := parse.Parse(reply, parse.Options{Tree: r})
	if len(perrs) > 0 {
		t.Fatal(perrs)
	}
	res, aerr := Apply(context.Background(), edits, testOpts(t, dir))
	if aerr != nil {
		diffTrees(t, "after a refusal", readTree(t, dir), tree{"run.sh": "echo\n"})
		if rule := internalRule(res); rule != "" && rule != "mode" {
			t.Errorf("INTERNAL (%s), want the mode rule's", rule)
		}
		return
	}
	fi, err := os.Stat(filepath.Join(dir, "bin", "run.sh"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("bin/run.sh after the rename: %v %v, want mode 0755", fi, err)
	}
}

// The fuzzers' findings that are the planner's or the ladder's to fix
// (see /work/notes/fuzz-findings.md): each is refused by the check today.
// Unskip once fixed; each must then land right, with no INTERNAL.

// A tool call quoting only a blank line's read line number leaves no old
// text once the number is stripped, and an empty one would insert before
// the line rather than replace it: NO_MATCH, nothing written. With the
// line's newline, the blank line is an old text, and is replaced.
func TestNumberedBlankLineIsNoOldText(t *testing.T) {
	for name, c := range map[string]struct {
		old, new string
		want     string // "": NO_MATCH
	}{
		"numberOnly":  {"     1\t", "     1\tnew", ""},
		"withNewline": {"     1\t\n     2\tx\n", "     1\tnew\n     2\tx\n", "new\nx\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tree{"f.txt": "\nx\n"})
			edits := []edit.Edit{{Op: edit.Replace, Path: "f.txt", Old: c.old, New: c.new, Count: 1, Format: edit.FormatJSON}}
			res, err := Apply(context.Background(), edits, testOpts(t, dir))
			if c.want == "" {
				if err == nil || !hasCode(res.Errors, edit.CodeNoMatch) || internalRule(res) != "" {
					t.Fatalf("Apply = %v, want NO_MATCH", res.Errors)
				}
				diffTrees(t, "refused", readTree(t, dir), tree{"f.txt": "\nx\n"})
				return
			}
			if err != nil {
				t.Fatalf("Apply = %v", res.Errors)
			}
			diffTrees(t, "applied", readTree(t, dir), tree{"f.txt": c.want})
		})
	}
}

// A second empty create of a file the first made empty changes nothing:
// already applied, where it was reported applied.
func TestEmptyFillIsAlreadyApplied(t *testing.T) {
	dir := t.TempDir()
	e := edit.Edit{Op: edit.Replace, Path: "new.txt"}
	res, err := Apply(context.Background(), []edit.Edit{e, e}, testOpts(t, dir))
	if err != nil {
		t.Fatalf("Apply = %v", res.Errors)
	}
	if st := statusesOf(res); st[0] != edit.StatusApplied || st[1] != edit.StatusAlreadyApplied {
		t.Errorf("statuses %v, want applied (the create), then already_applied", st)
	}
	diffTrees(t, "applied", readTree(t, dir), tree{"new.txt": ""})
}
