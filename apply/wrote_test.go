package apply

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// The cases of this file are shapes in which an apply wrote what the model
// did not mean, or claimed what it did not do; each is the rule that
// should have held, tried on a tree.

// statusesOf returns the status of every edit of res, by index.
func statusesOf(res *Result) map[int]edit.Status {
	st := map[int]edit.Status{}
	for _, f := range res.Files {
		for _, e := range f.Edits {
			st[e.Index] = e.Status
		}
	}
	return st
}

// editResult returns the result of edit i of res.
func editResult(t *testing.T, res *Result, i int) EditResult {
	t.Helper()
	for _, f := range res.Files {
		for _, e := range f.Edits {
			if e.Index == i {
				return e
			}
		}
	}
	t.Fatalf("no result for edit %d", i)
	return EditResult{}
}

// A line a hunk keeps keeps the bytes of the file's line the hunk names.
func TestKeptLineKeepsItsBytes(t *testing.T) {
	codex := func(old, nw, marks string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: "t.txt", Old: old, New: nw, Count: 1, Format: edit.FormatCodex, Marks: marks}
	}
	for name, c := range map[string]struct {
		file string
		e    edit.Edit
		want string
	}{
		"crlfThenLF":    {"x\r\nx\n", codex("x\nx\n", "x\n", "- "), "x\n"},
		"trailingBlank": {"x\nx \n", codex("x\nx\n", "x\n", "- "), "x \n"},
		"udiff": {"same\r\nsame\n", edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "same\nsame\n", New: "same\n", Count: 1,
			Hint: 1, TrailContext: 1, Format: edit.FormatUDiff, Marks: "- "}, "same\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			res := applyCase(t, root, tree{"t.txt": c.file}, []edit.Edit{c.e}, tree{"t.txt": c.want}, "")
			if st := statusesOf(res)[0]; st != edit.StatusApplied {
				t.Errorf("status %s, want applied", st)
			}
		})
	}
}

// A hunk that changes only the final newline changes it, and says so.
func TestNewlineOnlyChange(t *testing.T) {
	hunk := func(old, nw string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: "a.txt", Old: old, New: nw, Count: 1, Hint: 1, LeadContext: 1,
			Format: edit.FormatUDiff, Marks: " -+"}
	}
	for name, c := range map[string]struct {
		file string
		e    edit.Edit
		want string
	}{
		"remove": {"one\ntwo\n", hunk("one\ntwo\n", "one\ntwo"), "one\ntwo"},
		"add":    {"one\ntwo", hunk("one\ntwo", "one\ntwo\n"), "one\ntwo\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			res := applyCase(t, root, tree{"a.txt": c.file}, []edit.Edit{c.e}, tree{"a.txt": c.want}, "")
			if st := statusesOf(res)[0]; st != edit.StatusApplied {
				t.Errorf("status %s, want applied", st)
			}
			// Sent again, it is already applied and writes nothing.
			res, err := Apply(context.Background(), []edit.Edit{c.e}, testOpts(t, root))
			if err != nil {
				t.Fatalf("again: %v", err)
			}
			if st := statusesOf(res)[0]; st != edit.StatusAlreadyApplied {
				t.Errorf("again: status %s, want already_applied", st)
			}
			diffTrees(t, "again", readTree(t, root), tree{"a.txt": c.want})
		})
	}
}

