// Package linediff pairs the lines of two sequences along a longest common
// subsequence. It is shared by the packages that need a line diff without
// depending on one another (locate and normalize), and imports nothing;
// apply's audit keeps a pairing of its own, bounded as MaxCells is, so that
// it checks the ladder rather than repeat it.
package linediff

// MaxCells bounds the LCS table: when the lines left after trimming the
// common prefix and suffix would need more than MaxCells cells, Pair keeps
// only the prefix and suffix pairs.
const MaxCells = 4 << 20

// Pair returns, for each j in [0,m), the index i in [0,n) of the line of
// the first sequence that line j of the second is paired with, or -1. eq
// reports whether line i of the first sequence equals line j of the second.
//
// The common prefix is paired first, then the common suffix of what is
// left; the middle is paired along a longest common subsequence, found with
// an O(n·m) table unless that needs more than MaxCells cells, in which case
// the middle stays unpaired. Among several longest subsequences, the
// walk from the front pairs equal lines at once and otherwise skips a line
// of the first sequence whenever that keeps the length, so between two
// pairs the unpaired lines of the first sequence come first, as diff(1)
// writes removed lines before added ones.
func Pair(n, m int, eq func(i, j int) bool) []int {
	pairs := make([]int, m)
	for j := range pairs {
		pairs[j] = -1
	}
	lo := 0
	for lo < n && lo < m && eq(lo, lo) {
		pairs[lo] = lo
		lo++
	}
	hiA, hiB := n, m
	for hiA > lo && hiB > lo && eq(hiA-1, hiB-1) {
		hiA--
		hiB--
		pairs[hiB] = hiA
	}
	da, db := hiA-lo, hiB-lo
	if da == 0 || db == 0 || da*db > MaxCells {
		return pairs
	}
	// table[i*w+j]: LCS length of a[lo+i:hiA] and b[lo+j:hiB].
	w := db + 1
	table := make([]int32, (da+1)*w)
	for i := da - 1; i >= 0; i-- {
		for j := db - 1; j >= 0; j-- {
			if eq(lo+i, lo+j) {
				table[i*w+j] = table[(i+1)*w+j+1] + 1
			} else {
				table[i*w+j] = max(table[(i+1)*w+j], table[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < da && j < db; {
		switch {
		case eq(lo+i, lo+j):
			pairs[lo+j] = lo + i
			i++
			j++
		case table[(i+1)*w+j] >= table[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}
