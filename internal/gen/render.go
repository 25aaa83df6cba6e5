package gen

import (
	"bytes"
	"fmt"
	"slices"
)

// A Block is one SEARCH/REPLACE block: Search and Replace are whole lines,
// each ending in a newline.
type Block struct {
	Path    string
	Search  string
	Replace string
}

// SearchReplace renders blocks as a model response in Aider's
// SEARCH/REPLACE format: a line of prose, then for each block its path on
// a line of its own and a fenced block holding the markers.
func SearchReplace(blocks []Block) []byte {
	var b bytes.Buffer
	n := 0
	for _, bl := range blocks {
		n += len(bl.Path) + len(bl.Search) + len(bl.Replace) + 64
	}
	b.Grow(n + 64)
	fmt.Fprintf(&b, "Here are the %d changes.\n\n", len(blocks))
	for _, bl := range blocks {
		b.WriteString(bl.Path)
		b.WriteString("\n```go\n<<<<<<< SEARCH\n")
		b.WriteString(bl.Search)
		b.WriteString("=======\n")
		b.WriteString(bl.Replace)
		b.WriteString(">>>>>>> REPLACE\n```\n\n")
	}
	return b.Bytes()
}

// UnifiedDiff renders edits as one git-style unified diff: files in order of
// first appearance, each with "diff --git", "---" and "+++" headers and one
// hunk per edit, in line order, with correct "@@ -l,s +l,s @@" numbers, so
// that "patch -p1" and "git apply" accept it. Edits of one file must not
// overlap (Sites never makes overlapping edits); UnifiedDiff panics if they
// do, as that is a bug in the caller.
func UnifiedDiff(edits []Edit) []byte {
	var paths []string
	byPath := map[string][]Edit{}
	size := 0
	for _, e := range edits {
		if _, ok := byPath[e.Path]; !ok {
			paths = append(paths, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
		size += len(e.Old()) + len(e.New()) + 64
	}
	var b bytes.Buffer
	b.Grow(size + 128*len(paths))
	for _, p := range paths {
		es := slices.Clone(byPath[p])
		slices.SortStableFunc(es, func(x, y Edit) int { return x.Line - y.Line })
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", p, p, p, p)
		delta, end := 0, 0 // new-file line shift so far; first original line after the last hunk
		for _, e := range es {
			if e.Line <= end {
				panic(fmt.Sprintf("gen.UnifiedDiff: %s: edit at line %d overlaps the one before", p, e.Line))
			}
			oldN := e.oldLen()
			newN := len(e.Before) + len(e.Add) + len(e.After)
			fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(e.Line, oldN), hunkRange(e.Line+delta, newN))
			for _, l := range e.Before {
				b.WriteString(" " + l + "\n")
			}
			for _, l := range e.Del {
				b.WriteString("-" + l + "\n")
			}
			for _, l := range e.Add {
				b.WriteString("+" + l + "\n")
			}
			for _, l := range e.After {
				b.WriteString(" " + l + "\n")
			}
			delta += newN - oldN
			end = e.Line + oldN - 1
		}
	}
	return b.Bytes()
}

// hunkRange formats one side of a hunk header as diff does: "l,n", just "l"
// when n is 1, and the line before when n is 0.
func hunkRange(line, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", line-1)
	case 1:
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, n)
}

// LongLineReply is a reply of n SEARCH/REPLACE blocks for big.go (or one
// diff of n hunks) whose changed lines are long: the reply's bytes are
// nearly all text that the edits quote, and its lines are few, so what
// parsing allocates beside the edits' slices of the reply is small.
func LongLineReply(n int, diff bool) string {
	var b bytes.Buffer
	for i := range n {
		old := fmt.Sprintf("var v%d = %q\n", i, bytes.Repeat([]byte("o"), 16<<10))
		nw := fmt.Sprintf("var v%d = %q\n", i, bytes.Repeat([]byte("n"), 16<<10))
		if diff {
			if i == 0 {
				b.WriteString("--- a/big.go\n+++ b/big.go\n")
			}
			fmt.Fprintf(&b, "@@ -%d,1 +%d,1 @@\n-%s+%s", 10*i+1, 10*i+1, old, nw)
			continue
		}
		fmt.Fprintf(&b, "big.go\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n\n", old, nw)
	}
	return b.String()
}