// An edit found already applied holds in the content as the whole reply
// leaves it: one whose text a later edit moves away applies for real, so
// the result is the same in either order of the blocks.
func TestAlreadyAppliedHoldsInTheFinalContent(t *testing.T) {
	const before = "def f():\n    run()\n    check()\n    done()\n"
	const want = "def f():\n    try:\n        run()\n        check()\n    except E:\n        pass\n    check()\n    done()\n"
	insert := edit.Edit{Op: edit.Replace, Path: "f.py", Old: "    done()\n", New: "    check()\n    done()\n", Count: 1, Format: edit.FormatSearchReplace}
	wrap := edit.Edit{Op: edit.Replace, Path: "f.py", Old: "    run()\n    check()\n",
		New: "    try:\n        run()\n        check()\n    except E:\n        pass\n", Count: 1, Format: edit.FormatSearchReplace}
	for name, edits := range map[string][]edit.Edit{
		"insertFirst": {insert, wrap},
		"wrapFirst":   {wrap, insert},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			res := applyCase(t, root, tree{"f.py": before}, edits, tree{"f.py": want}, "")
			for i, st := range statusesOf(res) {
				if st != edit.StatusApplied {
					t.Errorf("edit %d: %s, want applied", i, st)
				}
			}
		})
	}
	// A resent reply is already applied as a whole: nothing moves.
	t.Run("resent", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, tree{"f.py": want})
		res, err := Apply(context.Background(), []edit.Edit{insert, wrap}, testOpts(t, root))
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		for i, st := range statusesOf(res) {
			if st != edit.StatusAlreadyApplied {
				t.Errorf("edit %d: %s, want already_applied", i, st)
			}
		}
		diffTrees(t, "tree", readTree(t, root), tree{"f.py": want})
	})
	// An edit whose text a later edit changes, and whose old text is not
	// in the file, cannot be applied: refused, not claimed.
	t.Run("changedAfter", func(t *testing.T) {
		root := t.TempDir()
		edits := []edit.Edit{replace("a.txt", "foo\n", "bar\n"), replace("a.txt", "bar\n", "baz\n")}
		applyCase(t, root, tree{"a.txt": "x\nbar\n"}, edits, nil, string(edit.CodeNoMatch))
	})
	// A resent insertion whose old text a later edit makes stand twice:
	// its new text still stands, so it is not inserted again.
	t.Run("oldTextRepeatedAfter", func(t *testing.T) {
		root := t.TempDir()
		edits := []edit.Edit{replace("a.txt", "c\n", "b\nc\n"), replace("a.txt", "z\n", "z\nc\n")}
		res := applyCase(t, root, tree{"a.txt": "a\nb\nc\nz\n"}, edits, tree{"a.txt": "a\nb\nc\nz\nc\n"}, "")
		if st := statusesOf(res); st[0] != edit.StatusAlreadyApplied || st[1] != edit.StatusApplied {
			t.Errorf("statuses %v", st)
		}
	})
	// One whose text stands elsewhere in the file than what a later edit
	// changes stays already applied.
	t.Run("changedElsewhere", func(t *testing.T) {
		root := t.TempDir()
		edits := []edit.Edit{replace("a.txt", "foo\n", "bar\n"), replace("a.txt", "x\n", "y\n")}
		res := applyCase(t, root, tree{"a.txt": "x\nbar\n"}, edits, tree{"a.txt": "y\nbar\n"}, "")
		if st := statusesOf(res); st[0] != edit.StatusAlreadyApplied || st[1] != edit.StatusApplied {
			t.Errorf("statuses %v", st)
		}
	})
}

// A whole-file edit that changes nothing (a create or a rewrite of the
// text the file holds) is already applied only while a later edit of the
// reply leaves that text standing; a later edit that changes it makes the
// claim false, and the create cannot be applied for real: refused, the
// tree as it was. Left standing, it stays already applied.
func TestWholeFileAlreadyAppliedHolds(t *testing.T) {
	const file = "x = 1\ny = 2\n"
	create := edit.Edit{Op: edit.Create, Path: "a.py", New: file, Format: edit.FormatCodex}
	rewrite := edit.Edit{Op: edit.Rewrite, Path: "a.py", New: file, Format: edit.FormatWhole}
	for name, c := range map[string]struct {
		edits []edit.Edit
		want  tree
		code  edit.Code
	}{
		"createThenChanged":  {edits: []edit.Edit{create, replace("a.py", "y = 2\n", "y = 3\n")}, code: edit.CodeFileExists},
		"rewriteThenChanged": {edits: []edit.Edit{rewrite, replace("a.py", "y = 2\n", "y = 3\n")}, code: edit.CodeNoMatch},
		"createThenAdded":    {edits: []edit.Edit{create, replace("a.py", "y = 2\n", "y = 2\nz = 3\n")}, want: tree{"a.py": file + "z = 3\n"}},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			res := applyCase(t, root, tree{"a.py": file}, c.edits, c.want, string(c.code))
			if res != nil {
				if st := statusesOf(res); st[0] != edit.StatusAlreadyApplied || st[1] != edit.StatusApplied {
					t.Errorf("statuses %v, want already_applied, applied", st)
				}
			}
		})
	}
}

