package paths

import (
	"testing"

	"github.com/edapply/edapply/internal/testtree"
	"github.com/edapply/edapply/internal/walk"
)

type tree = testtree.Tree

func writeTree(t *testing.T, dir string, tr tree) { testtree.Write(t, dir, tr) }

var escapeSandbox = testtree.EscapeSandbox

const (
	minWalk  = walk.MinBudget
	maxDepth = walk.MaxDepth
)
