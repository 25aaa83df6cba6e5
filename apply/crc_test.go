package apply

import (
	"context"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestCRC32CBytewise checks that the bytewise CRC-32C a small apply
// uses gives hash/crc32's sum for every length up to the cut-over, so a
// journal sums the same whichever path wrote or reads it.
func TestCRC32CBytewise(t *testing.T) {
	want := crc32.MakeTable(crc32.Castagnoli)
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, crcTableMin+1)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 4095, 4096, 12345, crcTableMin - 1, crcTableMin} {
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

// TestCRCTablesOnlyForLargeApplies applies, each in a process of its own
// (the tables, once made, stay), one edit to a small file and one to a
// file of crcTableMin bytes: only the second makes CRC-32C's hardware
// tables, and both journals undo.
func TestCRCTablesOnlyForLargeApplies(t *testing.T) {
	if size := os.Getenv("EDAPPLY_TEST_CRC_SIZE"); size != "" {
		n, _ := strconv.Atoi(size)
		root := t.TempDir()
		body := strings.Repeat("x", n) + "\nold\n"
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{Root: root, StateDir: t.TempDir(), NoSync: true}
		edits := []edit.Edit{{Op: edit.Replace, Path: "f.txt", Old: "old\n", New: "new\n"}}
		if res, err := Apply(context.Background(), edits, opts); err != nil || !res.OK {
			t.Fatalf("apply: %v", err)
		}
		if res, err := Undo(context.Background(), opts); err != nil || !res.OK {
			t.Fatalf("undo: %v", err)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != body {
			t.Fatalf("undo left %d bytes, want the %d it started with", len(b), len(body))
		}
		fmt.Printf("tables made: %v\n", castagnoliMade.Load())
		return
	}
	for _, c := range []struct {
		size int
		want bool
	}{{100, false}, {crcTableMin, true}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCRCTablesOnlyForLargeApplies$", "-test.v")
		cmd.Env = append(os.Environ(), "EDAPPLY_TEST_CRC_SIZE="+strconv.Itoa(c.size))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%d-byte file: %v\n%s", c.size, err, out)
		}
		if want := fmt.Sprintf("tables made: %v\n", c.want); !strings.Contains(string(out), want) {
			t.Errorf("%d-byte file: want %q in the output:\n%s", c.size, want, out)
		}
	}
}