// A reply whose edits keep moving each other's text past the rounds
// holdAlready runs is refused, its unsettled edit failed.
func TestAlreadyAppliedUnsettledIsRefused(t *testing.T) {
	defer func(n int) { maxHoldRounds = n }(maxHoldRounds)
	maxHoldRounds = 0
	root := t.TempDir()
	edits := []edit.Edit{
		replace("f.py", "    done()\n", "    check()\n    done()\n"),
		replace("f.py", "    run()\n    check()\n", "    try:\n        run()\n        check()\n    except E:\n        pass\n"),
	}
	before := tree{"f.py": "def f():\n    run()\n    check()\n    done()\n"}
	writeTree(t, root, before)
	res, err := Apply(context.Background(), edits, testOpts(t, root))
	if err == nil || !hasCode(res.Errors, edit.CodeNoMatch) {
		t.Fatalf("Apply: %v, want NO_MATCH", err)
	}
	if st := statusesOf(res)[0]; st != edit.StatusFailed {
		t.Errorf("edit 0: %s, want failed", st)
	}
	diffTrees(t, "tree", readTree(t, root), before)
}

// The mode written is the mode asked: a git rename's new mode, on the
// rename or on the first edit after it, as git applies it.
func TestRenameWritesTheModeAsked(t *testing.T) {
	rename := edit.Edit{Op: edit.Rename, Path: "run.sh", New: "bin/run.sh", Format: edit.FormatUDiff}
	change := edit.Edit{Op: edit.Replace, Path: "bin/run.sh", Old: "echo hi\n", New: "echo hello\n", Count: 1, Format: edit.FormatUDiff}
	withMode := func(e edit.Edit, m uint32) edit.Edit { e.Mode = m; return e }
	for name, c := range map[string]struct {
		edits   []edit.Edit
		content string
		want    fs.FileMode
	}{
		"onRename":       {[]edit.Edit{withMode(rename, 0o755)}, "echo hi\n", 0o755},
		"onRenameEdited": {[]edit.Edit{withMode(rename, 0o755), change}, "echo hello\n", 0o755},
		"onFirstEdit":    {[]edit.Edit{rename, withMode(change, 0o755)}, "echo hello\n", 0o755},
		"none":           {[]edit.Edit{rename, change}, "echo hello\n", 0o640},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree{"run.sh": "echo hi\n"})
			if err := os.Chmod(filepath.Join(root, "run.sh"), 0o640); err != nil {
				t.Fatal(err)
			}
			if _, err := Apply(context.Background(), c.edits, testOpts(t, root)); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			diffTrees(t, "tree", readTree(t, root), tree{"bin/run.sh": c.content})
			if m := mode(t, filepath.Join(root, "bin", "run.sh")).Perm(); m != c.want {
				t.Errorf("mode %v, want %v", m, c.want)
			}
		})
	}
}

// An append never restates the file, at any size: a text that begins
// with a one-line stub's whole text is a new version, FILE_EXISTS.
func TestAppendNeverRestatesTheFile(t *testing.T) {
	root := t.TempDir()
	e := edit.Edit{Op: edit.Create, Path: "x.rb", New: "# x.rb\n\nclass A\nend\n", Format: edit.FormatSearchReplace}
	applyCase(t, root, tree{"x.rb": "# x.rb\n"}, []edit.Edit{e}, nil, string(edit.CodeFileExists))
}

