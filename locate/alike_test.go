package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestCandidatesRunAdded: a line that is another with a run of text added
// is alike, so the class the model meant comes first and is no weak
// guess.
func TestCandidatesRunAdded(t *testing.T) {
	file := "class Sum(FixDurationInputMixin, Aggregate):\n    function = \"SUM\"\n    name = \"Sum\"\n\n" +
		"class Avg(FixDurationInputMixin, Aggregate):\n    function = \"AVG\"\n    name = \"Avg\"\n\n" +
		"class Max(Aggregate):\n    function = \"MAX\"\n    name = \"Max\"\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: "class Avg(Aggregate):\n    function = \"AVG\"\n    name = \"Avg\"\n", New: "x\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
		t.Fatalf("locate = %v, want NO_MATCH with candidates", err)
	}
	if c := err.Candidates[0]; c.LineStart != 5 || c.Weak || c.Similarity < 0.9 {
		t.Errorf("first candidate %+v, want lines 5-7, close", c)
	}
	if l, ok := runAdded("return x", "return x + y"); !ok || l >= lineLikeness("return x", "return y") {
		t.Errorf("runAdded = %v, %v: a run added is never closer than one slip", l, ok)
	}
}

// TestCandidatesPlaceholderOwnLines: a SEARCH with a placeholder whose
// block the first and last lines anchor is judged on its own lines only.
func TestCandidatesPlaceholderOwnLines(t *testing.T) {
	file := "class Cart:\n    def __init__(self):\n        self.items = []\n\n    def total(self):\n        return sum(self.items)\n\n\ndef main():\n    pass\n"
	old := "class Cart:\n    ...\n    def totl(self):\n        return sum(self.items)\n"
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "class Cart:\n    ...\n    def total(self):\n        return 0\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch {
		t.Fatalf("locate = %v, want NO_MATCH", err)
	}
	for _, c := range err.Candidates {
		if c.LineStart == 1 && c.LineEnd == 6 {
			if c.Similarity < 0.66 || c.Weak {
				t.Errorf("block candidate %+v: its own lines hold 2 of 3", c)
			}
			return
		}
	}
	t.Errorf("candidates %+v, want the block 1-6", err.Candidates)
}

// TestCandidatesRarity: a line the file has once weighs more than lines
// it has everywhere (`}`, `return nil`): of two places that each hold
// two of three SEARCH lines and is near the third, the one holding the
// rare line is closer.
func TestCandidatesRarity(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "func f%d() error {\n\tflushAll(ctxt)\n\treturn nil\n}\n\n", i)
	}
	b.WriteString("func g() error {\n\tflushAll(ctx)\n\treturn err\n}\n")
	f := newFinder(b.String())
	f.lineIndex()
	p := newPattern("\tflushAll(ctx)\n\treturn nil\n}\n")
	rare, common := f.similarity(p, 101, 3), f.similarity(p, 1, 3) // g's body; f0's
	if rare <= common {
		t.Errorf("similarity at the rare line %.3f, at the common ones %.3f", rare, common)
	}
}
