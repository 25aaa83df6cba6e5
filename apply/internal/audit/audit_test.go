package audit

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// The transactions below are built by hand, as a plan would hand them
// over: each case builds one twice, sound and with one planted defect
// that breaks exactly its rule; the sound one must pass and the other
// fail with INTERNAL naming that rule.

// modify is a transaction of one file read as before and written as
// after, by steps.
func modify(path, before, after string, steps ...Step) *Tx {
	tx := &Tx{Read: []Entry{{Path: path, Content: text(before)}},
		Files: []File{{Path: path, Op: "modify", Origin: path, Steps: steps}}}
	if after != before {
		tx.Writes = []Entry{{Path: path, Content: text(after)}}
	}
	return tx
}

func text(s string) Content {
	return Content{Exists: true, Text: []string{s}, Mode: 0o644, Exact: true}
}

// named is what a plain path (no symlink) names.
func named(p string) Name { return Name{Target: p, Entry: p} }

// located is edit i, e, located by strategy at lines a-b with splices.
func located(i int, e *edit.Edit, strategy string, a, b int, sp ...Splice) Step {
	status := "applied"
	if len(sp) == 0 {
		status = "already_applied"
	}
	return Step{Index: i, Edit: e, Status: status, Strategy: strategy, LineStart: a, LineEnd: b,
		At: e.Path, Located: true, Splices: sp, Named: named(e.Path)}
}

func block(path, old, new string) *edit.Edit {
	return &edit.Edit{Op: edit.Replace, Path: path, Old: old, New: new, Count: 1, Format: edit.FormatSearchReplace}
}

func hunk(path, old, new, marks string) *edit.Edit {
	return &edit.Edit{Op: edit.Replace, Path: path, Old: old, New: new, Count: 1, Format: edit.FormatUDiff, Marks: marks}
}

// link is a symlink to target, read as one.
func link(target string) Content { return Content{Exists: true, Text: []string{target}, Link: true} }

// linkRename is e, the rename of the symlink link.txt to moved.txt,
// written as w.
func linkRename(e *edit.Edit, w Content) *Tx {
	n := Name{Target: "target.txt", Entry: "link.txt", Link: true}
	return &Tx{Read: []Entry{{Path: "link.txt", Content: link("target.txt")}, {Path: "moved.txt"}},
		Files: []File{{Path: "link.txt", NewPath: "moved.txt", Op: "rename", Origin: "link.txt",
			Steps: []Step{{Index: 0, Edit: e, Status: "applied", Strategy: "rename", At: "moved.txt", Named: n, To: named("moved.txt")}}}},
		Writes: []Entry{{Path: "link.txt"}, {Path: "moved.txt", Content: w}}}
}

// recreated is a reply that creates n.txt, then creates it again: the
// first create reported first (with Replaced "applied" and replacedBy
// when matched), the second applied over it.
func recreated(first string, replacedBy int) *Tx {
	draft := &edit.Edit{Op: edit.Create, Path: "n.txt", New: "1\n", Format: edit.FormatSearchReplace}
	fix := &edit.Edit{Op: edit.Create, Path: "n.txt", New: "2\n", Format: edit.FormatSearchReplace}
	s0 := Step{Index: 0, Edit: draft, Status: first, Strategy: "create", LineStart: 1, LineEnd: 1, At: "n.txt", Whole: "1\n", Named: named("n.txt")}
	if first == "matched" {
		s0.Replaced, s0.ReplacedBy = "applied", replacedBy
	}
	s1 := Step{Index: 1, Edit: fix, Status: "applied", Strategy: "create", LineStart: 1, LineEnd: 1, At: "n.txt", Whole: "2\n", Named: named("n.txt")}
	return &Tx{Read: []Entry{{Path: "n.txt"}}, Files: []File{{Path: "n.txt", Op: "create", Steps: []Step{s0, s1}}},
		Writes: []Entry{{Path: "n.txt", Content: Content{Exists: true, Text: []string{"2\n"}, Mode: 0o644}}}}
}

// pick is a when sound, b with the defect.
func pick[T any](bad bool, a, b T) T {
	if bad {
		return b
	}
	return a
}

