package apply

import (
	"testing"
)

// TestRandomNames: every journal newJournal makes is named as
// isJournalName, and so listJournals, pruning and undo, expect, and
// journal ids do not repeat.
func TestRandomNames(t *testing.T) {
	ids := map[string]bool{}
	for range 1000 {
		j := newJournal("/w/tree", nil)
		if name := j.fileName(); !isJournalName(name) {
			t.Fatalf("journal name %q is not one isJournalName takes", name)
		}
		if ids[j.ID] {
			t.Fatalf("journal id %s made twice", j.ID)
		}
		ids[j.ID] = true
	}
}
