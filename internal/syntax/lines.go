package syntax

import (
	"sort"
	"strings"
)

// A Line is one line of a text, the i-th of SplitLines: its number is
// i+1, and it ends where the next starts (LineEnd). A reply holds one
// record per line for the whole parse, so the record keeps only what
// cannot be computed: a diff's reply has a line for every 33 bytes or so.
type Line struct {
	Text  string // without its line ending
	Start int    // byte offset of the line's first byte
}

// SplitLines splits s into its lines; a line's Text shares s.
func SplitLines(s string) []Line {
	ls := make([]Line, 0, strings.Count(s, "\n")+1)
	for off := 0; off < len(s); {
		i := strings.IndexByte(s[off:], '\n')
		end := len(s)
		if i >= 0 {
			end = off + i + 1
		}
		text := strings.TrimSuffix(strings.TrimSuffix(s[off:end], "\n"), "\r")
		ls = append(ls, Line{Text: text, Start: off})
		off = end
	}
	return ls
}

// LineEnd is the byte offset just past line i's line ending, in the text
// of size bytes that lines split.
func LineEnd(lines []Line, size, i int) int {
	if i+1 < len(lines) {
		return lines[i+1].Start
	}
	return size
}

// LineAt returns the index of the line holding byte offset off, in the
// text of size bytes that lines split.
func LineAt(lines []Line, size, off int) int {
	k := sort.Search(len(lines), func(k int) bool { return LineEnd(lines, size, k) > off })
	return min(k, len(lines)-1)
}

// SplitAfter splits s after each "\n"; a last line without one is kept.
func SplitAfter(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// CountLines is len(SplitAfter(s)), counted rather than split: a diff's
// every hunk asks it, of its old and new text, more than once.
func CountLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}
