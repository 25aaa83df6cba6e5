// Package walk lists the regular files of a working tree for the
// questions asked of it when a reply names a file loosely (which file
// has this base name, which path ends this way), in a walk bounded by a
// budget of work, so that a huge tree, a directory of a million entries
// or a pathological chain of directories costs no more than reading the
// reply.
//
// Each directory entry looked at costs one unit, and opening a directory
// costs one unit per name of its path (opening it in an os.Root resolves
// each one). Directories are read a chunk at a time and each entry's type
// is taken from the directory itself (see plainDir), so nothing is
// stat'ed and nothing past the budget is read. A walk that stops before
// it has listed the whole tree says so: a file it did not list may exist.
package walk

import (
	"container/heap"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

const (
	// MinBudget is the budget of a walk for any reply: a tree of that
	// many entries is listed whole.
	MinBudget = 200_000
	// bytesPerUnit grows the budget with the reply: one unit more per
	// that many bytes of it, so a walk costs no more than reading the reply.
	bytesPerUnit = 32
	// MaxDepth bounds how deep the walk goes: no tree a model edits nests
	// that deep, and a chain of directories beyond it is not followed.
	MaxDepth = 64
	// One directory gets at most 1/maxDirShare of the budget, so that a
	// directory of generated files cannot keep the walk from the rest.
	maxDirShare = 2
	// readChunk is how many entries one read of a directory returns.
	readChunk = 512
)

// Budget returns the budget of a walk for a reply of input bytes.
func Budget(input int) int { return MinBudget + max(0, input)/bytesPerUnit }

// SkipDir reports whether name is a directory the walk does not enter:
// version-control and tool state, and installed dependencies, which a
// model edits by mistake if at all.
func SkipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".bzr", ".jj", "_darcs", ".pijul",
		"node_modules", "__pycache__", ".venv", ".tox", ".mypy_cache",
		".pytest_cache", ".cache":
		return true
	}
	return false
}

// A Listing is what one walk found.
type Listing struct {
	// Files are the regular files listed, slash-separated and relative
	// to the root, breadth first (nearest the root first), each
	// directory in name order.
	Files []string
	// Cut reports that the walk stopped before it listed the whole tree:
	// a file not in Files may exist.
	Cut bool
	// What the walk cost, for the tests that bound it: directory entries
	// looked at, and names of paths resolved to open directories.
	Entries, Opened int
}

// Root walks the tree under root within budget units (see Budget),
// listing first the directories whose names, without case, are among
// prefer (the directories of a path the model wrote), so that the file
// meant is reached in a tree larger than the budget. Symlinks are neither
// listed nor followed, so the walk stays in the tree; directories SkipDir
// names are not entered.
func Root(root *os.Root, budget int, prefer []string) *Listing {
	return list(func(dir string) (dirReader, error) {
		f, err := root.Open(dir)
		if err != nil {
			return nil, err
		}
		return plainDir(f), nil
	}, budget, prefer)
}

// FS is Root over fsys, for a tree that is not an os.Root. A directory
// whose file cannot read a chunk at a time (fs.ReadDirFile) is read
// whole, which the budget still bounds the use of.
func FS(fsys fs.FS, budget int, prefer []string) *Listing {
	return list(func(dir string) (dirReader, error) {
		f, err := fsys.Open(dir)
		if err != nil {
			return nil, err
		}
		if d, ok := f.(fs.ReadDirFile); ok {
			return d, nil
		}
		f.Close()
		ents, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, err
		}
		return &readDir{ents: ents}, nil
	}, budget, prefer)
}

// A dirReader reads a directory's entries n at a time, as os.File and
// fs.ReadDirFile do.
type dirReader interface {
	ReadDir(n int) ([]fs.DirEntry, error)
	Close() error
}

// readDir is a dirReader over entries read whole.
type readDir struct{ ents []fs.DirEntry }

func (d *readDir) ReadDir(n int) ([]fs.DirEntry, error) {
	k := min(n, len(d.ents))
	chunk := d.ents[:k]
	d.ents = d.ents[k:]
	if len(d.ents) == 0 {
		return chunk, io.EOF
	}
	return chunk, nil
}
func (d *readDir) Close() error { return nil }

// A pendingDir is a directory the walk has yet to list.
type pendingDir struct {
	path  string // root-relative; "." for the root
	depth int    // names in path
	score int    // names in path that prefer holds
	seq   int    // order found: breadth first among equal scores
}

// dirQueue orders the directories to list: those whose path holds more of
// the preferred names first, then nearest the root, then in the order
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

// list is the walk of Root and FS, opening directories with open.
func list(open func(dir string) (dirReader, error), budget int, prefer []string) *Listing {
	l := &Listing{}
	named := map[string]bool{}
	for _, d := range prefer {
		named[strings.ToLower(d)] = true
	}
	type entry struct {
		name string
		dir  bool
	}
	left := budget
	q := &dirQueue{{path: "."}}
	seq, guided := 1, false
	var ents []entry
	for q.Len() > 0 {
		d := heap.Pop(q).(pendingDir)
		if d.depth >= MaxDepth {
			l.Cut = true
			continue
		}
		if left -= d.depth + 1; left < 0 {
			l.Cut = true
			break
		}
		l.Opened += d.depth + 1
		f, err := open(d.path)
		if err != nil {
			continue
		}
		ents = ents[:0]
		share := budget / maxDirShare
		for left > 0 && share > 0 {
			chunk, err := f.ReadDir(readChunk)
			for _, de := range chunk {
				if left--; left < 0 {
					break
				}
				if share--; share < 0 {
					break
				}
				l.Entries++
				switch t := de.Type(); {
				case t.IsDir():
					if !SkipDir(de.Name()) {
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
			l.Cut = true
		}
		slices.SortFunc(ents, func(a, b entry) int { return strings.Compare(a.name, b.name) })
		for _, e := range ents {
			rel := e.name
			if d.path != "." {
				rel = d.path + "/" + e.name
			}
			if !e.dir {
				l.Files = append(l.Files, rel)
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
		l.Cut = true
	}
	if guided {
		// The files in the order a walk breadth first lists them, so that
		// which directories were preferred changes no answer.
		slices.SortFunc(l.Files, breadthFirst)
	}
	return l
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
