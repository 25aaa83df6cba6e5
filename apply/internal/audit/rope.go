package audit

import (
	"sort"
	"strings"
)

// A rope is a file's content as the check replays the edits on it: its
// pieces in order, in a treap by position whose every subtree knows its
// bytes and line breaks. A splice, the offset of a line and the line of an
// offset each cost a logarithm of the pieces, so that a reply of many
// edits to a large file is replayed without a copy of the file per edit.
// Marks are pieces of no bytes that stand at a place and move with the
// content around them; a splice over them removes them.
type rope struct {
	ns   []node // ns[0] is the empty tree
	root int32
	seed uint64
}

type node struct {
	l, r   int32
	pri    uint32
	src    *source
	lo, hi int   // the piece is src.s[lo:hi]
	mark   int32 // a mark's id plus one; 0 for a piece of text
	pnl    int   // "\n" in the piece
	size   int   // the subtree's bytes
	nl     int   // the subtree's "\n"
}

// A source is a text pieces are cut from: the file as read, or the text an
// edit wrote. A long one counts its line breaks by blocks, once.
type source struct {
	s      string
	blocks []int // blocks[k]: "\n" in s[:k*blockSize]
}

const blockSize = 1024

// nlBefore is the number of "\n" in s[:off].
func (s *source) nlBefore(off int) int {
	if len(s.s) <= 2*blockSize {
		return strings.Count(s.s[:off], "\n")
	}
	if s.blocks == nil {
		s.blocks = make([]int, len(s.s)/blockSize+1)
		for k := 1; k < len(s.blocks); k++ {
			s.blocks[k] = s.blocks[k-1] + strings.Count(s.s[(k-1)*blockSize:k*blockSize], "\n")
		}
	}
	k := off / blockSize
	return s.blocks[k] + strings.Count(s.s[k*blockSize:off], "\n")
}

// nthNL returns the offset of the n-th "\n" (from 1) of s at or after lo.
func (s *source) nthNL(lo, n int) int {
	want := s.nlBefore(lo) + n
	from := lo
	if s.blocks != nil {
		// The last block that starts with fewer than want before it.
		k := sort.Search(len(s.blocks), func(k int) bool { return s.blocks[k] >= want }) - 1
		if k*blockSize > from {
			from = k * blockSize
		}
	}
	left := want - s.nlBefore(from)
	for off := from; ; {
		i := strings.IndexByte(s.s[off:], '\n')
		if i < 0 {
			return -1
		}
		if left--; left == 0 {
			return off + i
		}
		off += i + 1
	}
}

// newRope is a rope of pieces, with room for splices more splices (each
// makes three nodes at most) and marks.
func newRope(pieces []string, splices int) *rope {
	r := &rope{ns: make([]node, 1, 2*len(pieces)+3*splices+8), seed: 0x9e3779b97f4a7c15}
	for _, p := range pieces {
		if p != "" {
			r.root = r.merge(r.root, r.leaf(&source{s: p}, 0, len(p), 0))
		}
	}
	return r
}

func (r *rope) leaf(src *source, lo, hi int, mark int32) int32 {
	r.seed = r.seed*6364136223846793005 + 1442695040888963407
	n := node{src: src, lo: lo, hi: hi, mark: mark, pri: uint32(r.seed >> 33)}
	if src != nil && hi > lo {
		n.pnl = src.nlBefore(hi) - src.nlBefore(lo)
	}
	n.size, n.nl = hi-lo, n.pnl
	r.ns = append(r.ns, n)
	return int32(len(r.ns) - 1)
}

func (r *rope) pull(t int32) {
	n := &r.ns[t]
	l, rr := &r.ns[n.l], &r.ns[n.r]
	n.size = n.hi - n.lo + l.size + rr.size
	n.nl = n.pnl + l.nl + rr.nl
}

func (r *rope) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if r.ns[a].pri > r.ns[b].pri {
		x := r.merge(r.ns[a].r, b)
		r.ns[a].r = x
		r.pull(a)
		return a
	}
	x := r.merge(a, r.ns[b].l)
	r.ns[b].l = x
	r.pull(b)
	return b
}

// split cuts t into its first k bytes and the rest; marks at k go with the
// rest.
func (r *rope) split(t int32, k int) (int32, int32) {
	if t == 0 {
		return 0, 0
	}
	n := r.ns[t]
	ls := r.ns[n.l].size
	plen := n.hi - n.lo
	switch {
	case k <= ls:
		a, b := r.split(n.l, k)
		r.ns[t].l = b
		r.pull(t)
		return a, t
	case k >= ls+plen:
		a, b := r.split(n.r, k-ls-plen)
		r.ns[t].r = a
		r.pull(t)
		return t, b
	}
	// Inside the piece: t keeps its head, a new leaf holds its tail.
	x := n.lo + k - ls
	tail := r.leaf(n.src, x, n.hi, 0)
	m := &r.ns[t]
	m.hi, m.l, m.r = x, 0, 0
	m.pnl = n.src.nlBefore(x) - n.src.nlBefore(n.lo)
	r.pull(t)
	left := r.merge(n.l, t)
	right := r.merge(tail, n.r)
	return left, right
}

func (r *rope) size() int { return r.ns[r.root].size }

// lines is the number of lines of the content: its "\n", and one more
// for a last line without one.
func (r *rope) lines() int {
	n := r.ns[r.root].nl
	if sz := r.size(); sz > 0 && r.byteAt(sz-1) != '\n' {
		n++
	}
	return n
}

