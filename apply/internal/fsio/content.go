package fsio

import (
	"bytes"
	"unsafe"
)

// A content is read as its chunks in order: a State's data, or its pieces
// (see State.Pieces). Whatever reads the new content of a file (the temp
// file's write, the journal's sum, the receipt's hash, the checks that a
// file holds it) reads it so, and gets the same answer for the same bytes
// however they are cut.

// chunks is s's content as chunks in order: its pieces, or its data as
// one.
func (s State) Chunks() [][]byte {
	if s.Pieces != nil {
		return s.Pieces
	}
	return [][]byte{s.Data}
}

// size is the length of s's content.
func (s State) Size() int {
	if s.Pieces == nil {
		return len(s.Data)
	}
	return ChunksLen(s.Pieces)
}

// ChunksLen is the length of the chunks' bytes together.
func ChunksLen(cs [][]byte) int {
	n := 0
	for _, b := range cs {
		n += len(b)
	}
	return n
}

// SameData reports whether s and t hold the same bytes, however either is
// cut.
func SameData(s, t State) bool {
	if s.Pieces == nil && t.Pieces == nil {
		return bytes.Equal(s.Data, t.Data)
	}
	if s.Size() != t.Size() {
		return false
	}
	c := cursor{cs: t.Chunks()}
	for _, b := range s.Chunks() {
		if !c.match(b) {
			return false
		}
	}
	return c.done()
}

// SameRef reports whether s and t hold the same slice of data, or the same
// pieces: the same content by construction, not by comparison.
func SameRef(s, t State) bool {
	if s.Pieces != nil || t.Pieces != nil {
		return len(s.Pieces) == len(t.Pieces) && len(s.Pieces) > 0 && &s.Pieces[0] == &t.Pieces[0]
	}
	return SameBytes(s.Data, t.Data)
}

// A cursor reads a content's chunks in order, for a comparison with bytes
// that come in other lengths (a file read in blocks, another content's
// chunks). It never writes the chunks.
type cursor struct {
	cs  [][]byte
	off int // into cs[0]
}

// match reports whether the content's next len(b) bytes are b, and moves
// past them.
func (c *cursor) match(b []byte) bool {
	for len(b) > 0 {
		if len(c.cs) == 0 {
			return false
		}
		h := c.cs[0][c.off:]
		k := min(len(h), len(b))
		if !bytes.Equal(h[:k], b[:k]) {
			return false
		}
		b = b[k:]
		if c.off += k; c.off == len(c.cs[0]) {
			c.cs, c.off = c.cs[1:], 0
		}
	}
	return true
}

// done reports whether the content has no byte left past the cursor.
func (c *cursor) done() bool {
	for len(c.cs) > 0 && c.off == len(c.cs[0]) {
		c.cs, c.off = c.cs[1:], 0
	}
	return len(c.cs) == 0
}

// ChunksOf is pieces as byte slices, shared, not copied: only read.
func ChunksOf(pieces []string) [][]byte {
	cs := make([][]byte, len(pieces))
	for i, p := range pieces {
		cs[i] = unsafe.Slice(unsafe.StringData(p), len(p))
	}
	return cs
}
