package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestFailureCostLinear: candidates for many failing edits read the
// file's indexes, not the file: the lines they read grow with the edits,
// not with the file's size times the edits.
func TestFailureCostLinear(t *testing.T) {
	visits := func(fileLines, edits int) int {
		d := NewDoc(bigFile(fileLines), Options{})
		for i := range edits {
			// Each a near miss of a function of the first 5,000 lines.
			n := (i * 37) % 490
			old := fmt.Sprintf("func f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, errTooSmal\n", n, n)
			if _, err := d.Replace(&edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: "x\n"}); err == nil || err.Code != edit.CodeNoMatch {
				t.Fatalf("edit %d: %v, want NO_MATCH", i, err)
			}
		}
		if d.fin == nil {
			t.Fatal("no finder")
		}
		return d.fin.visits
	}
	small, large := visits(5000, 100), visits(40000, 100)
	if large > 2*small {
		t.Errorf("100 failing edits read %d lines of a 40,000-line file, %d of a 5,000-line one: not bounded by the edits", large, small)
	}
	if twice := visits(5000, 200); twice > 3*small {
		t.Errorf("200 failing edits read %d lines, 100 read %d: more than linear", twice, small)
	}
}

// TestCandidatesCutShort: when every line of the SEARCH text stands too
// often to be read, its first places are read and the hint says the
// search was cut short.
func TestCandidatesCutShort(t *testing.T) {
	file := strings.Repeat("\treturn nil\n}\n", 300)
	_, err := locate(file, &edit.Edit{Op: edit.Replace, Count: 1, Old: "\treturn nil\n}\n}\n", New: "x\n"}, matchOptions{})
	if err == nil || err.Code != edit.CodeNoMatch || len(err.Candidates) == 0 {
		t.Fatalf("locate = %+v, want NO_MATCH with candidates", err)
	}
	if !strings.Contains(err.Hint, "cut short") {
		t.Errorf("hint %q does not say the search was cut short", err.Hint)
	}
	// A rare line among them is read: nothing is cut.
	_, err = locate(file+"\tflush()\n", &edit.Edit{Op: edit.Replace, Count: 1, Old: "\tflush()\n}\n}\n", New: "x\n"}, matchOptions{})
	if err == nil || strings.Contains(err.Hint, "cut short") {
		t.Errorf("with a rare line: %+v", err)
	}
}

// TestFailureScansBounded: the rungs a failing edit climbs (the exact
// rung, the spacing rung, the edge rungs and rescues that run them again)
// read the file's indexes, not the file, once the first failure made
// them: the searches that scan the content do not grow with the edits.
func TestFailureScansBounded(t *testing.T) {
	// The loose keys' bit set, hashed with a seed of the process's, holds
	// a line the file lacks with a chance of one in sixteen; then every
	// edit quoting it scans, as it must. The misspelt line is one whose
	// bit is clear this run, so the count tells only of scans per edit.
	probe := newFinder(bigFile(5000))
	probe.looseKeys()
	missing := "errTooSmal"
	for i := 0; probe.mayHoldWhole(newPattern("a\n\t\treturn 0, " + missing + "\n")); i++ {
		missing = fmt.Sprintf("errTooSmal%d", i)
	}
	scans := func(edits int) int {
		d := NewDoc(bigFile(5000), Options{})
		for i := range edits {
			n := (i * 37) % 490
			// A near miss that reaches every rung: punctuation for the
			// spacing rung, blank edges, and a new text that is not there.
			old := fmt.Sprintf("\nfunc f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, %s\n\n", n, n, missing)
			nw := fmt.Sprintf("\nfunc f%d(x int) (int, error) {\n\tif x <= %d {\n\t\treturn 0, %s\n\n", n, n, missing)
			if _, err := d.Replace(&edit.Edit{Op: edit.Replace, Count: 1, Old: old, New: nw}); err == nil || err.Code != edit.CodeNoMatch {
				t.Fatalf("edit %d: %v, want NO_MATCH", i, err)
			}
		}
		return d.fin.scans
	}
	few, many := scans(10), scans(100)
	if few == 0 {
		t.Fatal("no search scanned the content: the count is not kept")
	}
	if many > few {
		t.Errorf("100 failing edits scanned the content %d times, 10 did %d times: a scan per edit", many, few)
	}
}

// A countingStream counts the bytes it was fed.
type countingStream struct{ fed *int }

func (s countingStream) Feed(p string) { *s.fed += len(p) }
func (s countingStream) Stop()         {}

// TestStreamWasteBounded: in a run whose failures end segment after
// segment, each new segment's stream would hash the content from its
// start again; the streams a Doc feeds read at most three times the
// content in all, whatever the failures, and still stream a run that no
// failure cuts short.
func TestStreamWasteBounded(t *testing.T) {
	fed := func(pairs int, failing bool) (bytes, size, streams int) {
		content := bigFile(20 * pairs)
		var es []*edit.Edit
		for i := range pairs {
			n := i * 2 // the functions in file order, two apart
			es = append(es, &edit.Edit{Op: edit.Replace, Count: 1, Old: fmt.Sprintf("\ty := x * %d\n\tlog.Printf(\"f%d: %%d\", y)\n", n, n), New: fmt.Sprintf("\ty := x * %d // changed\n", n)})
			if failing {
				es = append(es, &edit.Edit{Op: edit.Replace, Count: 1, Old: fmt.Sprintf("func f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, errTooSmal\n", n+1, n+1), New: "x\n"})
			}
		}
		d := NewDoc(content, Options{})
		d.Prepare(es)
		d.StreamTo(func(int, int) Stream { streams++; return countingStream{&bytes} })
		for i, e := range es {
			if _, err := d.Replace(e); (err != nil) != (failing && i%2 == 1) {
				t.Fatalf("edit %d: %v", i, err)
			}
		}
		out, _ := d.Bytes(true)
		return bytes, len(out), streams
	}
	for _, pairs := range []int{50, 200} {
		if n, size, streams := fed(pairs, true); n > 3*size {
			t.Errorf("%d landing edits between failures: %d streams fed %d bytes, %d times the content", pairs, streams, n, n/size)
		}
		if n, size, streams := fed(pairs, false); n != size {
			t.Errorf("%d landing edits, none failing: %d streams fed %d bytes, want the content made's %d", pairs, streams, n, size)
		}
	}
}
