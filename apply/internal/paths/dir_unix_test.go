//go:build unix

package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The walk stats no entry: it takes their types from the directory. An
// lstat would cost each entry three allocations more than the two its
// listing costs (its name and its DirEntry), so counting allocations
// counts the stats.
func TestWalkStatsNothing(t *testing.T) {
	root := t.TempDir()
	const n = 2000
	for i := range n {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := openRoot(t, root)
	var ix *Index
	allocs := testing.AllocsPerRun(3, func() { ix = walked(r, "x", minWalk) })
	if ix.entries != n || ix.stats != 0 {
		t.Fatalf("walk looked at %d entries and stat'ed %d, want %d and none", ix.entries, ix.stats, n)
	}
	if perEntry := allocs / n; perEntry > 3 {
		t.Errorf("walk allocates %.2f times per entry, want at most 3: entries are stat'ed", perEntry)
	}
}
