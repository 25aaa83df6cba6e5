package audit

import "slices"

// Kept lines: inside a span, a line the edit keeps keeps the file's bytes.
//
// A diff hunk (and a Codex chunk) says which lines it keeps, by its marks
// (edit.Edit.Kept): each kept line of the new text is written as the
// file's line it pairs with, byte for byte. Other formats mark nothing:
// a line of the replacement equal to a line of the SEARCH is kept, and
// where equal lines repeat, any of them may be the one kept. The ladder
// pairs them along a longest common subsequence of the two texts' lines;
// the check asks only that the written text keep the file's bytes on as
// many lines as any such pairing keeps, which every choice among equal
// lines does, and which a kept line written with the model's bytes where
// the file's differ (another line ending, trailing blanks, the model's
// indentation) never does. Lines compare as the ladder pairs them: byte for
// byte when the old text stands in the file exactly, else without
// trailing blanks, which the tolerant rungs ignore.

// lcsCap bounds the table of a pairing, as the ladder's line diff bounds
// its own (internal/linediff's MaxCells): past it the ladder pairs only the
// texts' common head and tail, and the check holds it to those.
const lcsCap = 4 << 20

// shortText is the most lines of an old text that keptBroken groups
// without a map.
const shortText = 16

// keptBroken returns the first line of w (the written lines, one per line
// of the new text n) that the edit keeps from o (the old text's lines, the
// file's lines r) without the file's bytes; -1 when there is none. kept,
// when not nil, is the marks' pairing; exact says o matched r exactly. The
// lines' keys are cut in keyRoom's room, cleared after.
func keptBroken(r, w []line, o, n []string, exact bool, kept []int, keyRoom *[]string) int {
	if kept != nil {
		for j, i := range kept {
			if i >= 0 && i < len(r) && j < len(w) && !sameLine(w[j], r[i]) {
				return j
			}
		}
		return -1
	}
	key := func(s string) string {
		if exact {
			return s
		}
		return trimRight(s)
	}
	keys := slices.Grow((*keyRoom)[:0], len(o)+len(n))[:len(o)+len(n)]
	defer func() { *keyRoom = cleared(keys) }()
	ok, nk := keys[:len(o):len(o)], keys[len(o):]
	// The old text's lines by key: the file's line the first of them
	// matched, and whether all matched that same line. A short text's are
	// found by a look along them, a longer one's through a map.
	type group struct {
		key   string
		first int // the first old line with the key
		same  bool
	}
	groups := make([]group, 0, len(o))
	var index map[string]int
	if len(o) > shortText {
		index = make(map[string]int, len(o))
	}
	find := func(k string) int {
		if index != nil {
			if g, ok := index[k]; ok {
				return g
			}
			return -1
		}
		for g := range groups {
			if groups[g].key == k {
				return g
			}
		}
		return -1
	}
	for i := range o {
		ok[i] = key(o[i])
		if g := find(ok[i]); g < 0 {
			if index != nil {
				index[ok[i]] = len(groups)
			}
			groups = append(groups, group{key: ok[i], first: i, same: true})
		} else if r[groups[g].first] != r[i] {
			groups[g].same = false
		}
	}
	first := -1
	for j := range n {
		nk[j] = key(n[j])
		if g := find(nk[j]); g >= 0 && (!groups[g].same || !sameLine(w[j], r[groups[g].first])) && first < 0 {
			first = j
		}
	}
	if first < 0 {
		return -1 // every line that could be kept holds the file's bytes
	}
	cand := func(i, j int) bool { return ok[i] == nk[j] }
	good := func(i, j int) bool { return ok[i] == nk[j] && sameLine(w[j], r[i]) }
	all, pre, suf, exactAll := lcs(len(o), len(n), cand)
	if !exactAll {
		// The ladder paired the common head and tail only.
		for j := 0; j < pre; j++ {
			if !good(j, j) {
				return j
			}
		}
		for k := 1; k <= suf; k++ {
			if !good(len(o)-k, len(n)-k) {
				return len(n) - k
			}
		}
		return -1
	}
	if kept, _, _, _ := lcs(len(o), len(n), good); kept < all {
		return first
	}
	return -1
}

// lcs returns the length of a longest common subsequence of two sequences
// of n and m lines, eq telling equal ones, and the lengths of their common
// head and tail; exact is false when the middle would need more than
// lcsCap cells, and is then left out of the length.
func lcs(n, m int, eq func(i, j int) bool) (length, pre, suf int, exact bool) {
	for pre < n && pre < m && eq(pre, pre) {
		pre++
	}
	hiA, hiB := n, m
	for hiA > pre && hiB > pre && eq(hiA-1, hiB-1) {
		hiA--
		hiB--
		suf++
	}
	da, db := hiA-pre, hiB-pre
	if da == 0 || db == 0 {
		return pre + suf, pre, suf, true
	}
	if da*db > lcsCap {
		return pre + suf, pre, suf, false
	}
	// Two rows of the table: row[j] is the length for a[i:] and b[j:].
	next := make([]int32, db+1)
	cur := make([]int32, db+1)
	for i := da - 1; i >= 0; i-- {
		for j := db - 1; j >= 0; j-- {
			if eq(pre+i, pre+j) {
				cur[j] = next[j+1] + 1
			} else {
				cur[j] = max(next[j], cur[j+1])
			}
		}
		cur, next = next, cur
	}
	return pre + suf + int(next[0]), pre, suf, true
}
