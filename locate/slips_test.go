package locate

import (
	"fmt"
	"strings"
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

// TestSlipVotesBounded: a short line with a slip, whose variants stand on
// thousands of lines of the file (`return nil`), reads no more of them
// in a file eight times larger: such a variant says little of where the
// text is.
func TestSlipVotesBounded(t *testing.T) {
	visits := func(n int) int {
		var b strings.Builder
		for k := range n {
			fmt.Fprintf(&b, "func f%d() error {\n\treturn nil\n}\n", k)
		}
		f := newFinder(b.String())
		votes := map[int]float64{}
		f.slipVotes(newPattern("\tretrun nil\n"), 0, votes)
		return f.visits
	}
	if small, large := visits(1000), visits(8000); large > small {
		t.Errorf("a slip of `return nil` read %d lines of 24,000, %d of 3,000", large, small)
	}
	// A variant that stands rarely is read.
	f := newFinder("alpha\nbeta\n" + strings.Repeat("\treturn nil\n", 500))
	votes := map[int]float64{}
	f.slipVotes(newPattern("betta\n"), 0, votes)
	if votes[1] == 0 {
		t.Errorf("votes %v: none for line 2", votes)
	}
}