func TestCheckRules(t *testing.T) {
	tests := []struct {
		name string
		rule string
		tx   func(bad bool) *Tx
	}{
		{"outsideSpanChanged", RuleReplay, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			return modify("a.txt", "a\nb\nc\n", pick(bad, "a\nB\nc\n", "a\nB\nC\n"),
				located(0, e, "exact", 2, 2, Splice{2, "b\n", "B\n"}))
		}},
		{"spliceNotTheFiles", RuleReplay, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			return modify("a.txt", "a\nb\nc\n", "a\nB\nc\n",
				located(0, e, "exact", 2, 2, pick(bad, Splice{2, "b\n", "B\n"}, Splice{2, "x\n", "B\n"})))
		}},
		// Every place a replace_all names must be one it changed.
		{"occurrenceNotReplaced", RuleApplied, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "b", New: "B", Count: 0, Format: edit.FormatJSON}
			st := located(0, e, "exact", 2, 2, Splice{2, "b", "B"}, Splice{6, "b", "B"})
			st.Occurrences = [][2]int{{2, 2}, pick(bad, [2]int{4, 4}, [2]int{3, 3})}
			return modify("a.txt", "a\nb\nc\nb\n", "a\nB\nc\nB\n", st)
		}},
		{"occurrencesMiscounted", RuleApplied, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "b", New: "B", Count: 0, Format: edit.FormatJSON}
			st := located(0, e, "exact", 2, 2, Splice{2, "b", "B"}, Splice{6, "b", "B"})
			st.Occurrences = pick(bad, [][2]int{{2, 2}, {4, 4}}, [][2]int{{2, 2}, {4, 4}, {5, 5}})
			return modify("a.txt", "a\nb\nc\nb\n", "a\nB\nc\nB\n", st)
		}},
		{"wrongLinesWritten", RuleLines, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			w := pick(bad, "B\n", "X\n")
			return modify("a.txt", "a\nb\n", "a\n"+w, located(0, e, "exact", 2, 2, Splice{2, "b\n", w}))
		}},
		{"matchedLinesNotTheOldText", RuleLines, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			at, old := pick(bad, 2, 0), pick(bad, "b\n", "a\n")
			after := pick(bad, "a\nB\n", "B\nb\n")
			return modify("a.txt", "a\nb\n", after, located(0, e, "trailing-ws", at/2+1, at/2+1, Splice{at, old, "B\n"}))
		}},
		{"lineAddedToTheNewText", RuleLines, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			w := pick(bad, "B\n", "B\nB\n")
			return modify("a.txt", "a\nb\n", "a\n"+w, located(0, e, "exact", 2, 2, Splice{2, "b\n", w}))
		}},
		// The case: "-x" then " x" keeps the second x, whose bytes
		// are "x\n", not the first's "x\r\n".
		{"keptLineByMarks", RuleKeptLines, func(bad bool) *Tx {
			e := hunk("t.txt", "x\nx\n", "x\n", "- ")
			w := pick(bad, "x\n", "x\r\n")
			return modify("t.txt", "x\r\nx\n", w, located(0, e, "exact", 1, 2, Splice{0, "x\r\nx\n", w}))
		}},
		{"keptLineTrailingBlanksByMarks", RuleKeptLines, func(bad bool) *Tx {
			e := hunk("t.txt", "x\nx\n", "x\n", "- ")
			w := pick(bad, "x \n", "x\n")
			return modify("t.txt", "x\nx \n", w, located(0, e, "trailing-ws", 1, 2, Splice{0, "x\nx \n", w}))
		}},
		// Without marks, a kept line keeps the file's bytes: here its
		// trailing blanks, which the trailing-ws rung matched over.
		{"keptLineTrailingBlanks", RuleKeptLines, func(bad bool) *Tx {
			e := block("a.txt", "a\nb\n", "a\nc\n")
			w := pick(bad, "a  \nc\n", "a\nc\n")
			return modify("a.txt", "a  \nb\n", w, located(0, e, "trailing-ws", 1, 2, Splice{0, "a  \nb\n", w}))
		}},
		{"keptLineEnding", RuleKeptLines, func(bad bool) *Tx {
			e := block("a.txt", "a\nb\nc\n", "a\nB\nc\n")
			w := pick(bad, "a\r\nB\r\nc\n", "a\r\nB\r\nc\r\n")
			return modify("a.txt", "a\r\nb\r\nc\n", w, located(0, e, "exact", 1, 3, Splice{0, "a\r\nb\r\nc\n", w}))
		}},
		{"keptLineIndentation", RuleKeptLines, func(bad bool) *Tx {
			e := block("a.py", "if x:\n  y()\n", "if x:\n  z()\n")
			w := pick(bad, "\tif x:\n\t\tz()\n", "if x:\n\t\tz()\n")
			return modify("a.py", "\tif x:\n\t\ty()\n", w, located(0, e, "indent", 1, 2, Splice{0, "\tif x:\n\t\ty()\n", w}))
		}},
		{"appliedChangesNothing", RuleApplied, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			if bad {
				return modify("a.txt", "a\nb\n", "a\nb\n", located(0, e, "exact", 2, 2, Splice{2, "b\n", "b\n"}))
			}
			return modify("a.txt", "a\nb\n", "a\nB\n", located(0, e, "exact", 2, 2, Splice{2, "b\n", "B\n"}))
		}},
		{"receiptLines", RuleApplied, func(bad bool) *Tx {
			e := block("a.txt", "b\n", "B\n")
			return modify("a.txt", "a\nb\n", "a\nB\n", located(0, e, "exact", pick(bad, 2, 1), pick(bad, 2, 1), Splice{2, "b\n", "B\n"}))
		}},
		{"alreadyNotStanding", RuleAlreadyApplied, func(bad bool) *Tx {
			e := block("a.txt", "b\n", pick(bad, "a\n", "q\n"))
			return modify("a.txt", "a\nb\n", "a\nb\n", located(0, e, "exact", 1, 1))
		}},
		// The f.py: block 1 finds "check()\ndone()" standing, then
		// block 2 moves check() into a try; the written file lacks block
		// 1's text, whatever block 1 found.
		{"alreadyUndoneLater", RuleAlreadyApplied, func(bad bool) *Tx {
			before := "def f():\n    run()\n    check()\n    done()\n"
			e1 := block("f.py", "    done()\n", "    check()\n    done()\n")
			if !bad {
				e1 = block("f.py", "    done()\n", "    done()\n")
			}
			e2 := block("f.py", "    run()\n    check()\n", "    try:\n        run()\n        check()\n    except E:\n        pass\n")
			after := "def f():\n    try:\n        run()\n        check()\n    except E:\n        pass\n    done()\n"
			return modify("f.py", before, after,
				located(0, e1, "exact", pick(bad, 4, 4), 4),
				located(1, e2, "exact", 2, 3, Splice{9, "    run()\n    check()\n", e2.New}))
		}},
		{"alreadyMovedStillStands", RuleAlreadyApplied, func(bad bool) *Tx {
			// A later edit re-indents the text around it: it stands,
			// loosely, where it went.
			e1 := block("a.py", "x()\n", "x()\n")
			e2 := block("a.py", "x()\ny()\n", pick(bad, "if c:\n    x()\n    y()\n", "if c:\n    y()\n"))
			after := pick(bad, "if c:\n    x()\n    y()\n", "if c:\n    y()\n")
			return modify("a.py", "x()\ny()\n", after,
				located(0, e1, "exact", 1, 1),
				located(1, e2, "exact", 1, 2, Splice{0, "x()\ny()\n", e2.New}))
		}},
		{"deleteThroughSymlink", RulePath, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Delete, Path: "link.txt", Format: edit.FormatCodex}
			n := Name{Target: "target.txt", Entry: "link.txt", Link: true}
			// The sound plan removes the link; the defect, its target.
			at, c := pick(bad, "link.txt", "target.txt"), pick(bad, link("target.txt"), text("t\n"))
			tx := &Tx{Read: []Entry{{Path: at, Content: c}},
				Files:  []File{{Path: "link.txt", Op: "delete", Origin: at, Steps: []Step{{Index: 0, Edit: e, Status: "applied", Strategy: "delete", At: at, Named: n}}}},
				Writes: []Entry{{Path: at}}}
			return tx
		}},
		// A deletion that quotes the file the model read through the link
		// quotes the link's target's content; not another's.
		{"deleteLinkQuoting", RuleApplied, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Delete, Path: "link.txt", Old: pick(bad, "t\n", "other\n"), Format: edit.FormatUDiff}
			n := Name{Target: "target.txt", Entry: "link.txt", Link: true}
			return &Tx{Read: []Entry{{Path: "link.txt", Content: link("target.txt")}, {Path: "target.txt", Content: text("t\n")}},
				Files:  []File{{Path: "link.txt", Op: "delete", Origin: "link.txt", Steps: []Step{{Index: 0, Edit: e, Status: "applied", Strategy: "delete", At: "link.txt", Named: n}}}},
				Writes: []Entry{{Path: "link.txt"}}}
		}},
		// A link has no mode: moved, it is written as a link with none;
		// a rename that asks one of it cannot be written.
		{"linkRenamedWithAMode", RuleMode, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Rename, Path: "link.txt", New: "moved.txt", Mode: pick[uint32](bad, 0, 0o755), Format: edit.FormatUDiff}
			return linkRename(e, link("target.txt"))
		}},
		{"linkMovedAsAFile", RuleWritten, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Rename, Path: "link.txt", New: "moved.txt", Format: edit.FormatCodex}
			return linkRename(e, pick(bad, link("target.txt"), text("target.txt")))
		}},
		// The hud.py: a draft created, then created again as its
		// fix. The draft's create is matched, replaced by the fix, which
		// writes the file whole; left applied, it would claim text the
		// file lacks.
		{"draftLeftApplied", RuleSuperseded, func(bad bool) *Tx {
			return recreated(pick(bad, "matched", "applied"), 1)
		}},
		{"draftReplacedByAnother", RuleSuperseded, func(bad bool) *Tx {
			return recreated("matched", pick(bad, 1, 7))
		}},
		// Matched with no new version after it: nothing explains why the
		// edit is not written.
		{"matchedWithNoNewVersion", RuleSuperseded, func(bad bool) *Tx {
			first := &edit.Edit{Op: edit.Create, Path: "n.txt", New: "1\n", Format: edit.FormatSearchReplace}
			s := Step{Index: 0, Edit: first, Status: "applied", Strategy: "create", LineStart: 1, LineEnd: 1, At: "n.txt", Whole: "1\n", Named: named("n.txt")}
			if bad {
				s.Status, s.Replaced, s.ReplacedBy = "matched", "applied", 1
			}
			return &Tx{Read: []Entry{{Path: "n.txt"}}, Files: []File{{Path: "n.txt", Op: "create", Steps: []Step{s}}},
				Writes: []Entry{{Path: "n.txt", Content: Content{Exists: true, Text: []string{"1\n"}, Mode: 0o644}}}}
		}},
		// Only a draft is created over: a file that stood before the
		// reply is rewritten (a whole-file write), never created again.
		{"createdOverTheFile", RuleSuperseded, func(bad bool) *Tx {
			e := &edit.Edit{Op: pick(bad, edit.Rewrite, edit.Create), Path: "a.txt", New: "b\n", Format: edit.FormatJSON}
			return modify("a.txt", "a\n", "b\n", Step{Index: 0, Edit: e, Status: "applied", Strategy: "rewrite", LineStart: 1, LineEnd: 1,
				At: "a.txt", Whole: "b\n", Named: named("a.txt")})
		}},
		// The file that stood is deleted, a draft created in its place and
		// created again: the deletion is done, only the draft replaced.
		{"deletionBeforeTheDraft", RuleSuperseded, func(bad bool) *Tx {
			del := &edit.Edit{Op: edit.Delete, Path: "n.txt", Format: edit.FormatCodex}
			tx := recreated("matched", 1)
			st := tx.Files[0].Steps
			for k := range st {
				st[k].Index++
				if st[k].ReplacedBy != 0 {
					st[k].ReplacedBy++
				}
			}
			d := Step{Index: 0, Edit: del, Status: "applied", Strategy: "delete", LineStart: 1, LineEnd: 1, At: "n.txt", Named: named("n.txt")}
			if bad {
				d.Status, d.Replaced, d.ReplacedBy = "matched", "applied", 2
			}
			tx.Files[0].Steps = append([]Step{d}, st...)
			tx.Files[0].Op, tx.Files[0].Origin = "modify", "n.txt"
			tx.Read[0].Content = text("old\n")
			tx.Writes[0].Content.Exact, tx.Writes[0].Content.Mode = true, 0o644
			return tx
		}},
		{"renameMode", RuleMode, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Rename, Path: "run.sh", New: "bin/run.sh", Mode: 0o755, Format: edit.FormatUDiff}
			w := text("echo\n")
			w.Mode = pick[fs.FileMode](bad, 0o755, 0o644)
			return &Tx{Read: []Entry{{Path: "run.sh", Content: text("echo\n")}, {Path: "bin/run.sh"}},
				Files: []File{{Path: "run.sh", NewPath: "bin/run.sh", Op: "rename", Origin: "run.sh",
					Steps: []Step{{Index: 0, Edit: e, Status: "applied", Strategy: "rename", At: "bin/run.sh", Named: named("run.sh"), To: named("bin/run.sh")}}}},
				Writes: []Entry{{Path: "run.sh"}, {Path: "bin/run.sh", Content: w}}}
		}},
		{"claimsCreateOfAnExistingFile", RuleClaims, func(bad bool) *Tx {
			tx := modify("a.txt", "a\n", "b\n", located(0, block("a.txt", "a\n", "b\n"), "exact", 1, 1, Splice{0, "a\n", "b\n"}))
			tx.Files[0].Op = pick(bad, "modify", "create")
			return tx
		}},
		// A file the reply creates and moves is created where it ends,
		// never renamed from a path that held nothing.
		{"createdAndMovedClaimsRename", RuleClaims, func(bad bool) *Tx {
			c := &edit.Edit{Op: edit.Create, Path: "n.txt", New: "n\n", Format: edit.FormatCodex}
			r := &edit.Edit{Op: edit.Rename, Path: "n.txt", New: "m.txt", Format: edit.FormatCodex}
			return &Tx{Read: []Entry{{Path: "n.txt"}, {Path: "m.txt"}},
				Files: []File{{Path: "n.txt", NewPath: "m.txt", Op: pick(bad, "create", "rename"), Steps: []Step{
					{Index: 0, Edit: c, Status: "applied", Strategy: "create", LineStart: 1, LineEnd: 1, At: "n.txt", Whole: "n\n", Named: named("n.txt")},
					{Index: 1, Edit: r, Status: "applied", Strategy: "rename", At: "m.txt", Named: named("n.txt"), To: named("m.txt")}}}},
				Writes: []Entry{{Path: "m.txt", Content: Content{Exists: true, Text: []string{"n\n"}, Mode: 0o644}}}}
		}},
		// One moved and deleted is deleted: at no new path.
		{"movedAndDeletedHasANewPath", RuleClaims, func(bad bool) *Tx {
			r := &edit.Edit{Op: edit.Rename, Path: "a.txt", New: "b.txt", Format: edit.FormatCodex}
			d := &edit.Edit{Op: edit.Delete, Path: "b.txt", Format: edit.FormatCodex}
			return &Tx{Read: []Entry{{Path: "a.txt", Content: text("a\n")}, {Path: "b.txt"}},
				Files: []File{{Path: "a.txt", NewPath: pick(bad, "", "b.txt"), Op: "delete", Origin: "a.txt", Steps: []Step{
					{Index: 0, Edit: r, Status: "applied", Strategy: "rename", At: "b.txt", Named: named("a.txt"), To: named("b.txt")},
					{Index: 1, Edit: d, Status: "applied", Strategy: "delete", LineStart: 1, LineEnd: 1, At: "b.txt", Named: named("b.txt")}}}},
				Writes: []Entry{{Path: "a.txt"}}}
		}},
		{"reportedButNotWritten", RuleWritten, func(bad bool) *Tx {
			tx := modify("a.txt", "a\n", "b\n", located(0, block("a.txt", "a\n", "b\n"), "exact", 1, 1, Splice{0, "a\n", "b\n"}))
			if bad {
				tx.Writes = nil
			}
			return tx
		}},
		{"writtenButNotReported", RuleWritten, func(bad bool) *Tx {
			tx := modify("a.txt", "a\n", "a\n", located(0, block("a.txt", "a\n", "a\n"), "exact", 1, 1))
			if bad {
				tx.Writes = []Entry{{Path: "a.txt", Content: text("a\n")}}
			}
			return tx
		}},
		{"createdNotAsSent", RuleLines, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Create, Path: "n.txt", New: "one\ntwo\n", Format: edit.FormatSearchReplace}
			w := pick(bad, "one\ntwo\n", "one\n")
			return &Tx{Read: []Entry{{Path: "n.txt"}},
				Files: []File{{Path: "n.txt", Op: "create", Steps: []Step{{Index: 0, Edit: e, Status: "applied", Strategy: "create",
					LineStart: 1, LineEnd: 2, At: "n.txt", Whole: w, Named: named("n.txt")}}}},
				Writes: []Entry{{Path: "n.txt", Content: Content{Exists: true, Text: []string{w}, Mode: 0o644}}}}
		}},
		// The a.txt: a hunk that only removes the final newline is
		// a change, never already applied.
		{"finalNewlineOnly", RuleFinalNewline, func(bad bool) *Tx {
			e := hunk("a.txt", "one\ntwo\n", "one\ntwo", "  ")
			if bad {
				return modify("a.txt", "one\ntwo\n", "one\ntwo\n", located(0, e, "exact", 1, 2))
			}
			return modify("a.txt", "one\ntwo\n", "one\ntwo", located(0, e, "exact", 1, 2, Splice{0, "one\ntwo\n", "one\ntwo"}))
		}},
		{"finalNewlineKept", RuleFinalNewline, func(bad bool) *Tx {
			e := hunk("a.txt", "one\ntwo\n", "one\nTWO", " -+")
			w := pick(bad, "one\nTWO", "one\nTWO\n")
			return modify("a.txt", "one\ntwo\n", w, located(0, e, "exact", 1, 2, Splice{0, "one\ntwo\n", w}))
		}},
		// The cp1251 file: an edit that adds UTF-8 text to it is
		// refused; one in ASCII lands byte for byte.
		{"utf8IntoCp1251", RuleEncoding, func(bad bool) *Tx {
			before := "\xcf\xf0\xe8\xe2\xe5\xf2\nend\n"
			e := block("c.txt", "end\n", pick(bad, "fin\n", "end\nмир\n"))
			return modify("c.txt", before, "\xcf\xf0\xe8\xe2\xe5\xf2\n"+e.New, located(0, e, "exact", 2, 2, Splice{7, "end\n", e.New}))
		}},
		{"createdTwice", RuleCreateTwice, func(bad bool) *Tx {
			first := &edit.Edit{Op: edit.Create, Path: "hud.py", New: "import core\n", Format: edit.FormatSearchReplace}
			second := &edit.Edit{Op: edit.Create, Path: "hud.py", New: "from core import Ship\n", Format: edit.FormatSearchReplace}
			if !bad {
				second = block("hud.py", "", "from core import Ship\n")
				second.Op = edit.Replace
				second.Anchors = []string{"import core"}
			}
			st := []Step{{Index: 0, Edit: first, Status: "applied", Strategy: "create", LineStart: 1, LineEnd: 1, At: "hud.py", Whole: first.New, Named: named("hud.py")},
				{Index: 1, Edit: second, Status: "applied", Strategy: "append", LineStart: 2, LineEnd: 2, At: "hud.py", Located: true,
					Splices: []Splice{{12, "", second.New}}, Named: named("hud.py")}}
			w := first.New + second.New
			return &Tx{Read: []Entry{{Path: "hud.py"}}, Files: []File{{Path: "hud.py", Op: "create", Steps: st}},
				Writes: []Entry{{Path: "hud.py", Content: Content{Exists: true, Text: []string{w}, Mode: 0o644}}}}
		}},
		{"appendRestates", RuleAppendRestates, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Create, Path: "x.rb", New: pick(bad, "class A\nend\n", "# x.rb\n\nclass A\nend\n"), Format: edit.FormatSearchReplace}
			return modify("x.rb", "# x.rb\n", "# x.rb\n"+e.New, located(0, e, "append", 2, 1+strings.Count(e.New, "\n"), Splice{7, "", e.New}))
		}},
		{"readingNoRungMakes", RuleReading, func(bad bool) *Tx {
			// Blank edges: the old text's blank first line is left out,
			// and as many of the new text's.
			e := block("a.txt", "\nb\n", "\nB\n")
			s := located(0, e, "whitespace", 2, 2, Splice{2, "b\n", "B\n"})
			s.Read = &Reading{Old: "b\n", New: pick(bad, "B\n", "Q\n")}
			tx := modify("a.txt", "a\nb\n", "a\nB\n", s)
			if bad {
				tx.Writes[0].Text = []string{"a\nQ\n"}
				tx.Files[0].Steps[0].Splices[0].New = "Q\n"
			}
			return tx
		}},
		{"elidedLinesDropped", RuleKeptLines, func(bad bool) *Tx {
			e := block("a.go", "func f() {\n// ... existing code ...\n}\n", "func f() {\n// ... existing code ...\n\treturn\n}\n")
			before := "func f() {\n\tx()\n\ty()\n}\n"
			w := pick(bad, "func f() {\n\tx()\n\ty()\n\treturn\n}\n", "func f() {\n\tx()\n\treturn\n}\n")
			return modify("a.go", before, w, located(0, e, "elision", 1, 4, Splice{0, before, w}))
		}},
		// A tool call's old text found as sent is replaced literally, as
		// str_replace does: the new text's final newline is written.
		{"toolCallLiteral", RuleLines, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "\n  pass", New: "\n", Count: 1, Format: edit.FormatJSON}
			w := pick(bad, "\n", "")
			return modify("a.txt", "x\n\n  pass\n", "x\n\n"+w, located(0, e, "exact", 2, 3, Splice{2, "\n  pass", w}))
		}},
		{"toolCallLiteralNewline", RuleLines, func(bad bool) *Tx {
			e := &edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "b\n", New: "B", Count: 1, Format: edit.FormatJSON}
			w := pick(bad, "B", "B\n")
			return modify("a.txt", "a\nb\nc\n", "a\n"+w+"c\n", located(0, e, "exact", 2, 2, Splice{2, "b\n", w}))
		}},
		{"editOfAnotherPath", RulePath, func(bad bool) *Tx {
			s := located(0, block("a.txt", "a\n", "b\n"), "exact", 1, 1, Splice{0, "a\n", "b\n"})
			if bad {
				s.Named = named("b.txt")
			}
			return modify("a.txt", "a\n", "b\n", s)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errs := Check(tt.tx(false)); len(errs) > 0 {
				t.Fatalf("Check(sound) = %v, want no error", errs)
			}
			errs := Check(tt.tx(true))
			if len(errs) == 0 {
				t.Fatalf("Check(with the defect) = no error, want INTERNAL (%s)", tt.rule)
			}
			for _, e := range errs {
				if e.Code != edit.CodeInternal || e.Hint != Hint {
					t.Errorf("error %v has code %s and hint %q, want INTERNAL with the report hint", e, e.Code, e.Hint)
				}
			}
			if e := errs[0]; !strings.Contains(e.Msg, "("+tt.rule+")") {
				t.Errorf("Check(with the defect) = %v, want the rule %s first", errs, tt.rule)
			}
		})
	}
}

