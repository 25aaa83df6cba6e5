package audit

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// TestRope holds the rope to a plain string through random splices and
// marks: its bytes, the line of every offset, the offset of every line,
// and where each mark stands.
func TestRope(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		text := func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteByte("ab\n\r x"[r.IntN(6)])
			}
			return b.String()
		}
		// A long first piece, so that line breaks are counted by blocks.
		var pieces []string
		for range 1 + r.IntN(3) {
			pieces = append(pieces, text(r.IntN(6000)))
		}
		want := strings.Join(pieces, "")
		rp := newRope(pieces, 0)
		marks := map[int]int{} // id → offset in want, while it stands
		for step := range 60 {
			off := r.IntN(len(want) + 1)
			if r.IntN(4) == 0 {
				rp.mark(off, step)
				marks[step] = off
				continue
			}
			n := r.IntN(len(want) - off + 1)
			if r.IntN(3) == 0 {
				n = 0
			}
			s := text(r.IntN(40))
			rp.replace(off, n, s)
			for id, at := range marks {
				// A splice over a mark removes it; text put where a mark
				// stands goes before it.
				switch {
				case at > off && at < off+n, at == off && n > 0:
					delete(marks, id)
				case at >= off+n:
					marks[id] = at + len(s) - n
				}
			}
			want = want[:off] + s + want[off+n:]
		}
		if got := rp.String(); got != want {
			t.Fatalf("seed %d: rope holds %q, want %q", seed, got, want)
		}
		if same, at := rp.equalTo([]string{want[:len(want)/2], want[len(want)/2:]}); !same {
			t.Fatalf("seed %d: equalTo its own bytes = false at %d", seed, at)
		}
		if len(want) > 0 {
			other := want[:len(want)-1] + "#"
			if same, at := rp.equalTo([]string{other}); same || at != len(want)-1 {
				t.Fatalf("seed %d: equalTo a last byte changed = %v at %d, want false at %d", seed, same, at, len(want)-1)
			}
		}
		if same, _ := rp.equalTo([]string{want, "x"}); same {
			t.Fatalf("seed %d: equalTo a longer text = true", seed)
		}
		for k := 0; k < 50; k++ {
			off := r.IntN(len(want) + 1)
			if got, want := rp.nlBefore(off), strings.Count(want[:off], "\n"); got != want {
				t.Fatalf("seed %d: nlBefore(%d) = %d, want %d", seed, off, got, want)
			}
			line := r.IntN(strings.Count(want, "\n") + 2)
			wantAt := len(want)
			if line == 0 {
				wantAt = 0
			} else if i := nthIndex(want, line); i >= 0 {
				wantAt = i + 1
			}
			if got := rp.lineStart(line); got != wantAt {
				t.Fatalf("seed %d: lineStart(%d) = %d, want %d", seed, line, got, wantAt)
			}
		}
		if got, want := rp.lines(), len(splitLines(want)); got != want {
			t.Fatalf("seed %d: lines() = %d, want %d", seed, got, want)
		}
		got := map[int]int{}
		rp.marks(func(id, off int) { got[id] = off })
		for id, at := range marks {
			if got[id] != at {
				t.Fatalf("seed %d: mark %d at %d, want %d (marks %v)", seed, id, got[id], at, got)
			}
		}
		if len(got) != len(marks) {
			t.Fatalf("seed %d: marks %v stand, want %v", seed, got, marks)
		}
	}
}

// nthIndex is the offset of the n-th "\n" of s (from 1), or -1.
func nthIndex(s string, n int) int {
	off := -1
	for range n {
		i := strings.IndexByte(s[off+1:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// TestRopeCost holds a replay of many splices to one large content to a
// number of tree nodes linear in the splices, and each splice to a
// logarithm of them: no splice copies the content.
func TestRopeCost(t *testing.T) {
	const lines, edits = 200000, 20000
	var b strings.Builder
	for i := range lines {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteByte('\n')
	}
	content := b.String()
	rp := newRope([]string{content}, 0)
	allocs := testing.AllocsPerRun(1, func() {
		for k := range edits {
			// From the end backwards: each splice cuts the one long piece
			// that is left before it.
			at := rp.lineStart(lines - 1 - k*(lines/edits))
			rp.replace(at, 5, "LINE ")
		}
	})
	if n := len(rp.ns); n > 4*edits+8 {
		t.Errorf("%d splices made %d nodes, want at most %d", edits, n, 4*edits+8)
	}
	// Each splice makes a few nodes and a source; the node slice grows by
	// doubling. A copy of the content per splice would be edits more.
	if allocs > 4*edits {
		t.Errorf("%d splices took %.0f allocations", edits, allocs)
	}
	if got := strings.Count(rp.String(), "LINE "); got != edits {
		t.Errorf("%d splices left %d replaced lines", edits, got)
	}
}

// Reading bytes that lie in one piece returns that piece's own bytes; a
// read across pieces joins them.
func TestRopeReadShares(t *testing.T) {
	file := strings.Repeat("a line of the file\n", 1000)
	r := newRope([]string{file, "tail\n"}, 0)
	if got := r.read(19, 38); got != file[19:57] || unsafe.StringData(got) != unsafe.StringData(file[19:]) {
		t.Errorf("read within the first piece is a copy, or wrong: %q", got)
	}
	if got, want := r.read(len(file)-5, 10), file[len(file)-5:]+"tail\n"; got != want {
		t.Errorf("read across pieces = %q, want %q", got, want)
	}
	if allocs := testing.AllocsPerRun(3, func() { r.read(0, len(file)) }); allocs > 0 {
		t.Errorf("read of a whole piece allocates %.0f times, want none", allocs)
	}
}
