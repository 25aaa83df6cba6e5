package locate

import (
	"slices"
	"sort"
	"strings"
)

// A rope is the new text of a splice the batch accepted, held as a treap
// of pieces in text order, each node counting the bytes and "\n" of its
// subtree. A merge (replaceCurrent) keeps what it does not rewrite of the
// splices it joins by splitting and joining their trees, and writes only
// its edit's lines anew: a run of merges costs each its own lines and a
// logarithm, wherever in a long merged splice it lands.
//
// Every byte the batch writes takes a coordinate no other byte takes,
// which stays with it while it stands (see chunk): the zone lines are
// indexed by the coordinate of their start, and so found again however
// the text before them grew or shrank since.
type rope struct{ root *rnode }

// An rnode is a piece of a rope: s, part of the text of chunk ch, whose
// first byte has coordinate v.
type rnode struct {
	s               string
	v               int
	ch              *chunk
	left, right, up *rnode
	ownNL           int // "\n" in s
	size, nl        int // bytes and "\n" of the subtree
	at              int // at a root: where in orig the splice whose text it is starts
}

// A chunk is a text the batch wrote: its bytes took the coordinates from
// start on, n of them, and nodes are the pieces of it that still stand,
// by coordinate. The coordinates from lo to start stand for the bytes
// before it on orig's line it starts in, and those after start+n up to
// hi for the bytes after it on the line it ends in, while its first (its
// last) byte is its rope's: a zone's first line starts there, and a
// place may lie there.
type chunk struct {
	lo, start, n, hi int
	nodes            []*rnode
	// first is the node it starts as, and one the room of its nodes
	// then: a chunk and its node are one allocation.
	first rnode
	one   [1]*rnode
}

func size(n *rnode) int {
	if n == nil {
		return 0
	}
	return n.size
}

func nls(n *rnode) int {
	if n == nil {
		return 0
	}
	return n.nl
}

// pull sets n's counts from its children's, and them under n.
func (n *rnode) pull() {
	n.size, n.nl = len(n.s)+size(n.left)+size(n.right), n.ownNL+nls(n.left)+nls(n.right)
	if n.left != nil {
		n.left.up = n
	}
	if n.right != nil {
		n.right.up = n
	}
}

// join is the tree of a's text followed by b's.
func join(a, b *rnode) *rnode {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.prio() > b.prio():
		a.right = join(a.right, b)
		a.pull()
		return a
	default:
		b.left = join(a, b.left)
		b.pull()
		return b
	}
}

// splitAt cuts n's tree into its first k bytes and the rest, each a root.
func splitAt(n *rnode, k int) (l, r *rnode) {
	l, r = split(n, k)
	if l != nil {
		l.up = nil
	}
	if r != nil {
		r.up = nil
	}
	return l, r
}

func split(n *rnode, k int) (l, r *rnode) {
	if n == nil {
		return nil, nil
	}
	ls := size(n.left)
	switch {
	case k <= ls:
		l, n.left = split(n.left, k)
		n.pull()
		return l, n
	case k >= ls+len(n.s):
		n.right, r = split(n.right, k-ls-len(n.s))
		n.pull()
		return n, r
	}
	m := n.cut(k - ls)
	r, n.right = join(m, n.right), nil
	n.pull()
	return n, r
}

// cut leaves n its first k bytes and returns a node of the rest, after n
// in its chunk. The "\n" are counted in the shorter part, so that cutting
// one chunk again and again costs as sorting would.
func (n *rnode) cut(k int) *rnode {
	m := &rnode{s: n.s[k:], v: n.v + k, ch: n.ch}
	if k <= len(n.s)-k {
		c := strings.Count(n.s[:k], "\n")
		m.ownNL, n.ownNL = n.ownNL-c, c
	} else {
		c := strings.Count(n.s[k:], "\n")
		m.ownNL, n.ownNL = c, n.ownNL-c
	}
	n.s = n.s[:k]
	m.size, m.nl = len(m.s), m.ownNL
	ns := n.ch.nodes
	i := n.ch.index(n.v)
	n.ch.nodes = slices.Insert(ns, i+1, m)
	return m
}

