package locate

import (
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestKeptLinesByMarks: a line a hunk keeps keeps the bytes of the file's
// line the hunk names, its line ending and trailing blanks included, on
// every rung; without marks the kept lines are paired by a line diff.
func TestKeptLinesByMarks(t *testing.T) {
	const codex, udiff = edit.FormatCodex, edit.FormatUDiff
	for name, c := range map[string]locateCase{
		// "-x" then " x": the second x is kept, with its "\n".
		"crlfThenLF": {file: "x\r\nx\n", old: "x\nx\n", new: "x\n", format: codex, marks: "- ",
			want: "x\n", strategy: edit.StrategyExact},
		"trailingBlank": {file: "x\nx \n", old: "x\nx\n", new: "x\n", format: codex, marks: "- ",
			want: "x \n", strategy: edit.StrategyTrailingWS},
		"udiffCRLFThenLF": {file: "same\r\nsame\n", old: "same\nsame\n", new: "same\n", format: udiff, marks: "- ", lead: [2]int{0, 1},
			want: "same\n", strategy: edit.StrategyExact},
		// " x" then "-x": the first is kept.
		"keptFirst": {file: "x\r\nx\n", old: "x\nx\n", new: "x\n", format: codex, marks: " -",
			want: "x\r\n", strategy: edit.StrategyExact},
		// Between changes: the kept line is the one the hunk names among
		// equal lines, the others go.
		"middleOfThree": {file: "a\nx \nx\t\nx\nb\n", old: "a\nx\nx\nx\nb\n", new: "a\nx\nB\nb\n", format: codex, marks: " - -+ ",
			want: "a\nx\t\nB\nb\n", strategy: edit.StrategyTrailingWS},
		// Marks that do not count the texts say nothing: a line diff pairs.
		"marksMiscounted": {file: "x\r\nx\n", old: "x\nx\n", new: "x\n", format: codex, marks: "-  ",
			want: "x\r\n", strategy: edit.StrategyExact},
		"noMarks": {file: "x\r\nx\n", old: "x\nx\n", new: "x\n", format: codex,
			want: "x\r\n", strategy: edit.StrategyExact},
		// A marked pair whose lines differ is no pair: the line is written
		// as sent.
		"pairDiffers": {file: "a \nb\n", old: "a\nb\n", new: "A\nb\n", format: codex, marks: "  ",
			want: "A\nb\n", strategy: edit.StrategyTrailingWS},
	} {
		runLocate(t, name, c)
	}
}

// TestKeptLinesByMarksAtEdges: a rung that reads a hunk without lines at
// its edges drops their marks, so the lines it keeps are still the ones
// the hunk names.
func TestKeptLinesByMarksAtEdges(t *testing.T) {
	t.Run("hunkEdge", func(t *testing.T) {
		// The context line at the top differs from the file's: the hunk
		// is placed by the rest, whose kept x is the file's second.
		file := "header line one\nx\r\nx\nend\n"
		e := hunkOf(" header line 1\n-x\n x\n end\n")
		loc, err := locate(file, e, matchOptions{})
		if err != nil {
			t.Fatalf("locate: %s: %s", err.Code, err.Msg)
		}
		if got, want := spliced(t, file, loc), "header line one\nx\nend\n"; got != want {
			t.Errorf("result %q, want %q", got, want)
		}
	})
	t.Run("blankEdge", func(t *testing.T) {
		// A blank line the file does not have leads the old text, and the
		// new: without it, the kept x is the file's second.
		file := "x\r\nx\nq\n"
		e := &edit.Edit{Op: edit.Replace, Old: "\nx\nx\n", New: "\nx\ny\n", Count: 1, Format: edit.FormatCodex, Marks: " - +"}
		loc, err := locate(file, e, matchOptions{})
		if err != nil {
			t.Fatalf("locate: %s: %s", err.Code, err.Msg)
		}
		if got, want := spliced(t, file, loc), "x\ny\nq\n"; got != want {
			t.Errorf("result %q, want %q (note %q)", got, want, loc.Note)
		}
	})
}

func TestDropMarks(t *testing.T) {
	for _, c := range []struct {
		marks                      string
		oldLead, oldTrail, nl, ntr int
		want                       string
	}{
		{"  -+ ", 1, 1, 1, 1, " -+"},
		{" - ", 1, 0, 1, 0, "- "},
		{" -  ", 0, 1, 0, 1, " - "},
		// The old side of a kept line dropped alone: the line is added.
		{"  ", 1, 0, 0, 0, "+ "},
		// The new side alone: removed.
		{" +", 0, 0, 1, 0, "-+"},
		{"-+", 0, 0, 0, 0, "-+"},
		{"", 1, 0, 1, 0, ""},
		{" x", 0, 0, 0, 0, ""},
	} {
		if got := dropMarks(c.marks, c.oldLead, c.oldTrail, c.nl, c.ntr); got != c.want {
			t.Errorf("dropMarks(%q, %d, %d, %d, %d) = %q, want %q", c.marks, c.oldLead, c.oldTrail, c.nl, c.ntr, got, c.want)
		}
	}
}

// TestFinalNewlineChange: a diff hunk that ends the file and changes only
// its final newline changes it, either way, and is applied, never already
// applied; sent again, it is.
func TestFinalNewlineChange(t *testing.T) {
	const udiff = edit.FormatUDiff
	for name, c := range map[string]locateCase{
		"remove": {file: "one\ntwo\n", old: "one\ntwo\n", new: "one\ntwo", format: udiff, marks: " -+", lead: [2]int{1, 0},
			want: "one\ntwo", strategy: edit.StrategyExact},
		"removeCRLF": {file: "one\r\ntwo\r\n", old: "one\ntwo\n", new: "one\ntwo", format: udiff, marks: " -+", lead: [2]int{1, 0},
			want: "one\r\ntwo", strategy: edit.StrategyExact},
		"removeLineLevel": {file: "one \ntwo\n", old: "one\ntwo\n", new: "one\ntwo", format: udiff, marks: " -+", lead: [2]int{1, 0},
			want: "one \ntwo", strategy: edit.StrategyTrailingWS},
		"add": {file: "one\ntwo", old: "one\ntwo", new: "one\ntwo\n", format: udiff, marks: " -+", lead: [2]int{1, 0},
			want: "one\ntwo\n", strategy: edit.StrategyExact},
		"removeResent": {file: "one\ntwo", old: "one\ntwo\n", new: "one\ntwo", format: udiff, marks: " -+", lead: [2]int{1, 0},
			status: edit.StatusAlreadyApplied},
		"addResent": {file: "one\ntwo\n", old: "one\ntwo", new: "one\ntwo\n", format: udiff, marks: " -+", lead: [2]int{1, 0},
			status: edit.StatusAlreadyApplied},
		// A change of the last line with it.
		"removeAndChange": {file: "one\ntwo\n", old: "one\ntwo\n", new: "one\nTWO", format: udiff, marks: " -+", lead: [2]int{1, 0},
			want: "one\nTWO", strategy: edit.StrategyExact},
		// A block's replacement without its last newline meant whole lines.
		"blockKeepsIt": {file: "one\ntwo\n", old: "two\n", new: "TWO", format: edit.FormatSearchReplace,
			want: "one\nTWO\n", strategy: edit.StrategyExact},
	} {
		runLocate(t, name, c)
	}
}

// TestForced: an edit a Doc is made to Force is never found already
// applied: it applies as its old text says, or fails.
func TestForced(t *testing.T) {
	for name, c := range map[string]struct {
		file, old, new string
		want           string
		code           edit.Code
	}{
		// An insertion whose result stands: inserted again.
		"insertion": {file: "a\nb\nc\n", old: "c\n", new: "b\nc\n", want: "a\nb\nb\nc\n"},
		// An append whose text ends the file: appended again.
		"append": {file: "a\nb\n", old: "", new: "b\n", want: "a\nb\nb\n"},
		// Old text gone, new text standing: nothing to apply.
		"gone": {file: "a\nB\n", old: "b\n", new: "B\n", code: edit.CodeNoMatch},
		// Old text equal to the new: it changes nothing.
		"same": {file: "a\nb\n", old: "b\n", new: "b\n", code: edit.CodeNoMatch},
	} {
		e := &edit.Edit{Op: edit.Replace, Old: c.old, New: c.new, Count: 1, Format: edit.FormatSearchReplace}
		d := NewDoc(c.file, Options{})
		r, err := d.Force(e)
		if c.code != "" {
			if err == nil || err.Code != c.code {
				t.Errorf("%s: %+v, %v; want %s", name, r, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %s: %s", name, err.Code, err.Msg)
			continue
		}
		if got, _ := d.Bytes(true); r.Status != edit.StatusApplied || string(got) != c.want {
			t.Errorf("%s: %s, %q; want applied, %q", name, r.Status, got, c.want)
		}
		// Not forced, the same edit is already applied.
		if loc, err := locate(c.file, e, matchOptions{}); err != nil || loc.Status != edit.StatusAlreadyApplied {
			t.Errorf("%s: not forced: %+v, %v; want already_applied", name, loc, err)
		}
	}
}

// TestAppendRestates: an append that restates the file is a new version
// of it, FILE_EXISTS, at any size; an addition lands.
func TestAppendRestates(t *testing.T) {
	const sr = edit.FormatSearchReplace
	for name, c := range map[string]locateCase{
		"stubRepeated": {file: "# x.rb\n", old: "", new: "# x.rb\n\nclass A\nend\n", format: sr, code: edit.CodeFileExists},
		"stubCRLF":     {file: "# x.rb\r\n", old: "", new: "# x.rb\n\nclass A\nend\n", format: sr, code: edit.CodeFileExists},
		"twoLines":     {file: "a\nb\n\n", old: "", new: "a\nb \nc\n", format: sr, code: edit.CodeFileExists},
		"addition":     {file: "# x.rb\n", old: "", new: "\nclass A\nend\n", format: sr, want: "# x.rb\n\nclass A\nend\n", strategy: edit.StrategyAppend},
		"onlyPartOf":   {file: "a\nb\n", old: "", new: "a\nc\n", format: sr, want: "a\nb\na\nc\n", strategy: edit.StrategyAppend},
		"blankFile":    {file: "\n", old: "", new: "\nx\n", format: sr, want: "\n\nx\n", strategy: edit.StrategyAppend},
	} {
		runLocate(t, name, c)
	}
}

// TestStands: an edit's new text stands in a Doc's content as the ladder
// finds a text, at any tolerance it would find the old one with, in the
// content as the edits given to the Doc so far leave it.
func TestStands(t *testing.T) {
	for name, c := range map[string]struct {
		content, new string
		format       edit.Format
		want         bool
	}{
		"exact":       {"a\nb\nc\n", "b\nc\n", edit.FormatSearchReplace, true},
		"trailingWS":  {"a\nb  \nc\n", "b\nc\n", edit.FormatSearchReplace, true},
		"indent":      {"if x:\n    b\n    c\n", "  b\n  c\n", edit.FormatSearchReplace, true},
		"movedApart":  {"b\nx\nc\n", "b\nc\n", edit.FormatSearchReplace, false},
		"gone":        {"a\n", "b\n", edit.FormatSearchReplace, false},
		"midLineCall": {"x = f(a)\n", "f(a)", edit.FormatJSON, true},
		"midLineHunk": {"x = f(a)\n", "f(a)\n", edit.FormatUDiff, false},
		"empty":       {"a\n", "", edit.FormatSearchReplace, true},
	} {
		e := &edit.Edit{Op: edit.Replace, Old: "zzz\n", New: c.new, Count: 1, Format: c.format}
		if got := NewDoc(c.content, Options{}).Stands(e); got != c.want {
			t.Errorf("%s: Stands = %v, want %v", name, got, c.want)
		}
	}
	d := NewDoc(bom+"a\nb\nc\n", Options{})
	first := &edit.Edit{Op: edit.Replace, Old: "zzz\n", New: "a\nb\n", Count: 1}
	b := &edit.Edit{Op: edit.Replace, Old: "b\nc\n", New: "B\nc\n", Count: 1, Format: edit.FormatSearchReplace}
	if !d.Stands(first) {
		t.Error("a Doc's first lines, after its BOM, do not stand in it")
	}
	if _, err := d.Replace(b); err != nil {
		t.Fatal(err)
	}
	if !d.Stands(b) || d.Stands(first) {
		t.Error("Stands does not read the content the edit before it left")
	}
}
