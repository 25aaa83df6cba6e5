package locate

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBatchDriftedInsertionEquivalence holds the batch's answers to
// edits whose new text holds the old, and whose old text stands only at
// a tolerant rung (its tabs written as four spaces, or trailing blanks
// added), to the ladder's: resent ones, added lines that stand next to
// the place already, or elsewhere, included.
func TestBatchDriftedInsertionEquivalence(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 150
	}
	r := rand.New(rand.NewPCG(35, 36))
	for range n {
		file, es := insertionRun(r)
		for k := range es {
			switch r.IntN(3) {
			case 0:
				es[k].Old = strings.ReplaceAll(es[k].Old, "\t", "    ")
				es[k].New = strings.ReplaceAll(es[k].New, "\t", "    ")
			case 1:
				if !strings.Contains(es[k].Old, " \n") {
					es[k].New = strings.ReplaceAll(es[k].New, es[k].Old, strings.ReplaceAll(es[k].Old, "\n", " \n"))
					es[k].Old = strings.ReplaceAll(es[k].Old, "\n", " \n")
				}
			}
		}
		checkBatch(t, map[string]string{"a.txt": file}, es, Options{TrimTrailingWS: r.IntN(4) == 0})
	}
}
