package journal

import (
	"testing"
)

// TestRandomNames: every journal New makes is named as
// IsName, and so List, pruning and undo, expect, and
// journal ids do not repeat.
func TestRandomNames(t *testing.T) {
	ids := map[string]bool{}
	for range 1000 {
		j := New("/w/tree", nil)
		if name := j.FileName(); !IsName(name) {
			t.Fatalf("journal name %q is not one isJournalName takes", name)
		}
		if ids[j.ID] {
			t.Fatalf("journal id %s made twice", j.ID)
		}
		ids[j.ID] = true
	}
}
