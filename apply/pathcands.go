package apply

import (
	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/edit"
)

// addPathCandidates is paths.AddCandidates with the planner's root and its
// index of the tree, made once.
func (p *planner) addPathCandidates(err *edit.Error, written, old string) {
	paths.AddCandidates(p.root, &p.paths, err, written, old)
}
