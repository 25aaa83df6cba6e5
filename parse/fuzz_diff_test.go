package parse

import (
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func FuzzParseUDiff(f *testing.F) {
	seedResponses(f, "udiff")
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, _ := checkParse(t, src, FormatUDiff)
		checkAdvance(t, src, udiffRegion)
		for _, e := range edits {
			if e.Op == edit.Replace && e.Format == FormatUDiff {
				checkUDiffRoundTrip(t, e)
			}
		}
	})
}

// checkAdvance checks the readers' cursor invariant: wherever r starts, its
// reader consumes at least that line and never runs past the end.
func checkAdvance(t *testing.T, src []byte, r region) {
	t.Helper()
	p := newParser(string(src), r.format)
	for i := range p.lines {
		if !r.starts(p, i) {
			continue
		}
		if next := r.read(p, i); next <= i || next > len(p.lines) {
			t.Fatalf("%v reader at line %d returned %d (lines: %d)", r.format, i, next, len(p.lines))
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
	got, errs := Parse([]byte(b.String()), FormatUDiff)
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
	seedResponses(f, "codex")
	f.Add([]byte("*** Begin Patch\n*** Update File: a\n@@ x\n-y\n+z\n*** End Patch\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		edits, errs := checkParse(t, src, FormatCodex)
		checkAdvance(t, src, codexRegion)
		// An envelope with an error yields nothing, so a lone envelope
		// never has both.
		if strings.Count(string(src), "*** Begin Patch") == 1 && len(errs) > 0 && len(edits) > 0 {
			t.Errorf("envelope with errors %v still yielded %d edits", errs, len(edits))
		}
	})
}
