package parse

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/growth"
)

// TestParseHoldsOneCopy: Parse reads a reply in place. A SEARCH/REPLACE
// block's texts are slices of the reply, so parsing one allocates a small
// part of its bytes; a diff's old and new texts are built from its lines,
// about the reply's bytes once more.
func TestParseHoldsOneCopy(t *testing.T) {
	growth.SkipUnderRace(t)
	const blocks = 64 // about 2 MiB
	for _, tt := range []struct {
		name    string
		diff    bool
		inPlace float64 // the most Parse may allocate, per reply byte
	}{
		{"search-replace", false, 0.1},
		{"udiff", true, 1.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := gen.LongLineReply(blocks, tt.diff)
			var edits int
			_, inPlace := growth.Allocs(func() {
				es, errs := Parse(text, Options{})
				edits = len(es) + len(errs)
			})
			if edits != blocks {
				t.Fatalf("Parse: %d edits and errors, want %d edits", edits, blocks)
			}
			t.Logf("reply %d bytes; Parse allocated %d", len(text), inPlace)
			if float64(inPlace) > tt.inPlace*float64(len(text)) {
				t.Errorf("Parse allocated %d bytes for a %d-byte reply: more than %.1f times it, a copy of the reply", inPlace, len(text), tt.inPlace)
			}
		})
	}
}

// TestParseHunkAllocs bounds what parsing a large diff or Codex envelope
// of short lines in place allocates, per byte of the reply, in the shapes
// a model sends: many files of ten hunks each (3.7 times the reply for a
// diff, 3.9 for an envelope), and one file of a thousand hunks (4.6 and
// 5.0). What it must allocate is the edits' texts (each hunk's context
// twice, about 1.5 times the reply), a record per line of the reply and
// one per edit. A record per hunk line kept for every hunk of the reply,
// or the edits' array grown by copying, each add most of a copy of the
// reply beside them (7.6 and 5.9 for a diff, 9.8 and 9.6 for an envelope
// with both).
func TestParseHunkAllocs(t *testing.T) {
	growth.SkipUnderRace(t)
	for _, tt := range []struct {
		name         string
		render       func([]gen.Edit) string
		files, lines int
		hunks        int // per file
		most         float64
	}{
		{"diff-many-files", func(es []gen.Edit) string { return string(gen.UnifiedDiff(es)) }, 200, 600, 10, 4.5},
		{"diff-one-file", func(es []gen.Edit) string { return string(gen.UnifiedDiff(es)) }, 1, 40000, 1000, 5},
		{"codex-many-files", codexReply, 200, 600, 10, 4.5},
		{"codex-one-file", codexReply, 1, 40000, 1000, 5.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var edits []gen.Edit
			for i, f := range gen.Tree(7, tt.files, tt.lines) {
				es, err := gen.Sites(f.Path, f.Src, tt.hunks, uint64(i))
				if err != nil {
					t.Fatal(err)
				}
				edits = append(edits, es...)
			}
			reply := tt.render(edits)
			var n int
			_, bytes := growth.Allocs(func() {
				es, errs := Parse(reply, Options{})
				n = len(es) + len(errs)
			})
			if n != len(edits) {
				t.Fatalf("Parse: %d edits and errors, want %d edits", n, len(edits))
			}
			per := float64(bytes) / float64(len(reply))
			t.Logf("reply %d bytes, %d hunks; Parse allocated %d, %.2f times the reply", len(reply), len(edits), bytes, per)
			if per > tt.most {
				t.Errorf("Parse allocated %.2f times the reply's %d bytes, more than %.1f", per, len(reply), tt.most)
			}
		})
	}
}

// codexReply renders edits as one Codex envelope, an Update File section
// per run of edits to one file and a chunk per edit.
func codexReply(edits []gen.Edit) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	last := ""
	for _, e := range edits {
		if e.Path != last {
			b.WriteString("*** Update File: " + e.Path + "\n")
			last = e.Path
		}
		b.WriteString("@@\n")
		for _, part := range []struct {
			prefix string
			lines  []string
		}{{" ", e.Before}, {"-", e.Del}, {"+", e.Add}, {" ", e.After}} {
			for _, l := range part.lines {
				b.WriteString(part.prefix + l + "\n")
			}
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}
