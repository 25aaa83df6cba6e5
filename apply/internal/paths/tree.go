package paths

import (
	"os"

	"github.com/edapply/edapply/internal/walk"
)

// The walk of the tree for path candidates is bounded by a budget of work
// proportional to the reply (see package walk).

// NewIndex returns the index of the tree for a reply of input bytes, to
// be walked on its first need; its budget grows with the input.
func NewIndex(input int) *Index {
	return &Index{walkBudget: walk.Budget(input), budget: maxScanTotal}
}

// An Index is what the search for path candidates learns of the tree
// once per apply: its files, and what is left of the budget for reading
// them, shared by every failing edit so that many cannot multiply it.
type Index struct {
	files []string
	// The files by base name (see indexBases): bases holds 1 + the index
	// in files of the last of each name, sameBase 1 + that of the one
	// before it, 0 for none.
	bases    map[string]int32
	sameBase []int32
	budget   int // bytes left to read in holdingText

	walkBudget int
	walked     bool
	// cut reports that the walk stopped before it listed the whole tree:
	// a file not in files may exist.
	cut bool

	// What the walk and the search cost, for the tests that bound them.
	entries int // directory entries looked at
	opened  int // names of paths resolved to open directories
	stats   int // files stat'ed
}

// walk lists the regular files of the tree under root into ix, within
// ix.walkBudget, the directories named in written first.
func (ix *Index) walk(root *os.Root, written string) {
	ix.walked = true
	var prefer []string
	if parts := pathParts(written); len(parts) > 1 {
		prefer = parts[:len(parts)-1]
	}
	l := walk.Root(root, ix.walkBudget, prefer)
	ix.files, ix.cut, ix.entries, ix.opened = l.Files, l.Cut, l.Entries, l.Opened
}
