package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"runtime"
	"testing"
)

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// hash - reads stdin as a stream: 64 MiB of it cost no buffer of its
// size, and the hash is sha256sum's.
func TestHashStdinStreams(t *testing.T) {
	const size = 64 << 20
	sum := sha256.New()
	io.Copy(sum, io.LimitReader(zeros{}, size))
	want := hex.EncodeToString(sum.Sum(nil)) + "  -\n"

	var out, errOut bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := runHash(&hashOptions{root: t.TempDir()}, []string{"-"}, io.LimitReader(zeros{}, size), &out, &errOut)
	runtime.ReadMemStats(&after)
	if err != nil || out.String() != want {
		t.Fatalf("hash - = %q (%v, %s), want %q", out.String(), err, errOut.String(), want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("hashing %d bytes of stdin allocated %d bytes: stdin is read whole", size, alloc)
	}
}
