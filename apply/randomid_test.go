package apply

import (
	"path"
	"strings"
	"testing"
)

// TestRandomNames: every journal newJournal makes is named as
// isJournalName, and so listJournals, pruning and undo, expect, and
// neither journal ids nor temp file names repeat.
func TestRandomNames(t *testing.T) {
	ids, temps := map[string]bool{}, map[string]bool{}
	for range 1000 {
		j := newJournal("/w/tree", nil)
		if name := j.fileName(); !isJournalName(name) {
			t.Fatalf("journal name %q is not one isJournalName takes", name)
		}
		if ids[j.ID] {
			t.Fatalf("journal id %s made twice", j.ID)
		}
		ids[j.ID] = true
		tmp := tempName("sub/dir")
		base := path.Base(tmp)
		if path.Dir(tmp) != "sub/dir" || !strings.HasPrefix(base, tempPrefix) || !strings.HasSuffix(base, tempSuffix) ||
			len(base) != len(tempPrefix)+16+len(tempSuffix) {
			t.Fatalf("temp name %q", tmp)
		}
		if temps[base] {
			t.Fatalf("temp name %s made twice", base)
		}
		temps[base] = true
	}
}