// prio is n's priority in the treap: its coordinate, which no other
// node shares, mixed (splitmix64's finalizer).
func (n *rnode) prio() uint64 {
	z := uint64(n.v)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// index is the place in ch.nodes of the node whose coordinate is v.
func (ch *chunk) index(v int) int {
	return sort.Search(len(ch.nodes), func(i int) bool { return ch.nodes[i].v >= v })
}

// drop takes every node of n's tree off its chunk: the text no longer
// stands, and the lines indexed on it are gone.
func drop(n *rnode) {
	if n == nil {
		return
	}
	drop(n.left)
	if i := n.ch.index(n.v); i < len(n.ch.nodes) && n.ch.nodes[i] == n {
		n.ch.nodes = slices.Delete(n.ch.nodes, i, i+1)
	}
	drop(n.right)
	// A chunk holds its first node whether it stands or not: what the
	// node held goes with it.
	n.s, n.left, n.right, n.up = "", nil, nil, nil
}

// offset is where n's text starts in its rope, and the rope's root.
func (n *rnode) offset() (int, *rnode) {
	o := size(n.left)
	c := n
	for ; c.up != nil; c = c.up {
		if c == c.up.right {
			o += size(c.up.left) + len(c.up.s)
		}
	}
	return o, c
}

// isFirst and isLast report whether n holds its rope's first (last)
// bytes.
func (n *rnode) isFirst() bool {
	for c := n; c.up != nil; c = c.up {
		if c == c.up.right {
			return false
		}
	}
	return n.left == nil
}

func (n *rnode) isLast() bool {
	for c := n; c.up != nil; c = c.up {
		if c == c.up.left {
			return false
		}
	}
	return n.right == nil
}

func (r *rope) len() int { return size(r.root) }

// first and last are the nodes of r's first and last bytes (r's one node
// when its text is empty).
func (r *rope) first() *rnode {
	n := r.root
	for n.left != nil {
		n = n.left
	}
	return n
}

func (r *rope) last() *rnode {
	n := r.root
	for n.right != nil {
		n = n.right
	}
	return n
}

// nodeAt is the node that holds offset o (0 <= o < r.len()), and where
// its text starts.
func (r *rope) nodeAt(o int) (*rnode, int) {
	n, start := r.root, 0
	for {
		ls := size(n.left)
		switch {
		case o < ls:
			n = n.left
		case o < ls+len(n.s):
			return n, start + ls
		default:
			start += ls + len(n.s)
			o -= ls + len(n.s)
			n = n.right
		}
	}
}

// nlBefore is the number of "\n" in the text's first o bytes.
func (r *rope) nlBefore(o int) int {
	c := 0
	for n := r.root; n != nil; {
		ls := size(n.left)
		if o < ls {
			n = n.left
			continue
		}
		c += nls(n.left)
		o -= ls
		if o < len(n.s) {
			return c + strings.Count(n.s[:o], "\n")
		}
		c += n.ownNL
		o -= len(n.s)
		n = n.right
	}
	return c
}

// nthNL is the offset of the text's k-th "\n" (k from 1), -1 when it has
// fewer.
func (r *rope) nthNL(k int) int {
	off := 0
	for n := r.root; n != nil; {
		if k <= nls(n.left) {
			n = n.left
			continue
		}
		k -= nls(n.left)
		off += size(n.left)
		if k <= n.ownNL {
			return off + nthIndexNL(n.s, k)
		}
		k -= n.ownNL
		off += len(n.s)
		n = n.right
	}
	return -1
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
	if o >= r.len() {
		return -1
	}
	n, start := r.nodeAt(o)
	if k := strings.IndexByte(n.s[o-start:], '\n'); k >= 0 {
		return o + k
	}
	return r.nthNL(r.nlBefore(start+len(n.s)) + 1)
}

// each calls fn with the text's bytes from x to y, as spans of its
// pieces in order.
func (r *rope) each(x, y int, fn func(string)) { eachIn(r.root, x, y, fn) }

func eachIn(n *rnode, x, y int, fn func(string)) {
	if n == nil || x >= y {
		return
	}
	ls := size(n.left)
	if x < ls {
		eachIn(n.left, x, min(y, ls), fn)
	}
	if s, e := max(x-ls, 0), min(y-ls, len(n.s)); s < e {
		fn(n.s[s:e])
	}
	if past := ls + len(n.s); y > past {
		eachIn(n.right, max(x-past, 0), y-past, fn)
	}
}

// slice is the text's bytes from x to y: a span of one piece where they
// lie in one, else joined.
func (r *rope) slice(x, y int) string {
	if x >= y {
		return ""
	}
	if n, start := r.nodeAt(x); y-start <= len(n.s) {
		return n.s[x-start : y-start]
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

// newChunk is a node of s alone, a text the batch writes, whose bytes
// take coordinates no byte took before, with room for head bytes of orig
// before it and tail after it (see chunk).
func (g *segment) newChunk(s string, head, tail int) *rnode {
	ch := &chunk{lo: g.coords, start: g.coords + head + 1, n: len(s)}
	ch.hi = ch.start + len(s) + tail
	g.coords = ch.hi + 1
	n := &ch.first
	*n = rnode{s: s, v: ch.start, ch: ch, ownNL: strings.Count(s, "\n")}
	n.size, n.nl = len(s), n.ownNL
	ch.one[0] = n
	ch.nodes = ch.one[:]
	g.chunks = append(g.chunks, ch)
	return n
}

// standing finds coordinate c in the text it was written in: the root of
// the rope that holds it now and its offset from the rope's start
// (negative, or past its end, on orig's bytes of its first or last
// line); false once the byte, or the end of a line it stood for, is gone.
func (g *segment) standing(c int) (root *rnode, off int, ok bool) {
	i := sort.Search(len(g.chunks), func(i int) bool { return g.chunks[i].lo > c }) - 1
	if i < 0 || c > g.chunks[i].hi {
		return nil, 0, false
	}
	ch := g.chunks[i]
	ns := ch.nodes
	var n *rnode
	switch {
	case len(ns) == 0:
		return nil, 0, false
	case c < ch.start:
		if n = ns[0]; n.v != ch.start || !n.isFirst() {
			return nil, 0, false
		}
	case c >= ch.start+ch.n:
		if n = ns[len(ns)-1]; n.v+len(n.s) != ch.start+ch.n || !n.isLast() {
			return nil, 0, false
		}
	default:
		k := sort.Search(len(ns), func(k int) bool { return ns[k].v+len(ns[k].s) > c })
		if k == len(ns) || ns[k].v > c {
			return nil, 0, false
		}
		n = ns[k]
	}
	start, root := n.offset()
	return root, start + c - n.v, true
}

// coordAt is the coordinate of offset o of r's text: before its start or
// past its end, of orig's bytes on its first or last line.
func coordAt(r *rope, o int) int {
	switch {
	case o < 0:
		return r.first().v + o
	case o >= r.len():
		n := r.last()
		return n.v + len(n.s) + o - r.len()
	}
	n, start := r.nodeAt(o)
	return n.v + o - start
}