// TestCheckKeptAmbiguity shows that equal lines of a SEARCH may be kept
// by any of them: both choices pass, and only bytes that are neither
// file line's fail.
func TestCheckKeptAmbiguity(t *testing.T) {
	// After lines the edit keeps as they stand: none, and more than a
	// short text's (shortText), whose lines are grouped another way.
	for _, head := range []string{"", strings.Repeat("k\n", shortText) + "l\n"} {
		e := block("t.txt", head+"x\nx\n", head+"x\n")
		for w, ok := range map[string]bool{"x\r\n": true, "x\n": true, "x \n": false} {
			errs := Check(modify("t.txt", head+"x\r\nx\n", head+w, located(0, e, "trailing-ws", 1, lineCount(head)+2, Splice{0, head + "x\r\nx\n", head + w})))
			if (len(errs) == 0) != ok {
				t.Errorf("%d lines, then x\\r\\nx\\n with x\\nx\\n → x\\n written as %q: errors %v, want ok %v", lineCount(head), w, errs, ok)
			}
		}
	}
	// A line moved by the edit may be the one kept, or the other.
	e := block("a.txt", "a\nb\na\n", "b\na\na\n")
	for _, w := range []string{"b\na \na\n", "b\na\na \n"} {
		if errs := Check(modify("a.txt", "a \nb\na\n", w, located(0, e, "trailing-ws", 1, 3, Splice{0, "a \nb\na\n", w}))); len(errs) > 0 {
			t.Errorf("a moved line written as %q: %v, want no error", w, errs)
		}
	}
}

