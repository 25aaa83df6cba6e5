package journal

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCRC32CBytewise checks that the bytewise CRC-32C a small apply
// uses gives hash/crc32's sum for every length up to the cut-over, so a
// journal sums the same whichever path wrote or reads it.
func TestCRC32CBytewise(t *testing.T) {
	want := crc32.MakeTable(crc32.Castagnoli)
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, TableMin+1)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 4095, 4096, 12345, TableMin - 1, TableMin} {
		if got, w := crc32.Update(0, castagnoliBytewise(), b[:n]), crc32.Checksum(b[:n], want); got != w {
			t.Errorf("bytewise CRC-32C of %d bytes = %08x, want %08x", n, got, w)
		}
		if got, w := crc32c(b[:n]), crc32.Checksum(b[:n], want); got != w {
			t.Errorf("crc32c of %d bytes = %08x, want %08x", n, got, w)
		}
	}
}

func BenchmarkCRC32CBytewise(b *testing.B) {
	buf := make([]byte, 16<<10)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		crc32.Update(0, castagnoliBytewise(), buf)
	}
}