// A file the reply creates is never appended to by a later create of the
// same path: the later is the file's new version, and the first is
// reported matched (its text is not written), with a note naming the
// edit that replaced it.
func TestSecondCreateIsTheNewVersion(t *testing.T) {
	draft := "import core\n\ndef show():\n    print(core.Ship().gold)\n    return True\n"
	fix := "from core import Ship\n\ndef show():\n    print(Ship().gold)\n"
	for _, format := range []edit.Format{edit.FormatSearchReplace, edit.FormatCodex, edit.FormatUDiff, edit.FormatJSON} {
		t.Run(format.String(), func(t *testing.T) {
			root := t.TempDir()
			edits := []edit.Edit{
				{Op: edit.Create, Path: "hud.py", New: draft, Format: format},
				{Op: edit.Create, Path: "hud.py", New: fix, Format: format},
			}
			res := applyCase(t, root, tree{}, edits, tree{"hud.py": fix}, "")
			first, second := editResult(t, res, 0), editResult(t, res, 1)
			if first.Status != edit.StatusMatched || !strings.Contains(first.Note, "replaced by edit 1") {
				t.Errorf("first create: %s, note %q; want matched, replaced by edit 1", first.Status, first.Note)
			}
			if second.Status != edit.StatusApplied {
				t.Errorf("second create: %s, want applied", second.Status)
			}
			if len(res.Files) != 1 || res.Files[0].Op != "create" {
				t.Errorf("files %+v, want one created", res.Files)
			}
		})
	}
	// The draft edited, then created again: the edit to the draft is
	// not written either.
	t.Run("editedDraft", func(t *testing.T) {
		root := t.TempDir()
		edits := []edit.Edit{
			{Op: edit.Create, Path: "hud.py", New: draft, Format: edit.FormatSearchReplace},
			{Op: edit.Replace, Path: "hud.py", Old: "    return True\n", New: "    return False\n", Count: 1, Format: edit.FormatSearchReplace},
			{Op: edit.Create, Path: "hud.py", New: fix, Format: edit.FormatSearchReplace},
		}
		res := applyCase(t, root, tree{}, edits, tree{"hud.py": fix}, "")
		if st := statusesOf(res); st[0] != edit.StatusMatched || st[1] != edit.StatusMatched || st[2] != edit.StatusApplied {
			t.Errorf("statuses %v", st)
		}
	})
	// The file that stood is deleted, then created as a draft and again
	// as its fix: the deletion is done; only the draft is replaced.
	t.Run("deletedThenCreatedTwice", func(t *testing.T) {
		root := t.TempDir()
		edits := []edit.Edit{
			{Op: edit.Delete, Path: "hud.py", Format: edit.FormatCodex},
			{Op: edit.Create, Path: "hud.py", New: draft, Format: edit.FormatCodex},
			{Op: edit.Create, Path: "hud.py", New: fix, Format: edit.FormatCodex},
		}
		res := applyCase(t, root, tree{"hud.py": "old = 1\n"}, edits, tree{"hud.py": fix}, "")
		if st := statusesOf(res); st[0] != edit.StatusApplied || st[1] != edit.StatusMatched || st[2] != edit.StatusApplied {
			t.Errorf("statuses %v, want applied, matched, applied", st)
		}
	})
	// The same create twice is one create, already applied the second time.
	t.Run("sentTwice", func(t *testing.T) {
		root := t.TempDir()
		e := edit.Edit{Op: edit.Create, Path: "hud.py", New: fix, Format: edit.FormatSearchReplace}
		res := applyCase(t, root, tree{}, []edit.Edit{e, e}, tree{"hud.py": fix}, "")
		if st := statusesOf(res); st[0] != edit.StatusApplied || st[1] != edit.StatusAlreadyApplied {
			t.Errorf("statuses %v", st)
		}
	})
	// A file that stood before the reply is appended to, as Aider reads
	// an empty SEARCH.
	t.Run("existingAppends", func(t *testing.T) {
		root := t.TempDir()
		e := edit.Edit{Op: edit.Create, Path: "hud.py", New: "x = 1\n", Format: edit.FormatSearchReplace}
		applyCase(t, root, tree{"hud.py": fix}, []edit.Edit{e}, tree{"hud.py": fix + "x = 1\n"}, "")
	})
}

