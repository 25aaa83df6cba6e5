package locate

import (
	"sort"
	"strings"
)

// A rope is the new text of a splice the batch accepted, held as its
// pieces: a splice merged with the text next to it (replaceCurrent)
// shares the pieces of the one it grows from rather than copying their
// bytes, at its back (prefix, add) or at its front (suffix, addFront),
// so that a chain of adjacent edits costs each its own bytes, not the
// chain's, in whichever order it comes. A text of one piece is held as
// that string alone.
//
// The pieces' running counts are kept from an origin that growing at
// the front leaves in place: a position in the text (origin) is the
// same position whichever side the text grows on, which lets the zone
// lines a grown splice keeps stay indexed by it.
type rope struct {
	s string // the text, when it is one piece (buf nil)
	// buf[i:] are the pieces, none empty, when buf is not nil; buf[:i]
	// is room to grow at the front.
	buf []piece
	i   int
	// lo and loNL are the running counts at the text's start.
	lo, loNL int
}

// A piece is a span of a rope's text and what the rope's running counts
// are at its end: bytes and "\n".
type piece struct {
	s       string
	end, nl int
}

func ropeOf(s string) rope { return rope{s: s} }

// ps is r's pieces (r not one string).
func (r *rope) ps() []piece { return r.buf[r.i:] }

// origin is where r's text starts in its running counts: a position p
// of the text is p-origin from its start.
func (r *rope) origin() int { return r.lo }

func (r *rope) len() int {
	if r.buf == nil {
		return len(r.s)
	}
	ps := r.ps()
	return ps[len(ps)-1].end - r.lo
}

// split turns r, one string, into pieces.
func (r *rope) split() {
	r.buf = []piece{{s: r.s, end: r.lo + len(r.s), nl: r.loNL + strings.Count(r.s, "\n")}}
	r.i, r.s = 0, ""
}

// add appends s to r.
func (r *rope) add(s string) {
	if s == "" {
		return
	}
	if r.buf == nil {
		if r.s == "" {
			r.s = s
			return
		}
		r.split()
	}
	last := r.buf[len(r.buf)-1]
	r.buf = append(r.buf, piece{s: s, end: last.end + len(s), nl: last.nl + strings.Count(s, "\n")})
}

// addFront puts s before r's text, leaving its origin in place.
func (r *rope) addFront(s string) {
	if s == "" {
		return
	}
	if r.buf == nil {
		if r.s == "" {
			r.s, r.lo, r.loNL = s, r.lo-len(s), r.loNL-strings.Count(s, "\n")
			return
		}
		r.split()
	}
	if r.i == 0 {
		// Room at the front as much as the pieces take: growing there
		// costs a piece's copy at most, amortized.
		ps := r.ps()
		room := len(ps) + 4
		buf := make([]piece, room+len(ps), room+2*len(ps)+4)
		copy(buf[room:], ps)
		r.buf, r.i = buf, room
	}
	r.i--
	r.buf[r.i] = piece{s: s, end: r.lo, nl: r.loNL}
	r.lo -= len(s)
	r.loNL -= strings.Count(s, "\n")
}

// prefix is r's first n bytes, sharing r's pieces: r must not be read
// once the result is added to.
func (r *rope) prefix(n int) rope {
	if r.buf == nil {
		return rope{s: r.s[:n], lo: r.lo, loNL: r.loNL}
	}
	i := r.pieceAt(n)
	ps := r.ps()
	if i == len(ps) {
		return *r
	}
	start := r.start(i)
	out := rope{buf: r.buf[:r.i+i], i: r.i, lo: r.lo, loNL: r.loNL}
	if i == 0 {
		out.buf, out.i = nil, 0
	}
	out.add(ps[i].s[:n-start])
	return out
}

