package paths

import (
	"container/heap"
	"os"
	"slices"
	"strings"

	"github.com/edapply/edapply/internal/walk"
)

// The walk of the tree for path candidates is bounded by a budget of work
// proportional to the reply, so a huge tree, a directory of a million
// entries or a pathological chain of directories cannot make a failing
// apply slow: each directory entry looked at costs one unit, and opening a
// directory costs one unit per name of its path (opening it in the root
// resolves each one). It reads directories a chunk at a time and takes
// each entry's type from the directory itself (see plainDir), so nothing
// is stat'ed and nothing past the budget is read.
const (
	// minWalk is the budget of the walk for any reply: a tree of that
	// many entries is listed whole.
	minWalk = 200_000
	// walkBytesPerUnit grows the budget with the reply: one unit more per
	// that many bytes of it, so a walk costs no more than reading the reply.
	walkBytesPerUnit = 32
	// maxDepth bounds how deep the walk goes: no tree a model edits nests
	// that deep, and a chain of directories beyond it is not followed.
	maxDepth = 64
	// One directory gets at most 1/maxDirShare of the budget, so that a
	// directory of generated files cannot keep the walk from the rest.
	maxDirShare = 2
	// readChunk is how many entries one read of a directory returns.
	readChunk = 512
)

// NewIndex returns the index of the tree for a reply of input bytes, to
// be walked on its first need; its budget grows with the input.
func NewIndex(input int) *Index {
	return &Index{walkBudget: minWalk + max(0, input)/walkBytesPerUnit, budget: maxScanTotal}
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

// A pendingDir is a directory the walk has yet to list.
type pendingDir struct {
	path  string // root-relative; "." for the root
	depth int    // names in path
	score int    // names in path that the path written names too
	seq   int    // order found: breadth first among equal scores
}

// dirQueue orders the directories to list: those whose path holds more of
// the names of the path written first, so the file meant is reached in a
// tree larger than the budget, then nearest the root, then in the order
// found. With no such names it is breadth first.
type dirQueue []pendingDir

func (q dirQueue) Len() int { return len(q) }
func (q dirQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.score != b.score {
		return a.score > b.score
	}
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	return a.seq < b.seq
}
func (q dirQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *dirQueue) Push(x any)   { *q = append(*q, x.(pendingDir)) }
func (q *dirQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}

// walk lists the regular files of the tree under root into ix, within
// ix.walkBudget, the directories named in written first (see dirQueue).
// Directories of tool state and dependencies are not entered (see
// walk.SkipDir); symlinks are neither listed nor followed, so the walk
// stays in the tree.
func (ix *Index) walk(root *os.Root, written string) {
	ix.walked = true
	named := map[string]bool{}
	if parts := pathParts(written); len(parts) > 1 {
		for _, d := range parts[:len(parts)-1] {
			named[strings.ToLower(d)] = true
		}
	}
	type entry struct {
		name string
		dir  bool
	}
	left := ix.walkBudget
	q := &dirQueue{{path: "."}}
	seq, guided := 1, false
	var ents []entry
	for q.Len() > 0 {
		d := heap.Pop(q).(pendingDir)
		if d.depth >= maxDepth {
			ix.cut = true
			continue
		}
		if left -= d.depth + 1; left < 0 {
			ix.cut = true
			break
		}
		ix.opened += d.depth + 1
		f, err := root.Open(d.path)
		if err != nil {
			continue
		}
		f = plainDir(f)
		ents = ents[:0]
		share := ix.walkBudget / maxDirShare
		for left > 0 && share > 0 {
			chunk, err := f.ReadDir(readChunk)
			for _, de := range chunk {
				if left--; left < 0 {
					break
				}
				if share--; share < 0 {
					break
				}
				ix.entries++
				switch t := de.Type(); {
				case t.IsDir():
					if !walk.SkipDir(de.Name()) {
						ents = append(ents, entry{de.Name(), true})
					}
				case t.IsRegular():
					ents = append(ents, entry{de.Name(), false})
				}
			}
			if err != nil {
				break
			}
		}
		f.Close()
		if left <= 0 || share <= 0 {
			// A directory read in part is listed in part: what it holds
			// beyond the budget is unknown either way.
			ix.cut = true
		}
		slices.SortFunc(ents, func(a, b entry) int { return strings.Compare(a.name, b.name) })
		for _, e := range ents {
			rel := e.name
			if d.path != "." {
				rel = d.path + "/" + e.name
			}
			if !e.dir {
				ix.files = append(ix.files, rel)
				continue
			}
			s := d.score
			if named[strings.ToLower(e.name)] {
				s++
				guided = true
			}
			heap.Push(q, pendingDir{path: rel, depth: d.depth + 1, score: s, seq: seq})
			seq++
		}
		if left <= 0 {
			break
		}
	}
	if q.Len() > 0 {
		ix.cut = true
	}
	if guided {
		// The files in the order a walk breadth first lists them, so that
		// which directories were preferred changes no answer.
		slices.SortFunc(ix.files, breadthFirst)
	}
}

// breadthFirst orders paths as a walk breadth first, each directory in
// name order, lists them: by depth, then name by name.
func breadthFirst(a, b string) int {
	if c := strings.Count(a, "/") - strings.Count(b, "/"); c != 0 {
		return c
	}
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if ai < 0 || bi < 0 {
			return strings.Compare(a, b)
		}
		if c := strings.Compare(a[:ai], b[:bi]); c != 0 {
			return c
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}
