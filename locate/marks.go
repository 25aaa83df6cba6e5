package locate

import (
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/linediff"
)

// Marks: which line of the old text a kept line of the new text is.
//
// A diff hunk says which of its lines it keeps (' '), removes ('-') and
// adds ('+'): edit.Edit.Marks. Where it does, a kept line is the one the
// hunk names, and the file's bytes written for it are that line's: "-x"
// then " x" on "x\r\nx\n" keeps the second line, "x\n", which a line diff
// of the two texts, pairing the first x with the x kept, would not. Where
// an edit has no marks (a SEARCH/REPLACE block, a tool call), its kept
// lines are paired by a line diff (pairLines). A rung that reads an edit
// without some of its lines (blank edges, hunk edges) drops the marks of
// the lines it leaves out (dropMarks), so the marks go on counting the
// texts it locates.

// pair returns, for each line of np, the index of the line of op it keeps
// unchanged, or -1: as the edit's marks say, when they count op's and
// np's lines, else as pairLines does (exact and gaps as there). A marked
// pair whose lines differ as pairLines compares them (a hunk whose kept
// line the parser could not give both sides alike) is no pair: the line
// is written as sent.
func (m *matcher) pair(op, np *pattern, exact, gaps bool) []int {
	kept := m.e.Kept(len(op.lines), len(np.lines))
	if kept == nil {
		return pairLines(op, np, exact, gaps)
	}
	for j, i := range kept {
		if i >= 0 && lineKey(op, i, exact, gaps) != lineKey(np, j, exact, gaps) {
			kept[j] = -1
		}
	}
	return kept
}

// lineKey is line i of p as pairLines compares it: byte for byte when
// exact, else without trailing blanks; every gap line alike with gaps.
func lineKey(p *pattern, i int, exact, gaps bool) string {
	switch {
	case gaps && p.gap[i]:
		return "\x00gap"
	case exact:
		return p.lines[i]
	}
	return trimRight(p.lines[i])
}

// dropMarks returns marks without the first oldLead and last oldTrail
// lines of the old text and the first newLead and last newTrail of the
// new: a kept line that loses its old side becomes an added line, one
// that loses its new side a removed line. "" when marks is "" or holds a
// byte that is no mark.
func dropMarks(marks string, oldLead, oldTrail, newLead, newTrail int) string {
	oldN, newN := 0, 0
	for k := 0; k < len(marks); k++ {
		switch marks[k] {
		case ' ':
			oldN++
			newN++
		case '-':
			oldN++
		case '+':
			newN++
		default:
			return ""
		}
	}
	out := make([]byte, 0, len(marks))
	i, j := 0, 0 // the next old and new line
	for k := 0; k < len(marks); k++ {
		c := marks[k]
		hasOld, hasNew := c != '+', c != '-'
		keepOld := hasOld && i >= oldLead && i < oldN-oldTrail
		keepNew := hasNew && j >= newLead && j < newN-newTrail
		if hasOld {
			i++
		}
		if hasNew {
			j++
		}
		switch {
		case keepOld && keepNew:
			out = append(out, ' ')
		case keepOld:
			out = append(out, '-')
		case keepNew:
			out = append(out, '+')
		}
	}
	return string(out)
}

// withMarks returns e's marks as they count texts without lines at their
// edges (see dropMarks); an edit without marks keeps none.
func withMarks(e *edit.Edit, oldLead, oldTrail, newLead, newTrail int) string {
	if e.Marks == "" {
		return ""
	}
	return dropMarks(e.Marks, oldLead, oldTrail, newLead, newTrail)
}

// pairLines returns, for each line of b, the index of the line of a that
// it keeps unchanged (a longest common subsequence of lines), or -1. With
// gaps set every placeholder equals every other: the elision rung matched
// them as runs of lines. Without, a placeholder the file holds literally
// is a line like any other, and moving it is a change. With exact set lines compare byte
// for byte: when the SEARCH text matched the file exactly, a REPLACE line
// that differs only in trailing blanks is a deliberate change. Otherwise
// they compare without trailing blanks, because on a looser rung the
// model's trailing blanks are noise and the file's bytes should stay.
func pairLines(a, b *pattern, exact, gaps bool) []int {
	keys := func(p *pattern) []string {
		ks := make([]string, len(p.lines))
		for i := range ks {
			ks[i] = lineKey(p, i, exact, gaps)
		}
		return ks
	}
	ka, kb := keys(a), keys(b)
	return linediff.Pair(len(ka), len(kb), func(i, j int) bool { return ka[i] == kb[j] })
}
