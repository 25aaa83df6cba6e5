package locate

import (
	"iter"
	"strings"
)

// A Splice is one change to a text: Old, the bytes at offset At, becomes
// New.
type Splice struct {
	At       int
	Old, New string
}

// end is the offset just past the bytes x replaces.
func (x Splice) end() int { return x.At + len(x.Old) }

// pieces yields src with sp applied as its pieces in order, none empty:
// the spans of src between the splices and the splices' new texts. sp are
// splices of src, ascending and disjoint.
func pieces(src string, sp []Splice) iter.Seq[string] {
	return func(yield func(string) bool) {
		last := 0
		for _, x := range sp {
			if src[last:x.At] != "" && !yield(src[last:x.At]) || x.New != "" && !yield(x.New) {
				return
			}
			last = x.end()
		}
		if src[last:] != "" {
			yield(src[last:])
		}
	}
}

// joined is src with sp applied (see pieces), as one string.
func joined(src string, sp []Splice) string {
	n := len(src)
	for _, x := range sp {
		n += len(x.New) - len(x.Old)
	}
	var b strings.Builder
	b.Grow(n)
	for p := range pieces(src, sp) {
		b.WriteString(p)
	}
	return b.String()
}
