package locate

import "hash/maphash"

// A short line with one slip (`betta`, `delat`, `alpah`, `btea` for
// `beta`, `delta`, `alpha`) shares no word and too few letters with its
// line to vote for it. Two strings one insertion, deletion, substitution
// or transposition apart share a variant with one byte deleted (or are
// one such variant of the other): an index of those variants of the
// file's short lines, built once per content, places them.

// maxSlipLine is the longest line, trimmed, the slip index holds: a
// longer line shares words or letters enough to vote.
const maxSlipLine = 12

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

// slipIndex returns the lines of every variant of f's short lines (the
// last carriedPostings of each, as a token index keeps them), made once per
// content.
func (f *finder) slipIndex() *postings {
	if f.slips == nil {
		lines := f.lineIndex()
		*f.keyed += len(lines)
		var hs []uint64
		f.slips, _ = makePostings(len(lines), carriedPostings, func(k int, emit func(uint64)) {
			t := trimBoth(f.content[lines[k].start:lines[k].end])
			if len(t) < 3 || len(t) > maxSlipLine {
				return
			}
			hs = slipVariants(t, hs[:0]) // the room kept from line to line
			for _, h := range hs {
				emit(h)
			}
		})
	}
	return f.slips
}

// slipVotes adds to votes a vote for each window that aligns a short
// SEARCH line of p with a file line from fromLine on one slip from it
// (or equal to it once trimmed). A variant that stands on more than
// maxPostings lines from fromLine (`return nil` and its slips) says
// little of where the text is and is not read, as in votes: each edit's
// read is bounded whatever the file.
func (f *finder) slipVotes(p *pattern, fromLine int, votes map[int]float64) {
	var idx *postings
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
			ls := from(idx.get(h), max(fromLine, 0))
			if len(ls) > maxPostings {
				continue
			}
			f.visits += len(ls)
			for _, k32 := range ls {
				if k := int(k32); !seen[k] {
					seen[k] = true
					votes[k-i] += 0.5
				}
			}
		}
	}
}