// The receipt says what the disk sees: a file the reply creates and
// moves is created where it ends, one it moves and deletes is deleted.
func TestMovedFilesReceipt(t *testing.T) {
	codex := func(e edit.Edit) edit.Edit { e.Format = edit.FormatCodex; return e }
	for name, c := range map[string]struct {
		before  tree
		edits   []edit.Edit
		after   tree
		op, new string
	}{
		"createdThenMoved": {tree{}, []edit.Edit{codex(edit.Edit{Op: edit.Create, Path: "n.txt", New: "n\n"}), codex(edit.Edit{Op: edit.Rename, Path: "n.txt", New: "m.txt"})},
			tree{"m.txt": "n\n"}, "create", "m.txt"},
		"emptyCreatedThenMoved": {tree{}, []edit.Edit{codex(edit.Edit{Op: edit.Create, Path: "n.txt"}), codex(edit.Edit{Op: edit.Rename, Path: "n.txt", New: "m.txt"})},
			tree{"m.txt": ""}, "create", "m.txt"},
		"movedThenDeleted": {tree{"a.txt": "a\n"}, []edit.Edit{codex(edit.Edit{Op: edit.Rename, Path: "a.txt", New: "b.txt"}), codex(edit.Edit{Op: edit.Delete, Path: "b.txt"})},
			tree{}, "delete", ""},
		"moved": {tree{"a.txt": "a\n"}, []edit.Edit{codex(edit.Edit{Op: edit.Rename, Path: "a.txt", New: "b.txt"})},
			tree{"b.txt": "a\n"}, "rename", "b.txt"},
	} {
		t.Run(name, func(t *testing.T) {
			res := applyCase(t, t.TempDir(), c.before, c.edits, c.after, "")
			if len(res.Files) != 1 || res.Files[0].Op != c.op || res.Files[0].NewPath != c.new {
				t.Fatalf("files %+v, want one %s with new path %q", res.Files, c.op, c.new)
			}
		})
	}
}

// A file that is not UTF-8 keeps its encoding: an edit may add ASCII text
// and keep the file's own bytes, but never add non-ASCII UTF-8 to it.
func TestFileKeepsItsEncoding(t *testing.T) {
	const cp1251 = "\xef\xf0\xe8\xe2\xe5\xf2\nend\n" // "привет\nend\n" in cp1251
	sr := func(old, nw string) edit.Edit {
		if old == "" {
			return edit.Edit{Op: edit.Create, Path: "t.txt", New: nw, Format: edit.FormatSearchReplace}
		}
		return edit.Edit{Op: edit.Replace, Path: "t.txt", Old: old, New: nw, Count: 1, Format: edit.FormatSearchReplace}
	}
	for name, c := range map[string]struct {
		file string
		e    edit.Edit
		want string // "" : refused BINARY_FILE
	}{
		"addsUTF8":    {cp1251, sr("end\n", "end\nмир\n"), ""},
		"asciiLands":  {cp1251, sr("end\n", "fin\n"), "\xef\xf0\xe8\xe2\xe5\xf2\nfin\n"},
		"appendsUTF8": {cp1251, sr("", "мир\n"), ""},
		"appendASCII": {cp1251, sr("", "x = 1\n"), cp1251 + "x = 1\n"},
		"toolCall": {cp1251, edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "end", New: "конец", Count: 1, Format: edit.FormatJSON},
			""},
		"rewriteUTF8": {cp1251, edit.Edit{Op: edit.Rewrite, Path: "t.txt", New: "привет\nfin\n", Format: edit.FormatWhole}, ""},
		"rewriteASCII": {"\xef\xf0\nend\n", edit.Edit{Op: edit.Rewrite, Path: "t.txt", New: "a\nend\n", Format: edit.FormatWhole},
			"a\nend\n"},
		// A line the edit keeps is the file's own bytes, even where they
		// read as UTF-8 (cp1251 "Р " is UTF-8's "Р").
		"keptLineLooksUTF8": {"\xd0\xa0 x\n\xff\nend\n", sr("\xd0\xa0 x\n", "\xd0\xa0 x\nadded\n"), "\xd0\xa0 x\nadded\n\xff\nend\n"},
		// A UTF-8 file takes UTF-8 text.
		"utf8File": {"привет\nend\n", sr("end\n", "end\nмир\n"), "привет\nend\nмир\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			if c.want == "" {
				writeTree(t, root, tree{"t.txt": c.file})
				res, err := Apply(context.Background(), []edit.Edit{c.e}, testOpts(t, root))
				if err == nil || !hasCode(res.Errors, edit.CodeBinaryFile) {
					t.Fatalf("Apply: %v, want BINARY_FILE", err)
				}
				if e := res.Errors[0]; !strings.Contains(e.Msg, "not UTF-8") || !strings.Contains(e.Hint, "encoding") {
					t.Errorf("error %q, hint %q: want the problem named", e.Msg, e.Hint)
				}
				diffTrees(t, "tree", readTree(t, root), tree{"t.txt": c.file})
				return
			}
			applyCase(t, root, tree{"t.txt": c.file}, []edit.Edit{c.e}, tree{"t.txt": c.want}, "")
		})
	}
}

