//go:build unix

package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/edapply/edapply/internal/testtree"
)

// The walk of an os.Root stats no entry: it takes their types from the
// directory. An lstat would cost each entry three allocations more than
// the two its listing costs (its name and its DirEntry), so counting
// allocations counts the stats.
func TestRootStatsNothing(t *testing.T) {
	root := t.TempDir()
	const n = 2000
	for i := range n {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := testtree.OpenRoot(t, root)
	var l *Listing
	allocs := testing.AllocsPerRun(3, func() { l = Root(r, MinBudget, nil) })
	if l.Entries != n {
		t.Fatalf("walk looked at %d entries, want %d", l.Entries, n)
	}
	if perEntry := allocs / n; perEntry > 3 {
		t.Errorf("walk allocates %.2f times per entry, want at most 3: entries are stat'ed", perEntry)
	}
}
