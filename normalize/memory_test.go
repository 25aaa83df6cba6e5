package normalize

import (
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/growth"
	"github.com/edapply/edapply/parse"
)

// TestNormalizeReadsInPlace: Reply parses the response, and reads its
// output back, in place: rewriting every block of a reply of long lines
// allocates about 4.4 times its bytes (each block rendered and read back,
// the output, their lines), not a copy of the reply besides (5.4).
func TestNormalizeReadsInPlace(t *testing.T) {
	growth.SkipUnderRace(t)
	src := []byte(gen.LongLineReply(64, false))
	edits, errs := parse.Parse(string(src), parse.Options{})
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
	_, bytes := growth.Allocs(func() { out, err = Reply(src, edits, applied) })
	if err != nil || !strings.Contains(string(out), "<<<<<<< SEARCH\n\tvar v0 =") {
		t.Fatalf("Reply did not rewrite the blocks: %v", err)
	}
	t.Logf("reply %d bytes; Reply allocated %d", len(src), bytes)
	if float64(bytes) > 4.9*float64(len(src)) {
		t.Errorf("Reply allocated %d bytes for a %d-byte reply: more than 4.9 times it, a copy of the reply", bytes, len(src))
	}
}

// TestAppliedAsWrittenAllocs bounds what telling a diff applied as sent
// allocates, per hunk: a mark, an old-side line and a place in the order
// of edits for each, and each file's lines (66 bytes a hunk), not a copy
// of every entry, maps keyed by edit and a string for each hunk's "@@"
// line (228 bytes a hunk).
func TestAppliedAsWrittenAllocs(t *testing.T) {
	growth.SkipUnderRace(t)
	var ges []gen.Edit
	for i, f := range gen.Tree(11, 100, 600) {
		es, err := gen.Sites(f.Path, f.Src, 20, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		ges = append(ges, es...)
	}
	src := gen.UnifiedDiff(ges)
	edits, errs := parse.Parse(string(src), parse.Options{})
	if len(errs) > 0 || len(edits) != len(ges) {
		t.Fatalf("%d edits (want %d), errors %v", len(edits), len(ges), errs)
	}
	applied := make([]Applied, len(edits))
	for i, e := range edits {
		// The new side's start line, as the hunk's header gives it: where
		// the edit was found, with the edits above it applied.
		header := string(src[e.Start:e.End])
		_, plus, _ := strings.Cut(header, " +")
		line, _, _ := strings.Cut(plus, ",")
		n, err := strconv.Atoi(line)
		if err != nil {
			t.Fatalf("edit %d: no new-side line in %.40q", i, header)
		}
		applied[i] = Applied{Index: i, Op: e.Op, Path: e.Path, Old: e.Old, New: e.New, Line: n}
	}
	var as bool
	_, bytes := growth.Allocs(func() { as = AppliedAsWritten(src, edits, applied) })
	if !as {
		t.Fatal("AppliedAsWritten = false for a diff applied as sent")
	}
	perHunk := float64(bytes) / float64(len(edits))
	t.Logf("%d hunks: AppliedAsWritten allocated %d bytes, %.1f a hunk", len(edits), bytes, perHunk)
	if perHunk > 96 {
		t.Errorf("AppliedAsWritten allocated %.1f bytes a hunk, more than 96", perHunk)
	}
}