// TestCheckSoundShapes holds the check to shapes the ladder writes
// rightly that a rule read too strictly would refuse: each must pass.
func TestCheckSoundShapes(t *testing.T) {
	call := func(old, new string) *edit.Edit {
		return &edit.Edit{Op: edit.Replace, Path: "a.txt", Old: old, New: new, Count: 1, Format: edit.FormatJSON}
	}
	tests := map[string]*Tx{
		// An append to a file holding only its BOM starts no line.
		"appendAfterBOM": modify("a.txt", bom, bom+"x\n",
			located(0, &edit.Edit{Op: edit.Create, Path: "a.txt", New: "x\n", Format: edit.FormatSearchReplace}, "append", 1, 1, Splice{3, "", "x\n"})),
		// A blank last line at the end of a file without a final newline
		// is the line ending before it.
		"blankLastLineAtEnd": modify("a.txt", "a\nb", "a\n",
			located(0, block("a.txt", "b\n", "\n"), "exact", 2, 2, Splice{2, "b", ""})),
		"appendBlankLine": modify("a.txt", "a", "a\n",
			located(0, &edit.Edit{Op: edit.Create, Path: "a.txt", New: "\n", Format: edit.FormatSearchReplace}, "append", 2, 2, Splice{1, "", "\n"})),
		// An old text that ends without a newline says whole lines: the
		// new text's final newline, a blank line, goes with it. Not a tool
		// call's (see toolCallLiteral).
		"wholeLinesMeant": modify("a.txt", "x\n\n  pass\n", "x\n\n",
			located(0, &edit.Edit{Op: edit.Replace, Path: "a.txt", Old: "\n  pass", New: "\n", Count: 1}, "exact", 2, 3, Splice{2, "\n  pass", ""})),
		// A read's numbered blank last line is the reading's final newline.
		"numberedBlankLastLine": func() *Tx {
			s := located(0, call("     1\tx\n     2\t", "     1\ty\n     2\t"), "line-hint", 1, 1, Splice{0, "x\n", "y\n"})
			s.Read = &Reading{Old: "x\n", New: "y\n"}
			return modify("a.txt", "x\nz\n", "y\nz\n", s)
		}(),
		// The line hint chose among the elision rung's places.
		"elisionByHint": func() *Tx {
			e := block("a.go", "{\n// ...\n}\n", "{\n// ...\n\treturn\n}\n")
			return modify("a.go", "{\n\tx()\n}\n", "{\n\tx()\n\treturn\n}\n",
				located(0, e, "line-hint", 1, 3, Splice{0, "{\n\tx()\n}\n", "{\n\tx()\n\treturn\n}\n"}))
		}(),
		// At the end of a file without a final newline, a last line
		// trimmed to nothing takes the line ending before it along.
		"trimmedBlankLineAtEnd": func() *Tx {
			tx := modify("a.txt", "x", "x y", located(0, call("x\n", "x y\n  "), "exact", 1, 1, Splice{0, "x", "x y"}))
			tx.TrimTrailingWS = true
			return tx
		}(),
		// --trim-trailing-ws trims the lines an edit adds, not a line of
		// the old text it writes again: a tool call's new text ending in
		// such a line keeps it, and ends without a newline as sent.
		"toolCallKeepsItsBlankLine": func() *Tx {
			tx := modify("a.txt", "a\n  \nb", "a x\n  b", located(0, call("a\n  \n", "a x\n  "), "exact", 1, 2, Splice{0, "a\n  \n", "a x\n  "}))
			tx.TrimTrailingWS = true
			return tx
		}(),
		// Trailing blanks trimmed off a blank last line leave nothing.
		"trimmedBlankLine": func() *Tx {
			tx := modify("a.txt", "x y\n", "x z\n\n", located(0, call("x y", "x z\n  "), "exact", 1, 1, Splice{0, "x y", "x z\n"}))
			tx.TrimTrailingWS = true
			return tx
		}(),
	}
	for name, tx := range tests {
		if errs := Check(tx); len(errs) > 0 {
			t.Errorf("%s: %v, want no error", name, errs)
		}
	}
}
