package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/edapply/edapply/internal/textcut"
)

func written(t *testing.T, found []Finding) []string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, found); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// A leftover line of megabytes is quoted by its start, the cut marked and
// never inside a character.
func TestWriteCutsLongLines(t *testing.T) {
	text := "*** Update File: " + strings.Repeat("é", 1<<20)
	got := written(t, []Finding{{Path: "a.go", Line: 2, Kind: KindPatchEnvelope, Text: text}})
	if len(got) != 1 {
		t.Fatalf("%d lines, want 1", len(got))
	}
	line := got[0]
	if len(line) > quoteBytes+100 {
		t.Errorf("line of %d bytes, want at most %d", len(line), quoteBytes+100)
	}
	if !utf8.ValidString(line) {
		t.Error("cut inside a character")
	}
	prefix := "a.go:2: patch-envelope: *** Update File: é"
	quoted, _, ok := strings.Cut(line[len("a.go:2: patch-envelope: "):], "… (")
	if !strings.HasPrefix(line, prefix) || !ok {
		t.Fatalf("line %.80q…, want %q and a marked cut", line, prefix)
	}
	if want := fmt.Sprintf("… (%d more bytes)", len(text)-len(quoted)); !strings.HasSuffix(line, want) {
		t.Errorf("line ends %q, want %q", line[len(line)-40:], want)
	}

	short := Finding{Path: "a.go", Line: 3, Kind: KindElision, Text: "// ... existing code ..."}
	if got := short.String(); got != "a.go:3: elision: // ... existing code ..." {
		t.Errorf("short line: %q", got)
	}
}

// A file's findings past fileFindings are summed up a line per kind, in the
// order the kinds first come; the next file is listed from its first.
func TestWriteSumsUpAFile(t *testing.T) {
	var found []Finding
	for i := range 1000 {
		kind := KindElision
		if i%3 == 0 {
			kind = KindConflict
		}
		found = append(found, Finding{Path: "big.go", Line: i + 1, Kind: kind, Text: "x"})
	}
	// One envelope line past the listed ones: reported as itself.
	found = append(found, Finding{Path: "big.go", Line: 2000, Kind: KindPatchEnvelope, Text: "*** End Patch"})
	found = append(found, Finding{Path: "next.go", Line: 7, Kind: KindElision, Text: "y"})

	got := written(t, found)
	if len(got) != fileFindings+4 {
		t.Fatalf("%d lines, want %d:\n%s", len(got), fileFindings+4, strings.Join(got[fileFindings-1:], "\n"))
	}
	for i, l := range got[:fileFindings] {
		if want := found[i].String(); l != want {
			t.Fatalf("line %d: %q, want %q", i, l, want)
		}
	}
	// Lines 51..1000 are not listed: those at index i%3 == 0 are conflicts
	// (i = 51, 54, ..., 999: 317, the last on line 1000), the rest
	// elisions (633, the last on line 999).
	want := []string{
		"big.go:51: elision: 633 more of this kind, not listed, the last on line 999",
		"big.go:52: conflict-marker: 317 more of this kind, not listed, the last on line 1000",
		"big.go:2000: patch-envelope: *** End Patch",
		"next.go:7: elision: y",
	}
	if k := found[fileFindings]; k.Kind != KindElision || k.Line != 51 {
		t.Fatalf("test's own arithmetic: first not listed %+v", k)
	}
	for i, w := range want {
		if l := got[fileFindings+i]; l != w {
			t.Errorf("line %d: %q, want %q", fileFindings+i, l, w)
		}
	}
}

// However many files have findings, the report stays within
// textcut.Budget, and its last line counts what it left out.
func TestWriteBoundsTheReport(t *testing.T) {
	const files = 40000
	var found []Finding
	for i := range files {
		found = append(found, Finding{Path: fmt.Sprintf("dir/f%05d.go", i), Line: 3, Kind: KindSearchReplace, Text: strings.Repeat("<", 7) + " SEARCH " + strings.Repeat("z", 300)})
	}
	var b bytes.Buffer
	if err := Write(&b, found); err != nil {
		t.Fatal(err)
	}
	if b.Len() > textcut.Budget {
		t.Fatalf("report of %d bytes, over %d", b.Len(), textcut.Budget)
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	listed := len(got) - 1
	if listed < 1000 {
		t.Fatalf("only %d findings listed", listed)
	}
	for i, l := range got[:listed] {
		if want := found[i].String(); l != want {
			t.Fatalf("line %d: %q, want %q", i, l, want)
		}
	}
	want := fmt.Sprintf("lint: %d more findings in %d files not shown (output cut at %s)", files-listed, files-listed, textcut.BudgetName)
	if last := got[listed]; last != want {
		t.Errorf("last line %q, want %q", last, want)
	}
}

// A cut inside a file counts the file's findings not yet listed.
func TestWriteCutInsideAFile(t *testing.T) {
	long := strings.Repeat("q", 10*quoteBytes)
	var found []Finding
	const perFile = 30 // under fileFindings: each listed by itself
	for f := range 1000 {
		for l := range perFile {
			found = append(found, Finding{Path: fmt.Sprintf("f%d.go", f), Line: l + 1, Kind: KindElision, Text: long})
		}
	}
	got := written(t, found)
	listed := len(got) - 1
	if listed%perFile == 0 {
		t.Fatalf("test's own arithmetic: the cut fell between files (%d listed)", listed)
	}
	files := 1000 - listed/perFile
	want := fmt.Sprintf("lint: %d more findings in %d files not shown (output cut at %s)", len(found)-listed, files, textcut.BudgetName)
	if last := got[listed]; last != want {
		t.Errorf("last line %q, want %q", last, want)
	}
}
