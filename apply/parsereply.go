package apply

import (
	"os"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/parse"
)

// ParseReply parses a model's reply in place (the edits' texts share
// reply's bytes) with the working tree at root at hand, read only through
// an os.Root so that no name leaves it: the parser asks the tree what a
// bare path or a loose hunk means. A root that cannot be opened parses
// without the tree; Apply reports the root then.
func ParseReply(reply string, f parse.Format, root string) ([]edit.Edit, edit.ErrorList) {
	var tree parse.Tree
	if root == "" {
		root = "."
	}
	if r, err := os.OpenRoot(root); err == nil {
		defer r.Close()
		tree = r
	}
	return parse.ParseTreeString(reply, f, tree)
}
