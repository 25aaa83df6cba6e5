package apply

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestSamePlaces: an old text that stands at several places applies when
// every place gives the same file (the audit, which judges the splice on
// its own, passes it), and names the places; where the places give
// different files it stays MULTIPLE_MATCHES and nothing is written.
func TestSamePlaces(t *testing.T) {
	twice := "def f(x):\n    if x:\n        return 1\n    else:\n        return 2\n    else:\n        return 2\n"
	res := applyCase(t, t.TempDir(), tree{"e.py": twice},
		[]edit.Edit{replace("e.py", "    else:\n        return 2\n", "")},
		tree{"e.py": "def f(x):\n    if x:\n        return 1\n    else:\n        return 2\n"}, "")
	er := res.Files[0].Edits[0]
	if !strings.Contains(er.Note, "lines 4-5, 6-7") || er.LineStart != 4 {
		t.Errorf("edit result %+v, want the places named", er)
	}
	// The same lines, apart: deleting the one or the other differs.
	apart := "a\nx\nb\nx\nc\n"
	applyCase(t, t.TempDir(), tree{"g.txt": apart}, []edit.Edit{replace("g.txt", "x\n", "")}, nil, "MULTIPLE_MATCHES")
	// A run of three equal lines, one changed: the files differ.
	applyCase(t, t.TempDir(), tree{"h.txt": "x\nx\nx\n"}, []edit.Edit{replace("h.txt", "x\n", "y\n")}, nil, "MULTIPLE_MATCHES")
	// Two equal functions side by side, one renamed: the files differ.
	applyCase(t, t.TempDir(), tree{"j.go": "func a() {}\nfunc a() {}\n"}, []edit.Edit{replace("j.go", "func a() {}\n", "func b() {}\n")}, nil, "MULTIPLE_MATCHES")
}
