package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"sync"
)

// A content is read as its chunks in order: a state's data, or its pieces
// (see state.pieces). Whatever reads the new content of a file (the temp
// file's write, the journal's sum, the receipt's hash, the checks that a
// file holds it) reads it so, and gets the same answer for the same bytes
// however they are cut.

// chunks is s's content as chunks in order: its pieces, or its data as
// one.
func (s state) chunks() [][]byte {
	if s.pieces != nil {
		return s.pieces
	}
	return [][]byte{s.data}
}

// size is the length of s's content.
func (s state) size() int {
	if s.pieces == nil {
		return len(s.data)
	}
	return chunksLen(s.pieces)
}

// chunksLen is the length of the chunks' bytes together.
func chunksLen(cs [][]byte) int {
	n := 0
	for _, b := range cs {
		n += len(b)
	}
	return n
}

// chunksOf is pieces as byte slices, shared, not copied: only read.
func chunksOf(pieces []string) [][]byte {
	cs := make([][]byte, len(pieces))
	for i, p := range pieces {
		cs[i] = readOnlyBytes(p)
	}
	return cs
}

// sameData reports whether s and t hold the same bytes, however either is
// cut.
func sameData(s, t state) bool {
	if s.pieces == nil && t.pieces == nil {
		return bytes.Equal(s.data, t.data)
	}
	if s.size() != t.size() {
		return false
	}
	c := cursor{cs: t.chunks()}
	for _, b := range s.chunks() {
		if !c.match(b) {
			return false
		}
	}
	return c.done()
}

// sameRef reports whether s and t hold the same slice of data, or the same
// pieces: the same content by construction, not by comparison.
func sameRef(s, t state) bool {
	if s.pieces != nil || t.pieces != nil {
		return len(s.pieces) == len(t.pieces) && len(s.pieces) > 0 && &s.pieces[0] == &t.pieces[0]
	}
	return sameBytes(s.data, t.data)
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

// chunksSum is contentSum of the chunks' bytes in order. CRC-32C's table
// (see crc32c) is chosen once, by the whole length: the sum is the same
// either way, but a large file cut in short pieces would otherwise be
// summed a byte at a time.
func chunksSum(cs [][]byte) uint64 {
	if len(cs) == 1 {
		return contentSum(cs[0])
	}
	tab := castagnoliFor(chunksLen(cs))
	var c, ieee uint32
	sum := func(b []byte) {
		c = crc32.Update(c, tab, b)
		ieee = crc32.Update(ieee, crc32.IEEETable, b)
	}
	// Each call sets up for alignment and for its three-way loop, which
	// costs more than copying a short piece: pieces are summed in blocks.
	buf := sumBlocks.Get().(*[16 << 10]byte)
	defer sumBlocks.Put(buf)
	k := 0
	for _, b := range cs {
		if k+len(b) > len(buf) {
			sum(buf[:k])
			k = 0
		}
		if len(b) >= len(buf) {
			sum(b)
			continue
		}
		k += copy(buf[k:], b)
	}
	sum(buf[:k])
	return uint64(c)<<32 | uint64(ieee)
}

// sumBlocks holds chunksSum's blocks.
var sumBlocks = sync.Pool{New: func() any { return new([16 << 10]byte) }}

// hashChunks is HashBytes of the chunks' bytes in order.
func hashChunks(cs [][]byte) string {
	if len(cs) == 1 {
		return HashBytes(cs[0])
	}
	h := sha256.New()
	for _, b := range cs {
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
