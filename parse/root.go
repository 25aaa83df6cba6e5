package parse

import (
	"os"

	"github.com/edapply/edapply/edit"
)

// ParseInRoot is Parse with the working tree at root ("" for the current
// directory) as opts.Tree, read only through an os.Root so that no name
// leaves it. A root that cannot be opened parses without the tree: the
// apply that follows reports the root.
func ParseInRoot(src string, opts Options, root string) ([]edit.Edit, edit.ErrorList) {
	if root == "" {
		root = "."
	}
	if r, err := os.OpenRoot(root); err == nil {
		defer r.Close()
		opts.Tree = r
	}
	return Parse(src, opts)
}
