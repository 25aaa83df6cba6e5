package locate

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomLine is a line of bytes drawn from an alphabet with blanks,
// dashes, controls and non-ASCII text, so that every path of seen and of
// the distances is taken.
func randomLine(r *rand.Rand, n int) string {
	alphabet := []string{"a", "b", "c", "x", " ", " ", "\t", "-", "--", "(", ")", "\x01", "\x7f", "\r", "é", "—", "\u200b", "\u00a0"}
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// TestSeenFastPath: seen's fast path for plain ASCII lines reads them as
// the general one does.
func TestSeenFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 6))
	fast := 0
	for range 20000 {
		s := randomLine(r, r.IntN(12))
		if _, ok := seenASCII(s); ok {
			fast++
		}
		if got, want := seen(s), seenAny(s); got != want {
			t.Fatalf("seen(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"\treturn nil", "  a b  ", "a-", "-", "", "\t\t", "a - b", "x := f(y) // z"} {
		if _, ok := seenASCII(s); !ok {
			t.Errorf("seenASCII(%q) takes the slow path", s)
		}
		if got, want := seen(s), seenAny(s); got != want {
			t.Errorf("seen(%q) = %q, want %q", s, got, want)
		}
	}
	if fast < 1000 {
		t.Errorf("the fast path took %d of 20,000 lines: too few to tell", fast)
	}
}

// TestLevenshteinBitParallel: the distance a word at a time is the
// table's, for texts up to the word's length and past it.
func TestLevenshteinBitParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 7))
	for i := range 20000 {
		n, m := r.IntN(70), r.IntN(70)
		if i%10 == 0 {
			n, m = r.IntN(160), r.IntN(160)
		}
		a, b := randomLine(r, n), randomLine(r, m)
		if i%3 == 0 && len(a) > 0 { // near misses, as candidates weigh
			k := r.IntN(len(a))
			b = a[:k] + randomLine(r, r.IntN(3)) + a[k:]
		}
		if got, want := levenshtein(a, b), distanceRow(a, b, false)[len(b)]; got != want {
			t.Fatalf("levenshtein(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
	// Lines of code about the lengths where a block ends, and texts of
	// more distinct bytes than the words take.
	code := "\tif err := f(x, y); err != nil { return fmt.Errorf(\"load %s: %w\", p, err) } // ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&*+<=>?@[]^`|~"
	for i := range 5000 {
		a := code[r.IntN(20):][:0]
		n := 60 + r.IntN(140)
		for len(a) < n {
			a += code[r.IntN(len(code)):][:1]
		}
		b := []byte(a)
		for range 1 + r.IntN(8) {
			b[r.IntN(len(b))] = code[r.IntN(len(code))]
		}
		if i%2 == 0 {
			b = b[:len(b)-r.IntN(len(b)/2)]
		}
		if got, want := levenshtein(a, string(b)), distanceRow(a, string(b), false)[len(b)]; got != want {
			t.Fatalf("levenshtein(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}
