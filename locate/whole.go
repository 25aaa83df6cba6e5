package locate

// What a whole-file edit asks of the content it replaces, deletes or
// recreates: no rung, only judgements of whole texts.

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// RewriteError judges rewritten as the whole new content of original: an
// ELIDED error when a placeholder in it stands for original's code, or,
// for a tentative rewrite (a fence nobody called a whole file), when it is
// no whole file but a piece of one (wholeOf). Nil means it may be written.
func RewriteError(original, rewritten string, tentative bool) *edit.Error {
	if line, elided := elidedRewrite(original, rewritten); elided {
		return errRewriteElides(line)
	}
	if tentative && !wholeOf(original, rewritten) {
		return errRewritePiece()
	}
	return nil
}

// maxWholeCells bounds the table wholeOf fills to count the lines a
// rewrite keeps in order; past it, a greedy count (never more than the
// true one) stands in.
const maxWholeCells = 16 << 20

// wholeOf reports whether text, a fence read as a file's new content
// without the reply saying so, is explainable as the whole of file rather
// than a piece of it: it keeps the file's first and last significant
// lines, or most of the file's significant lines in order, or most of its
// words (a reflowed text keeps its words on other lines), or it is at
// least half the file's size (a rewrite of all of it, which deletes no
// more than it writes). Significant
// lines are the non-blank ones, compared with their blanks trimmed and
// collapsed, so a rewrite that re-indents still counts. An empty file is
// anything's whole.
//
// A rewrite may be as large as the reply, so each judgement costs a pass
// over both texts and a few bytes a line, never a copy of a line.
func wholeOf(file, text string) bool {
	fl := significantLines(file)
	if len(fl) == 0 {
		return true
	}
	if 2*visibleBytes(text) >= visibleBytes(file) {
		return true
	}
	tl := significantLines(text)
	if slices.Contains(tl, fl[0]) && slices.Contains(tl, fl[len(fl)-1]) {
		return true
	}
	return 2*keptInOrder(fl, tl) > len(fl) || 2*keptWords(file, text) > countWords(file)
}

// visibleBytes counts the bytes of s that are not blanks.
func visibleBytes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\v' && c != '\f' {
			n++
		}
	}
	return n
}

// keptWords counts the words of a that b holds, each as often as b does.
func keptWords(a, b string) int {
	have := map[string]int{}
	for w := range strings.FieldsSeq(b) {
		have[w]++
	}
	n := 0
	for w := range strings.FieldsSeq(a) {
		if have[w] > 0 {
			have[w]--
			n++
		}
	}
	return n
}

func countWords(s string) int {
	n := 0
	for range strings.FieldsSeq(s) {
		n++
	}
	return n
}

// wholeSeed keys significant lines: two lines are the same when their
// words are, and a key of 8 bytes stands for a line of any length.
var wholeSeed = maphash.MakeSeed()

// significantLines returns a key for each non-blank line of s, its words
// joined by one space.
func significantLines(s string) []uint64 {
	out := make([]uint64, 0, strings.Count(s, "\n")+1)
	var h maphash.Hash
	h.SetSeed(wholeSeed)
	for len(s) > 0 {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		h.Reset()
		words := 0
		for w := range strings.FieldsSeq(line) {
			if words > 0 {
				h.WriteByte(' ')
			}
			h.WriteString(w)
			words++
		}
		if words > 0 {
			out = append(out, h.Sum64())
		}
	}
	return out
}

// keptInOrder counts the longest run of a's lines that b holds in the same
// order (not necessarily adjacent).
func keptInOrder(a, b []uint64) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a)*len(b) > maxWholeCells {
		return keptGreedily(a, b)
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// keptGreedily matches each line of a, in order, with the first of b's
// after the last matched, found by a binary search in b's lines ordered
// by key and place, so a text of many lines b lacks costs no scan of b
// per line.
func keptGreedily(a, b []uint64) int {
	byKey := orderByKey(b)
	n, next := 0, int32(0)
	for _, l := range a {
		i, _ := slices.BinarySearchFunc(byKey, l, func(p int32, key uint64) int {
			if c := cmp.Compare(b[p], key); c != 0 {
				return c
			}
			return cmp.Compare(p, next)
		})
		if i < len(byKey) && b[byKey[i]] == l {
			n, next = n+1, byKey[i]+1
		}
	}
	return n
}

// IsCRLF reports whether text's line endings are mostly CRLF.
func IsCRLF(text string) bool {
	crlf := strings.Count(text, "\r\n")
	return crlf > 0 && crlf >= strings.Count(text, "\n")-crlf
}

// SameContent reports whether content equals want as a whole file, up to
// line endings, trailing whitespace and trailing blank lines (a diff's
// deletion must match the whole file).
func SameContent(content, want string) bool {
	split := func(s string) []string {
		ls := splitLF(s)
		for len(ls) > 0 && isBlank(ls[len(ls)-1]) {
			ls = ls[:len(ls)-1]
		}
		return ls
	}
	a, b := split(content), split(want)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if trimRight(a[i]) != trimRight(b[i]) {
			return false
		}
	}
	return true
}