// suffix is r's bytes from n on, sharing r's pieces and keeping its
// origin: r must not be read once the result is added to at its front.
func (r *rope) suffix(n int) rope {
	if n == 0 {
		return *r
	}
	if r.buf == nil {
		return rope{s: r.s[n:], lo: r.lo + n, loNL: r.loNL + strings.Count(r.s[:n], "\n")}
	}
	ps := r.ps()
	i := r.pieceAt(n)
	if i == len(ps) {
		last := ps[len(ps)-1]
		return rope{lo: last.end, loNL: last.nl}
	}
	start := r.start(i)
	if n == start {
		prev := ps[i-1] // i > 0: n > 0 is no first piece's start
		return rope{buf: r.buf, i: r.i + i, lo: prev.end, loNL: prev.nl}
	}
	p := ps[i]
	if i == len(ps)-1 {
		return rope{s: p.s[n-start:], lo: r.lo + n, loNL: p.nl - strings.Count(p.s[n-start:], "\n")}
	}
	out := rope{buf: r.buf, i: r.i + i + 1, lo: p.end, loNL: p.nl}
	out.addFront(p.s[n-start:])
	return out
}

// pieceAt is the piece that holds offset o, len(r.ps()) past the end.
func (r *rope) pieceAt(o int) int {
	ps := r.ps()
	return sort.Search(len(ps), func(i int) bool { return ps[i].end > r.lo+o })
}

// start is the offset where piece i starts.
func (r *rope) start(i int) int {
	if i == 0 {
		return 0
	}
	return r.ps()[i-1].end - r.lo
}

// nlAt is the running "\n" count at the start of piece i.
func (r *rope) nlAt(i int) int {
	if i == 0 {
		return r.loNL
	}
	return r.ps()[i-1].nl
}

// nlBefore is the number of "\n" in the text's first o bytes.
func (r *rope) nlBefore(o int) int {
	if r.buf == nil {
		return strings.Count(r.s[:o], "\n")
	}
	ps := r.ps()
	i := r.pieceAt(o)
	if i == len(ps) {
		return ps[len(ps)-1].nl - r.loNL
	}
	return r.nlAt(i) - r.loNL + strings.Count(ps[i].s[:o-r.start(i)], "\n")
}

// nthNL is the offset of the text's k-th "\n" (k from 1), -1 when it has
// fewer.
func (r *rope) nthNL(k int) int {
	if r.buf == nil {
		return nthIndexNL(r.s, k)
	}
	ps := r.ps()
	i := sort.Search(len(ps), func(i int) bool { return ps[i].nl-r.loNL >= k })
	if i == len(ps) {
		return -1
	}
	return r.start(i) + nthIndexNL(ps[i].s, k-(r.nlAt(i)-r.loNL))
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
	if r.buf == nil {
		if i := strings.IndexByte(r.s[o:], '\n'); i >= 0 {
			return o + i
		}
		return -1
	}
	ps := r.ps()
	i := r.pieceAt(o)
	if i == len(ps) {
		return -1
	}
	start := r.start(i)
	if k := strings.IndexByte(ps[i].s[o-start:], '\n'); k >= 0 {
		return o + k
	}
	return r.nthNL(ps[i].nl - r.loNL + 1)
}

// each calls fn with the text's bytes from x to y, as spans of its
// pieces in order.
func (r *rope) each(x, y int, fn func(string)) {
	if x >= y {
		return
	}
	if r.buf == nil {
		fn(r.s[x:y])
		return
	}
	ps := r.ps()
	for i := r.pieceAt(x); i < len(ps) && x < y; i++ {
		p, start := ps[i], r.start(i)
		t := p.s[x-start : min(len(p.s), y-start)]
		fn(t)
		x += len(t)
	}
}

// slice is the text's bytes from x to y: a span of one piece where they
// lie in one, else joined.
func (r *rope) slice(x, y int) string {
	if r.buf == nil {
		return r.s[x:y]
	}
	ps := r.ps()
	if i := r.pieceAt(x); i < len(ps) && y-r.start(i) <= len(ps[i].s) {
		return ps[i].s[x-r.start(i) : y-r.start(i)]
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
