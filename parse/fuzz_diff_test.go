package parse

import (
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/golden"
)

func FuzzParseUDiff(f *testing.F) {
	golden.Seed(f, "testdata", "udiff")
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"))
	f.Add([]byte("```diff\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n```\n"))
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1,3 +1,4 @@\n a\n-b\n+c\n+e\n d"))
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, _ := checkParse(t, src, edit.FormatUDiff)
		checkAdvance(t, src, edit.FormatUDiff, func(p *parser) reader { return &p.diff })
		for _, e := range edits {
			if e.Op == edit.Replace && e.Format == edit.FormatUDiff {
				checkUDiffRoundTrip(t, e)
			}
		}
		checkCutOff(t, src)
	})
}

// checkCutOff checks that a reply cut off inside its last hunk is
// refused: when the reply ends with a numbered hunk whose lines are
// exactly those its header counts, every cut of the reply from the start
// of that hunk's body through the start of its last line (a line boundary
// or the middle of a line) is a PARSE_ERROR. A cut inside the last line
// leaves the counts met, which is how a diff that lost its last newline
// reads, and a hunk with an elision or a "\ No newline" line is left out:
// "..." counts the lines it stands for, and the marker's loss is a whole
// text.
func checkCutOff(t *testing.T, src []byte) {
	t.Helper()
	edits, errs := Parse(string(src), Options{Format: edit.FormatUDiff})
	if len(errs) != 0 || len(edits) == 0 {
		return
	}
	e := edits[len(edits)-1]
	if e.Op != edit.Replace || e.End != len(src) || e.Start >= e.End {
		return
	}
	region := string(src[e.Start:e.End])
	header, body, ok := strings.Cut(region, "\n")
	h, numbered := parseHunkHeader(strings.TrimSuffix(header, "\r"))
	if !ok || !numbered || h.oldLines != textLines(e.Old) || h.newLines != textLines(e.New) || body == "" {
		return
	}
	lines := splitKeep(body)
	for _, l := range lines {
		if strings.HasPrefix(l, "\\") || isElisionLine(strings.TrimPrefix(l[min(1, len(l)):], " ")) || isElisionLine(l) {
			return
		}
	}
	bodyStart := e.End - len(body)
	lastStart := e.End - len(lines[len(lines)-1])
	step := max(1, (lastStart-bodyStart)/64)
	for c := bodyStart; c <= lastStart; c += step {
		if _, errs := Parse(string(src[:c]), Options{Format: edit.FormatUDiff}); len(errs) == 0 {
			t.Fatalf("the reply cut at byte %d of %d, inside its last hunk, parses without error:\n%q", c, len(src), src[:c])
		}
	}
}

// checkAdvance checks the readers' cursor invariant: wherever r starts, its
// reader consumes at least that line and never runs past the end.
func checkAdvance(t *testing.T, src []byte, f edit.Format, readerOf func(*parser) reader) {
	t.Helper()
	p := newParser(string(src), f)
	r := readerOf(p)
	for i := range p.lines {
		if !r.starts(i) {
			continue
		}
		if next := r.read(i); next <= i || next > len(p.lines) {
			t.Fatalf("%v reader at line %d returned %d (lines: %d)", f, i, next, len(p.lines))
		}
	}
}

// checkUDiffRoundTrip writes a Replace back as a hunk of '-' then '+' lines
// and checks that it parses to the same edit.
func checkUDiffRoundTrip(t *testing.T, e edit.Edit) {
	t.Helper()
	if e.Old == "" && e.Hint == 0 || strings.ContainsAny(e.Path, "\t\"\r\n") {
		return
	}
	if !strings.HasSuffix(e.Old, "\n") && strings.HasSuffix(e.Old, "\r") || !strings.HasSuffix(e.New, "\n") && strings.HasSuffix(e.New, "\r") {
		return // a last line "x\r" with no newline writes "x\r\n": CRLF to any reader
	}
	oldLines, newLines := splitKeep(e.Old), splitKeep(e.New)
	if len(oldLines) > 0 && len(newLines) > 0 &&
		strings.HasPrefix(oldLines[len(oldLines)-1], "-- ") && strings.HasPrefix(newLines[0], "++ ") {
		return // "--- x"/"+++ y" is the documented header ambiguity
	}
	var b strings.Builder
	// The tab ends each name, as git writes names with spaces, so any
	// path the reader accepted reads back.
	b.WriteString("--- a/" + e.Path + "\t\n+++ b/" + e.Path + "\t\n")
	b.WriteString("@@ -1," + strconv.Itoa(len(oldLines)) + " +" + strconv.Itoa(max(e.Hint, 1)) + "," + strconv.Itoa(len(newLines)) + " @@\n")
	for _, side := range []struct {
		prefix string
		lines  []string
	}{{"-", oldLines}, {"+", newLines}} {
		for _, l := range side.lines {
			b.WriteString(side.prefix + l)
			if !strings.HasSuffix(l, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	got, errs := Parse(b.String(), Options{Format: edit.FormatUDiff})
	if len(errs) != 0 || len(got) != 1 || got[0].Old != e.Old || got[0].New != e.New || got[0].Path != e.Path {
		t.Errorf("round trip of %+v via %q = %+v, %v", e, b.String(), got, errs)
	}
}

// splitKeep splits s into lines that keep their "\n".
func splitKeep(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func FuzzParseCodex(f *testing.F) {
	golden.Seed(f, "testdata", "codex")
	f.Add([]byte("*** Begin Patch\n*** Update File: a\n@@ x\n-y\n+z\n*** End Patch\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, errs := checkParse(t, src, edit.FormatCodex)
		checkAdvance(t, src, edit.FormatCodex, func(p *parser) reader { return &p.codex })
		// An envelope with an error yields nothing, so a lone envelope
		// never has both.
		if strings.Count(string(src), "*** Begin Patch") == 1 && len(errs) > 0 && len(edits) > 0 {
			t.Errorf("envelope with errors %v still yielded %d edits", errs, len(edits))
		}
	})
}
