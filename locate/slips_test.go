package locate

import (
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestCandidatesSlip: a short line with one slip, a letter doubled,
// dropped or two swapped, still finds its line as a candidate, and never
// lands.
func TestCandidatesSlip(t *testing.T) {
	file := "alpha\nbeta\ndelta\n"
	for old, line := range map[string]int{"betta\n": 2, "delat\n": 3, "alpah\n": 1, "btea\n": 2, "bta\n": 2, "deltas\n": 3} {
		_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "x\n"}, matchOptions{})
		if err == nil || err.Code != edit.CodeNoMatch {
			t.Fatalf("%q: locate = %v, want NO_MATCH", old, err)
		}
		if len(err.Candidates) == 0 || err.Candidates[0].LineStart != line || err.Candidates[0].Weak {
			t.Errorf("%q: candidates %+v, want line %d first", old, err.Candidates, line)
		}
	}
	if got := osaDistance("btea", "beta"); got != 1 {
		t.Errorf("osaDistance(btea, beta) = %d, want 1", got)
	}
}
