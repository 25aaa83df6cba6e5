package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"sync"

	"github.com/edapply/edapply/apply/internal/fsio"
)

// chunksSum is contentSum of the chunks' bytes in order. CRC-32C's table
// (see crc32c) is chosen once, by the whole length: the sum is the same
// either way, but a large file cut in short pieces would otherwise be
// summed a byte at a time.
func chunksSum(cs [][]byte) uint64 {
	if len(cs) == 1 {
		return contentSum(cs[0])
	}
	tab := castagnoliFor(fsio.ChunksLen(cs))
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
