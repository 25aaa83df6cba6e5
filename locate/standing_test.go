package locate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestCandidatesScattered: a SEARCH whose lines all stand, each once, but
// in another order is located line by line, and the hint says so.
func TestCandidatesScattered(t *testing.T) {
	_, err := locate("x = 1\ny = 2\nz = 3\n", &edit.Edit{Op: edit.Replace, Count: 1, Old: "z = 3\ny = 2\n", New: "q\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch {
		t.Fatalf("locate = %v, want NO_MATCH", err)
	}
	if len(err.Candidates) != 2 || err.Candidates[0].LineStart != 3 || err.Candidates[1].LineStart != 2 {
		t.Errorf("candidates %+v, want lines 3 and 2", err.Candidates)
	}
	if !strings.Contains(err.Hint, "its lines stand at lines 3 and 2") || strings.Contains(err.Hint, "differs") {
		t.Errorf("hint %q", err.Hint)
	}
	// One line standing twice: not located line by line.
	_, err = locate("x = 1\ny = 2\nz = 3\ny = 2\n", &edit.Edit{Op: edit.Replace, Count: 1, Old: "z = 3\nx = 1\ny = 2\n", New: "q\n"}, matchOptions{})
	if err == nil || strings.Contains(err.Hint, "its lines stand at") {
		t.Errorf("twice: %+v", err)
	}
}

// TestCandidatesLonely: when nothing is close, the place around the one
// SEARCH line that stands once in the file comes first, and the hint
// names that line.
func TestCandidatesLonely(t *testing.T) {
	file := bigFile(300)
	old := "func compute(a, b float64) float64 {\n\tresult := math.Sqrt(a*a + b*b)\n\tlog.Printf(\"f17: %d\", y)\n\tmetrics.Observe(result)\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "q\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
		t.Fatalf("locate = %v, want NO_MATCH with candidates", err)
	}
	// f17's log line is line 6 of its function, which starts at line 171.
	line := 171 + 6
	if c := err.Candidates[0]; c.LineStart != line-2 || !c.Weak {
		t.Errorf("first candidate %+v, want the weak window from line %d", c, line-2)
	}
	if !strings.Contains(err.Hint, "Only SEARCH line 3 stands in the file as it reads, at line "+strconv.Itoa(line)) || strings.Contains(err.Hint, "Copy") {
		t.Errorf("hint %q", err.Hint)
	}
}
