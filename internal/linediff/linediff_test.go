package linediff

import (
	"slices"
	"strings"
	"testing"
)

// pairStrings pairs a and b, given as one character per line.
func pairStrings(a, b string) []int {
	return Pair(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
}

func TestPair(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want []int
	}{
		{"", "", []int{}},
		{"abc", "", []int{}},
		{"", "abc", []int{-1, -1, -1}},
		{"abc", "abc", []int{0, 1, 2}},
		{"abc", "xyz", []int{-1, -1, -1}},
		{"abc", "axc", []int{0, -1, 2}},
		{"abxyc", "abc", []int{0, 1, 4}},
		{"abc", "abxyc", []int{0, 1, -1, -1, 2}},
		// The suffix is paired before the middle: the second x keeps its
		// partner rather than the first.
		{"xa", "aya", []int{-1, -1, 1}},
		{"aa", "a", []int{0}},
		{"a", "aa", []int{0, -1}},
		// Ties skip lines of the first sequence first: b's line pairs
		// with the later of two candidates.
		{"pxqyr", "pyxr", []int{0, 3, -1, 4}},
		{"xy", "yx", []int{1, -1}},
		{"abab", "baba", []int{1, 2, 3, -1}},
		{"qab", "baq", []int{2, -1, -1}},
	} {
		got := pairStrings(tc.a, tc.b)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Pair(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if ref := refPair(tc.a, tc.b); !slices.Equal(got, ref) {
			t.Errorf("Pair(%q, %q) = %v, reference %v", tc.a, tc.b, got, ref)
		}
	}
}

func TestPairCap(t *testing.T) {
	// 2048×2048 middle lines fit the table exactly; one more line does not,
	// and then only the common prefix and suffix are paired.
	for _, tc := range []struct {
		da, db int
		table  bool
	}{
		{2048, 2048, true},
		{2049, 2048, false},
		{2048, 2049, false},
	} {
		// a: P x...x y S, b: P y x...x S  (P, S common; x, y in the middle)
		a := "P" + strings.Repeat("x", tc.da-1) + "y" + "S"
		b := "P" + "y" + strings.Repeat("x", tc.db-1) + "S"
		got := pairStrings(a, b)
		if got[0] != 0 || got[len(b)-1] != len(a)-1 {
			t.Fatalf("%d×%d: prefix/suffix not paired: %v, %v", tc.da, tc.db, got[0], got[len(b)-1])
		}
		paired := 0
		for _, i := range got[1 : len(b)-1] {
			if i >= 0 {
				paired++
			}
		}
		want := 0
		if tc.table {
			want = min(tc.da, tc.db) - 1
		}
		if paired != want {
			t.Errorf("%d×%d: %d middle lines paired, want %d", tc.da, tc.db, paired, want)
		}
	}
}

// refPair is a plain transcription of the specification: trim the common
// prefix and suffix on slices, fill a [][]int LCS table for the rest and
// walk it from the front, skipping a line of a on ties.
func refPair(a, b string) []int {
	pairs := make([]int, len(b))
	for j := range pairs {
		pairs[j] = -1
	}
	off := 0
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		pairs[off] = off
		a, b = a[1:], b[1:]
		off++
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		pairs[off+len(b)-1] = off + len(a) - 1
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a)*len(b) > MaxCells {
		return pairs
	}
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			pairs[off+j] = off + i
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}

// lcsLen is the length of a longest common subsequence, with no trimming.
func lcsLen(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func FuzzPair(f *testing.F) {
	f.Add([]byte("abc"), []byte("axc"))
	f.Add([]byte("xa"), []byte("aya"))
	f.Add([]byte("abab"), []byte("baba"))
	f.Add([]byte("pxqyr"), []byte("pyxr"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		// A small alphabet, so that lines repeat and ties are common.
		fold := func(s []byte) string {
			out := make([]byte, len(s))
			for i, c := range s {
				out[i] = 'a' + c%4
			}
			return string(out)
		}
		a, b := fold(x), fold(y)
		got := pairStrings(a, b)
		if ref := refPair(a, b); !slices.Equal(got, ref) {
			t.Fatalf("Pair(%q, %q) = %v, reference %v", a, b, got, ref)
		}
		// The pairs are an increasing common subsequence of full length.
		n, last := 0, -1
		for j, i := range got {
			if i < 0 {
				continue
			}
			if i <= last || i >= len(a) || a[i] != b[j] {
				t.Fatalf("Pair(%q, %q) = %v: bad pair %d-%d", a, b, got, i, j)
			}
			last = i
			n++
		}
		if want := lcsLen(a, b); n != want {
			t.Fatalf("Pair(%q, %q) = %v: %d pairs, LCS has %d", a, b, got, n, want)
		}
	})
}
