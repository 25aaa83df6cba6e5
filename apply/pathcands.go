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

// replySize is the bytes of the reply edits came from, near enough to
// size the budget of the search for path candidates by it.
func replySize(edits []edit.Edit) int {
	n := 0
	for _, e := range edits {
		n += len(e.Path) + len(e.Old) + len(e.New)
	}
	return n
}
