package locate

import (
	"hash/maphash"
	"slices"
)

// A short line with one slip (`betta`, `delat`, `alpah`, `btea` for
// `beta`, `delta`, `alpha`) shares no word and too few letters with its
// line to vote for it. Two strings one insertion, deletion, substitution
// or transposition apart share a variant with one byte deleted (or are
// one such variant of the other): a sorted index of those variants of the
// file's short lines, built once per content, places them.

// maxSlipLine is the longest line, trimmed, the slip index holds: a
// longer line shares words or letters enough to vote.
const maxSlipLine = 12

// A slipKey is one variant of a short line: the hash of the line, trimmed,
// with one byte deleted (or none), and the line it came from.
type slipKey struct {
	h    uint64
	line int32
}

// slipVariants appends to dst the hashes of t and of t with each byte
// deleted in turn.
func slipVariants(t string, dst []uint64) []uint64 {
	dst = append(dst, maphash.String(candSeed, t))
	var buf [maxSlipLine]byte
	for i := 0; i < len(t); i++ {
		b := append(append(buf[:0], t[:i]...), t[i+1:]...)
		dst = append(dst, maphash.Bytes(candSeed, b))
	}
	return dst
}

// slipIndex returns the variants of every short line of f, sorted.
func (f *finder) slipIndex() []slipKey {
	if f.slips == nil {
		f.slips = []slipKey{}
		var hs []uint64
		for k, l := range f.lineIndex() {
			t := trimBoth(f.content[l.start:l.end])
			if len(t) < 3 || len(t) > maxSlipLine {
				continue
			}
			hs = slipVariants(t, hs[:0])
			for _, h := range hs {
				f.slips = append(f.slips, slipKey{h, int32(k)})
			}
		}
		slices.SortFunc(f.slips, func(a, b slipKey) int {
			switch {
			case a.h < b.h:
				return -1
			case a.h > b.h:
				return 1
			}
			return int(a.line - b.line)
		})
	}
	return f.slips
}

// slipVotes adds to votes a vote for each window that aligns a short
// SEARCH line of p with a file line from fromLine on one slip from it
// (or equal to it once trimmed).
func (f *finder) slipVotes(p *pattern, fromLine int, votes map[int]float64) {
	var idx []slipKey
	var hs []uint64
	seen := map[int]bool{}
	for i, l := range p.lines {
		t := trimBoth(l)
		if p.gap[i] || len(t) < 3 || len(t) > maxSlipLine {
			continue
		}
		if idx == nil {
			idx = f.slipIndex()
		}
		clear(seen)
		hs = slipVariants(t, hs[:0])
		for _, h := range hs {
			at, _ := slices.BinarySearchFunc(idx, h, func(k slipKey, h uint64) int {
				switch {
				case k.h < h:
					return -1
				case k.h > h:
					return 1
				}
				return 0
			})
			for ; at < len(idx) && idx[at].h == h; at++ {
				k := int(idx[at].line)
				if k >= fromLine && !seen[k] {
					seen[k] = true
					votes[k-i] += 0.5
				}
			}
		}
	}
}