// A create refuses an existing file with other content, in every format
// whose create is no append (an empty SEARCH appends, as Aider reads it),
// with a hint in the format's own terms, and is already applied when the
// file holds exactly its text.
func TestCreateOnAnExistingFile(t *testing.T) {
	for format, words := range map[edit.Format]string{
		edit.FormatUDiff: "/dev/null",
		edit.FormatCodex: "*** Update File",
		edit.FormatJSON:  `"str_replace" (old_str, new_str)`,
	} {
		t.Run(format.String(), func(t *testing.T) {
			root := t.TempDir()
			before := tree{"a.py": "x = 1\n"}
			e := edit.Edit{Op: edit.Create, Path: "a.py", New: "other = 2\n", Format: format}
			writeTree(t, root, before)
			res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
			if err == nil || !hasCode(res.Errors, edit.CodeFileExists) {
				t.Fatalf("Apply: %v, want FILE_EXISTS", err)
			}
			if h := res.Errors[0].Hint; !strings.Contains(h, words) {
				t.Errorf("hint %q, want it to say %q", h, words)
			}
			diffTrees(t, "tree", readTree(t, root), before)
			// Holding exactly that text, the file is already created.
			same := e
			same.New = "x = 1\n"
			res, err = Apply(context.Background(), []edit.Edit{same}, testOpts(t, root))
			if err != nil {
				t.Fatalf("same text: %v", err)
			}
			if st := statusesOf(res)[0]; st != edit.StatusAlreadyApplied {
				t.Errorf("same text: %s, want already_applied", st)
			}
		})
	}
}