// replace puts s in place of the n bytes at off.
func (r *rope) replace(off, n int, s string) {
	a, rest := r.split(r.root, off)
	_, c := r.split(rest, n)
	if s != "" {
		a = r.merge(a, r.leaf(&source{s: s}, 0, len(s), 0))
	}
	r.root = r.merge(a, c)
}

// mark puts a mark with id at off. Text a later replace puts at off goes
// before it; a replace of bytes that starts at it or spans it removes it.
func (r *rope) mark(off int, id int) {
	a, c := r.split(r.root, off)
	r.root = r.merge(r.merge(a, r.leaf(nil, 0, 0, int32(id+1))), c)
}

// nlBefore is the number of "\n" before offset off: the 0-based line that
// holds off.
func (r *rope) nlBefore(off int) int {
	n, t := 0, r.root
	for t != 0 {
		x := &r.ns[t]
		ls := r.ns[x.l].size
		switch {
		case off <= ls:
			t = x.l
		case off <= ls+x.hi-x.lo:
			return n + r.ns[x.l].nl + x.src.nlBefore(x.lo+off-ls) - x.src.nlBefore(x.lo)
		default:
			n += r.ns[x.l].nl + x.pnl
			off -= ls + x.hi - x.lo
			t = x.r
		}
	}
	return n
}

// lineStart is the offset where 0-based line k starts: just past the k-th
// "\n", or the content's end when it has fewer.
func (r *rope) lineStart(k int) int {
	if k <= 0 {
		return 0
	}
	if k > r.ns[r.root].nl {
		return r.size()
	}
	off, t := 0, r.root
	for t != 0 {
		x := &r.ns[t]
		lnl := r.ns[x.l].nl
		switch {
		case k <= lnl:
			t = x.l
		case k <= lnl+x.pnl:
			at := x.src.nthNL(x.lo, k-lnl)
			return off + r.ns[x.l].size + at - x.lo + 1
		default:
			k -= lnl + x.pnl
			off += r.ns[x.l].size + x.hi - x.lo
			t = x.r
		}
	}
	return r.size()
}

// read returns the n bytes at off.
func (r *rope) read(off, n int) string {
	if n <= 0 {
		return ""
	}
	// Bytes of one piece are that piece's own: a file read whole is not
	// copied to be read back.
	var first string
	var b *strings.Builder
	r.each(off, off+n, func(s string) bool {
		switch {
		case b != nil:
			b.WriteString(s)
		case first == "":
			first = s
		case s != "":
			b = &strings.Builder{}
			b.Grow(n)
			b.WriteString(first)
			b.WriteString(s)
		}
		return true
	})
	if b == nil {
		return first
	}
	return b.String()
}

// each calls fn with the content's bytes from off to end, in pieces in
// order, until fn returns false.
func (r *rope) each(off, end int, fn func(string) bool) {
	var walk func(t int32, base int) bool
	walk = func(t int32, base int) bool {
		if t == 0 || base >= end || base+r.ns[t].size <= off {
			return true
		}
		x := &r.ns[t]
		ls := r.ns[x.l].size
		if !walk(x.l, base) {
			return false
		}
		ps := base + ls
		if pe := ps + x.hi - x.lo; pe > off && ps < end && x.hi > x.lo {
			lo, hi := max(off, ps)-ps+x.lo, min(end, pe)-ps+x.lo
			if !fn(x.src.s[lo:hi]) {
				return false
			}
		}
		return walk(x.r, ps+x.hi-x.lo)
	}
	walk(r.root, 0)
}

// holds reports whether the content has s at off.
func (r *rope) holds(off int, s string) bool {
	if off < 0 || off+len(s) > r.size() {
		return false
	}
	same := true
	r.each(off, off+len(s), func(p string) bool {
		same = s[:len(p)] == p
		s = s[len(p):]
		return same
	})
	return same
}

func (r *rope) byteAt(off int) byte {
	var c byte
	r.each(off, off+1, func(s string) bool { c = s[0]; return false })
	return c
}

// marks calls fn with every mark's id and offset.
func (r *rope) marks(fn func(id, off int)) {
	var walk func(t int32, base int)
	walk = func(t int32, base int) {
		if t == 0 {
			return
		}
		x := &r.ns[t]
		walk(x.l, base)
		ps := base + r.ns[x.l].size
		if x.mark != 0 {
			fn(int(x.mark-1), ps)
		}
		walk(x.r, ps+x.hi-x.lo)
	}
	walk(r.root, 0)
}

// String is the whole content.
func (r *rope) String() string { return r.read(0, r.size()) }

// equalTo reports whether the content is the bytes of pieces in order, and
// the offset of the first byte that differs.
func (r *rope) equalTo(pieces []string) (bool, int) {
	k, off, at := 0, 0, 0
	same := true
	r.each(0, r.size(), func(s string) bool {
		for s != "" {
			for k < len(pieces) && off == len(pieces[k]) {
				k, off = k+1, 0
			}
			if k == len(pieces) {
				same = false
				return false
			}
			n := min(len(s), len(pieces[k])-off)
			if s[:n] != pieces[k][off:off+n] {
				for i := 0; i < n; i++ {
					if s[i] != pieces[k][off+i] {
						at += i
						break
					}
				}
				same = false
				return false
			}
			s, off, at = s[n:], off+n, at+n
		}
		return true
	})
	if !same {
		return false, at
	}
	for ; k < len(pieces); k, off = k+1, 0 {
		if off < len(pieces[k]) {
			return false, at
		}
	}
	return true, at
}
