package parse

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/growth"
)

// TestParseHoldsOneCopy: ParseTreeString reads a reply in place; Parse
// copies it once (its edits must not share the caller's bytes), not twice.
// A SEARCH/REPLACE block's texts are slices of the reply, so parsing one in
// place allocates a small part of its bytes; a diff's old and new texts
// are built from its lines, about the reply's bytes once more.
func TestParseHoldsOneCopy(t *testing.T) {
	growth.SkipUnderRace(t)
	const blocks = 64 // about 2 MiB
	for _, tt := range []struct {
		name    string
		diff    bool
		inPlace float64 // the most ParseTreeString may allocate, per reply byte
	}{
		{"search-replace", false, 0.1},
		{"udiff", true, 1.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := gen.LongLineReply(blocks, tt.diff)
			src := []byte(text)
			var edits int
			_, inPlace := growth.Allocs(func() {
				es, errs := ParseTreeString(text, FormatAuto, nil)
				edits = len(es) + len(errs)
			})
			if edits != blocks {
				t.Fatalf("ParseTreeString: %d edits and errors, want %d edits", edits, blocks)
			}
			_, copied := growth.Allocs(func() { Parse(src, FormatAuto) })
			t.Logf("reply %d bytes; ParseTreeString allocated %d, Parse %d", len(text), inPlace, copied)
			if float64(inPlace) > tt.inPlace*float64(len(text)) {
				t.Errorf("ParseTreeString allocated %d bytes for a %d-byte reply: more than %.1f times it, a copy of the reply", inPlace, len(text), tt.inPlace)
			}
			if extra := int64(copied) - int64(inPlace); float64(extra) > 1.1*float64(len(text)) {
				t.Errorf("Parse allocated %d bytes more than ParseTreeString for a %d-byte reply: more than one copy of it", extra, len(text))
			}
		})
	}
}

// TestParseResultsDoNotAlias: the edits Parse returns keep their text when
// the caller writes over the reply's bytes afterwards.
func TestParseResultsDoNotAlias(t *testing.T) {
	for _, diff := range []bool{false, true} {
		src := []byte(gen.LongLineReply(3, diff))
		edits, errs := Parse(src, FormatAuto)
		if len(errs) > 0 || len(edits) != 3 {
			t.Fatalf("diff=%v: %d edits, errors %v", diff, len(edits), errs)
		}
		var want []string
		for _, e := range edits {
			want = append(want, e.Path, e.Old, e.New)
		}
		for i := range src {
			src[i] = 'x'
		}
		for i, e := range edits {
			if got := []string{e.Path, e.Old, e.New}; strings.Join(got, "\x00") != strings.Join(want[3*i:3*i+3], "\x00") {
				t.Errorf("diff=%v: edit %d changed when the reply's bytes were written", diff, i)
			}
		}
	}
}

// TestNormalizeReadsInPlace: Normalize parses the response, and reads its
// output back, in place: rewriting every block of a reply of long lines
// allocates about 4.4 times its bytes (each block rendered and read back,
// the output, their lines), not a copy of the reply besides (5.4).
func TestNormalizeReadsInPlace(t *testing.T) {
	growth.SkipUnderRace(t)
	src := []byte(gen.LongLineReply(64, false))
	edits, errs := Parse(src, FormatAuto)
	if len(errs) > 0 || len(edits) != 64 {
		t.Fatalf("%d edits, errors %v", len(edits), errs)
	}
	// Each block's old text was found indented with a tab: every block is
	// rendered again.
	var applied []Applied
	for i, e := range edits {
		applied = append(applied, Applied{Index: i, Op: e.Op, Path: e.Path, Old: "\t" + e.Old, New: "\t" + e.New, Line: 10*i + 1})
	}
	var out []byte
	var err error
	_, bytes := growth.Allocs(func() { out, err = Normalize(src, edits, applied) })
	if err != nil || !strings.Contains(string(out), "<<<<<<< SEARCH\n\tvar v0 =") {
		t.Fatalf("Normalize did not rewrite the blocks: %v", err)
	}
	t.Logf("reply %d bytes; Normalize allocated %d", len(src), bytes)
	if float64(bytes) > 4.9*float64(len(src)) {
		t.Errorf("Normalize allocated %d bytes for a %d-byte reply: more than 4.9 times it, a copy of the reply", bytes, len(src))
	}
}