// A delete or a rename acts on the path named: a symlink is removed or
// moved as a link, never its target, and undo puts it back as a link.
func TestDeleteAndRenameActOnTheLink(t *testing.T) {
	setup := func(t *testing.T) string {
		root := t.TempDir()
		writeTree(t, root, tree{"target.txt": "t\n", "sub/x.txt": "x\n"})
		if err := os.Symlink("target.txt", filepath.Join(root, "link.txt")); err != nil {
			t.Skip("no symlinks:", err)
		}
		return root
	}
	codex := func(e edit.Edit) edit.Edit { e.Format = edit.FormatCodex; return e }
	for name, c := range map[string]struct {
		edits []edit.Edit
		want  tree
		code  edit.Code
	}{
		"delete": {edits: []edit.Edit{codex(edit.Edit{Op: edit.Delete, Path: "link.txt"})},
			want: tree{"target.txt": "t\n", "sub/x.txt": "x\n"}},
		// A diff's deletion quotes the file the model read through the link.
		"deleteQuoting": {edits: []edit.Edit{{Op: edit.Delete, Path: "link.txt", Old: "t\n", Format: edit.FormatUDiff}},
			want: tree{"target.txt": "t\n", "sub/x.txt": "x\n"}},
		"deleteQuotingOther": {edits: []edit.Edit{{Op: edit.Delete, Path: "link.txt", Old: "other\n", Format: edit.FormatUDiff}},
			code: edit.CodeNoMatch},
		"rename": {edits: []edit.Edit{codex(edit.Edit{Op: edit.Rename, Path: "link.txt", New: "moved.txt"})},
			want: tree{"target.txt": "t\n", "sub/x.txt": "x\n", "moved.txt": "-> target.txt"}},
		// Moved into sub/, the link's relative target still reads
		// "target.txt", as git and mv leave it.
		"renameDeeper": {edits: []edit.Edit{codex(edit.Edit{Op: edit.Rename, Path: "link.txt", New: "sub/l.txt"})},
			want: tree{"target.txt": "t\n", "sub/x.txt": "x\n", "sub/l.txt": "-> target.txt"}},
		// An edit through the link before the delete edits the target.
		"editThenDelete": {edits: []edit.Edit{replace("link.txt", "t\n", "T\n"), codex(edit.Edit{Op: edit.Delete, Path: "link.txt"})},
			want: tree{"target.txt": "T\n", "sub/x.txt": "x\n"}},
		// After the delete, the path no longer leads to the target.
		"deleteThenEdit": {edits: []edit.Edit{codex(edit.Edit{Op: edit.Delete, Path: "link.txt"}), replace("link.txt", "t\n", "T\n")},
			code: edit.CodeIO},
		"renameThenEdit": {edits: []edit.Edit{codex(edit.Edit{Op: edit.Rename, Path: "link.txt", New: "moved.txt"}), replace("moved.txt", "t\n", "T\n")},
			code: edit.CodeIO},
		// A link has no mode: a git rename that names one is refused,
		// never moved with the mode dropped.
		"renameWithMode": {edits: []edit.Edit{{Op: edit.Rename, Path: "link.txt", New: "run.sh", Mode: 0o755, Format: edit.FormatUDiff}},
			code: edit.CodeIO},
	} {
		t.Run(name, func(t *testing.T) {
			root := setup(t)
			before := readTree(t, root)
			opts := testOpts(t, root)
			res, err := Apply(context.Background(), c.edits, opts)
			if c.code != "" {
				if err == nil || !hasCode(res.Errors, c.code) {
					t.Fatalf("Apply: %v, want %s", err, c.code)
				}
				diffTrees(t, "tree", readTree(t, root), before)
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			diffTrees(t, "tree", readTree(t, root), c.want)
			if _, err := Undo(context.Background(), opts); err != nil {
				t.Fatalf("Undo: %v", err)
			}
			diffTrees(t, "undone", readTree(t, root), before)
		})
	}
	// A link that resolves outside the root stays OUT_OF_ROOT, decided
	// before any file is read; so does one a rename would lead out.
	t.Run("outside", func(t *testing.T) {
		root := setup(t)
		if err := os.Symlink("/etc/hostname", filepath.Join(root, "out.txt")); err != nil {
			t.Fatal(err)
		}
		before := readTree(t, root)
		for _, e := range []edit.Edit{
			{Op: edit.Delete, Path: "out.txt", Format: edit.FormatCodex},
			{Op: edit.Rename, Path: "link.txt", New: "sub/deeper/l.txt", Format: edit.FormatCodex},
		} {
			if e.Op == edit.Rename {
				if err := os.Remove(filepath.Join(root, "link.txt")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("../target.txt", filepath.Join(root, "link.txt")); err != nil {
					t.Fatal(err)
				}
				// ../target.txt from the root leaves it: OUT_OF_ROOT as
				// it stands, whatever the destination.
			}
			res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
			if err == nil || !hasCode(res.Errors, edit.CodeOutOfRoot) {
				t.Errorf("%v %s: %v, want OUT_OF_ROOT", e.Op, e.Path, err)
			}
		}
		before["link.txt"] = "-> ../target.txt"
		diffTrees(t, "tree", readTree(t, root), before)
	})
	// A dangling link at a rename's destination is an entry there: the
	// rename is refused, never written to the path the link names.
	t.Run("renameOntoDanglingLink", func(t *testing.T) {
		root := setup(t)
		if err := os.Symlink("gone.txt", filepath.Join(root, "dangling.txt")); err != nil {
			t.Fatal(err)
		}
		before := readTree(t, root)
		e := edit.Edit{Op: edit.Rename, Path: "sub/x.txt", New: "dangling.txt", Format: edit.FormatCodex}
		res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
		if err == nil || !hasCode(res.Errors, edit.CodeFileExists) || internalRule(res) != "" {
			t.Fatalf("Apply: %v, want FILE_EXISTS", err)
		}
		diffTrees(t, "tree", readTree(t, root), before)
	})
	t.Run("renameLeadsOut", func(t *testing.T) {
		root := setup(t)
		if err := os.Symlink("../target.txt", filepath.Join(root, "sub", "up.txt")); err != nil {
			t.Fatal(err)
		}
		before := readTree(t, root)
		e := edit.Edit{Op: edit.Rename, Path: "sub/up.txt", New: "up.txt", Format: edit.FormatCodex}
		res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, root))
		if err == nil || !hasCode(res.Errors, edit.CodeOutOfRoot) {
			t.Fatalf("Apply: %v, want OUT_OF_ROOT", err)
		}
		diffTrees(t, "tree", readTree(t, root), before)
	})
}
