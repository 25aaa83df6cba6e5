package locate

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

func TestWholeOf(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       bool
	}{
		{"", "anything\n", true},
		{"a\nb\nc\nd\ne\nf\n", "a\nx\nf\n", true},                             // first and last kept
		{"a\nb\nc\nd\ne\nf\n", "b\nc\nd\ne\n", true},                          // most lines, in order
		{"a\nb\nc\nd\ne\nf\n", "c\n", false},                                  // one line of six
		{"a\nb\nc\nd\ne\nf\n", "e\nc\n", false},                               // two lines, out of order
		{"one two three four five six\n", "one two\nthree four five\n", true}, // reflowed
		{"aaaa bbbb\ncccc dddd\n", "a totally different text of the same size\n", true},
	} {
		if got := wholeOf(tc.file, tc.text); got != tc.want {
			t.Errorf("wholeOf(%q, %q) = %v, want %v", tc.file, tc.text, got, tc.want)
		}
	}
}

// TestRewriteError: a rewrite that elides the original's code is refused
// with the placeholder's line, a tentative one that is a piece of the file
// is refused, and a whole rewrite, tentative or not, passes.
func TestRewriteError(t *testing.T) {
	orig := "a\nb\nc\nd\ne\nf\n"
	for _, c := range []struct {
		name, text string
		tentative  bool
		msg        string // a piece of the message; "" for no error
	}{
		{"whole", "a\nb\nC\nd\ne\nf\n", true, ""},
		{"elided", "a\n// ... existing code ...\nf\n", false, "(line 2)"},
		{"piece", "c\n", true, "a piece of the file"},
		{"pieceSent", "c\n", false, ""},
	} {
		err := RewriteError(orig, c.text, c.tentative)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s: RewriteError = %s", c.name, err.Msg)
		case c.msg != "" && (err == nil || err.Code != edit.CodeElision || !strings.Contains(err.Msg, c.msg)):
			t.Errorf("%s: RewriteError = %v, want ELIDED with %q", c.name, err, c.msg)
		}
	}
}

// TestKeptGreedilyIsGreedy: the indexed count is the plain greedy one,
// each line of a taken at the first equal line of b after the last taken.
func TestKeptGreedilyIsGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		a, b := make([]uint64, rng.IntN(30)), make([]uint64, rng.IntN(30))
		for i := range a {
			a[i] = rng.Uint64N(6)
		}
		for i := range b {
			b[i] = rng.Uint64N(6)
		}
		want, j := 0, 0
		for _, l := range a {
			for k := j; k < len(b); k++ {
				if b[k] == l {
					want, j = want+1, k+1
					break
				}
			}
		}
		if got := keptGreedily(a, b); got != want {
			t.Fatalf("keptGreedily(%v, %v) = %d, want %d", a, b, got, want)
		}
	}
}

// TestWholeOfBytesPerLine: judging a large rewrite costs a few bytes a
// line, not a copy of each line: a file and a fence of 100,000 lines
// each, none shared, past the table's bound.
func TestWholeOfBytesPerLine(t *testing.T) {
	var file, text strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&file, "\tfile line number %d of the original\n", i)
		fmt.Fprintf(&text, "\tx%d\n", i)
	}
	f, x := file.String(), text.String()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if wholeOf(f, x) {
		t.Fatal("a fence sharing no line or word with the file read as its whole")
	}
	runtime.ReadMemStats(&after)
	if per := float64(after.TotalAlloc-before.TotalAlloc) / 200_000; per > 48 {
		t.Errorf("wholeOf allocated %.0f bytes a line, want at most 48", per)
	}
}
