package locate

import (
	"sort"
	"strings"
)

// A rope is the new text of a splice the batch accepted, held as its
// pieces: a splice merged with the text next to it (replaceCurrent)
// shares the pieces of the one before rather than copying its bytes, so
// that a chain of adjacent edits costs each its own bytes, not the
// chain's. A text of one piece is held as that string alone.
type rope struct {
	s  string  // the text, when it is one piece (ps nil)
	ps []piece // the pieces, none empty, when more than one
}

// A piece is a span of a rope's text and what the rope's text holds up
// to its end: bytes and "\n".
type piece struct {
	s       string
	end, nl int
}

func ropeOf(s string) rope { return rope{s: s} }

func (r *rope) len() int {
	if r.ps == nil {
		return len(r.s)
	}
	return r.ps[len(r.ps)-1].end
}

// add appends s to r.
func (r *rope) add(s string) {
	if s == "" {
		return
	}
	if r.ps == nil {
		if r.s == "" {
			r.s = s
			return
		}
		r.ps = []piece{{s: r.s, end: len(r.s), nl: strings.Count(r.s, "\n")}}
		r.s = ""
	}
	last := r.ps[len(r.ps)-1]
	r.ps = append(r.ps, piece{s: s, end: last.end + len(s), nl: last.nl + strings.Count(s, "\n")})
}

// prefix is r's first n bytes, sharing r's pieces: r must not be read
// once the result is added to.
func (r *rope) prefix(n int) rope {
	if r.ps == nil {
		return rope{s: r.s[:n]}
	}
	i := r.pieceAt(n)
	if i == len(r.ps) {
		return rope{ps: r.ps}
	}
	start := r.start(i)
	out := rope{ps: r.ps[:i]}
	if i == 0 {
		out.ps = nil
	}
	out.add(r.ps[i].s[:n-start])
	return out
}

// pieceAt is the piece that holds offset o, len(r.ps) past the end.
func (r *rope) pieceAt(o int) int {
	return sort.Search(len(r.ps), func(i int) bool { return r.ps[i].end > o })
}

// start is the offset where piece i starts.
func (r *rope) start(i int) int {
	if i == 0 {
		return 0
	}
	return r.ps[i-1].end
}

// nlBefore is the number of "\n" in the text's first o bytes.
func (r *rope) nlBefore(o int) int {
	if r.ps == nil {
		return strings.Count(r.s[:o], "\n")
	}
	i := r.pieceAt(o)
	if i == len(r.ps) {
		return r.ps[len(r.ps)-1].nl
	}
	n := 0
	if i > 0 {
		n = r.ps[i-1].nl
	}
	return n + strings.Count(r.ps[i].s[:o-r.start(i)], "\n")
}

// nthNL is the offset of the text's k-th "\n" (k from 1), -1 when it has
// fewer.
func (r *rope) nthNL(k int) int {
	if r.ps == nil {
		return nthIndexNL(r.s, k)
	}
	i := sort.Search(len(r.ps), func(i int) bool { return r.ps[i].nl >= k })
	if i == len(r.ps) {
		return -1
	}
	before := 0
	if i > 0 {
		before = r.ps[i-1].nl
	}
	return r.start(i) + nthIndexNL(r.ps[i].s, k-before)
}

// nthIndexNL is the offset of s's k-th "\n" (k from 1), -1 when it has
// fewer.
func nthIndexNL(s string, k int) int {
	off := 0
	for ; k > 0; k-- {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off - 1
}

// indexNL is the offset of the first "\n" at or after o, -1 when none.
func (r *rope) indexNL(o int) int {
	if r.ps == nil {
		if i := strings.IndexByte(r.s[o:], '\n'); i >= 0 {
			return o + i
		}
		return -1
	}
	i := r.pieceAt(o)
	if i == len(r.ps) {
		return -1
	}
	start := r.start(i)
	if k := strings.IndexByte(r.ps[i].s[o-start:], '\n'); k >= 0 {
		return o + k
	}
	return r.nthNL(r.ps[i].nl + 1)
}

// each calls fn with the text's bytes from x to y, as spans of its
// pieces in order.
func (r *rope) each(x, y int, fn func(string)) {
	if x >= y {
		return
	}
	if r.ps == nil {
		fn(r.s[x:y])
		return
	}
	for i := r.pieceAt(x); i < len(r.ps) && x < y; i++ {
		p, start := r.ps[i], r.start(i)
		t := p.s[x-start : min(len(p.s), y-start)]
		fn(t)
		x += len(t)
	}
}

// slice is the text's bytes from x to y: a span of one piece where they
// lie in one, else joined.
func (r *rope) slice(x, y int) string {
	if r.ps == nil {
		return r.s[x:y]
	}
	if i := r.pieceAt(x); i < len(r.ps) && y-r.start(i) <= len(r.ps[i].s) {
		return r.ps[i].s[x-r.start(i) : y-r.start(i)]
	}
	var b strings.Builder
	b.Grow(y - x)
	r.each(x, y, func(t string) { b.WriteString(t) })
	return b.String()
}

// equalAt reports whether the text holds s at offset x (x+len(s)
// within it).
func (r *rope) equalAt(x int, s string) bool {
	ok := true
	r.each(x, x+len(s), func(t string) {
		if ok {
			ok = t == s[:len(t)]
			s = s[len(t):]
		}
	})
	return ok
}
