package mcp

import (
	"testing"

	"github.com/edapply/edapply/internal/gen"
	"github.com/edapply/edapply/internal/growth"
)

// TestParseInPlace: apply_edits parses the reply in the string the
// client sent: reading SEARCH/REPLACE blocks allocates a small part of
// the reply's bytes, not a copy of it.
func TestParseInPlace(t *testing.T) {
	growth.SkipUnderRace(t)
	reply := gen.LongLineReply(64, false)
	s := &server{opts: Options{Root: t.TempDir()}}
	var n int
	_, bytes := growth.Allocs(func() {
		edits, errs := s.parse(reply, "")
		n = len(edits) + len(errs)
	})
	if n != 64 {
		t.Fatalf("%d edits and errors; want 64 edits", n)
	}
	if bytes > uint64(len(reply)/10) {
		t.Fatalf("%d bytes allocated to parse a %d-byte reply: a copy of it", bytes, len(reply))
	}
}
