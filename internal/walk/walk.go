// Package walk lists the regular files of a working tree, breadth first
// and bounded, for the questions asked of the tree when a reply names a
// file loosely: which file has this base name, which path ends this way.
package walk

import (
	"io/fs"
)

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

// Files calls visit with each regular file of fsys, slash-separated and
// relative to its root, breadth first (nearest the root first), looking
// at no more than limit directory entries in all, so a huge tree costs a
// bounded walk. Symlinks are neither visited nor followed, so the walk
// stays in the tree. visit returning false stops the walk.
func Files(fsys fs.FS, limit int, visit func(rel string) bool) {
	queue := []string{"."}
	seen := 0
	for len(queue) > 0 && seen < limit {
		dir := queue[0]
		queue = queue[1:]
		ents, err := fs.ReadDir(fsys, dir)
		if err != nil {
			continue
		}
		for _, de := range ents {
			if seen++; seen > limit {
				return
			}
			name := de.Name()
			rel := name
			if dir != "." {
				rel = dir + "/" + name
			}
			switch t := de.Type(); {
			case t.IsDir():
				if !SkipDir(name) {
					queue = append(queue, rel)
				}
			case t.IsRegular():
				if !visit(rel) {
					return
				}
			}
		}
	}
}
