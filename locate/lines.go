package locate

// The search of the line rungs (2 to 6, and 11): whole lines of the old
// text compared with the file's at one rung's comparison, starts found by
// each line's loose key.

import "slices"

// prepLine prepares a pattern line for lineEq at level lv.
func prepLine(lv level, l string) string {
	switch lv {
	case levelTrailingWS:
		return trimRight(l)
	case levelIndent:
		return trimBoth(l)
	case levelWhitespace:
		return l
	case levelSpacing:
		return spacedForm(foldPunct(l))
	}
	return foldPunct(l)
}

// lineEq compares a file line with a pattern line, prepared by prepLine,
// at a line level.
func lineEq(lv level, file, pat string) bool {
	switch lv {
	case levelTrailingWS:
		return trimRight(file) == pat
	case levelIndent:
		return trimBoth(file) == pat
	case levelWhitespace:
		return eqFields(file, pat)
	case levelSpacing:
		return spacedForm(foldPunct(file)) == pat
	default: // levelUnicode, levelElision
		return eqFields(foldPunct(file), pat)
	}
}

// lineHits finds p, line by line at level lv, in the lines from fromLine
// on: every start line where it matches, overlapping matches included; at
// most limit hits. With gaps, placeholder lines match the shortest run of
// lines (zero or more) that lets the rest match; lv is then the comparison
// for the other lines.
func (f *finder) lineHits(p *pattern, lv level, gaps bool, fromLine, limit int) []hit {
	if p.blank || len(p.lines) == 0 {
		return nil
	}
	gaps = gaps && p.gaps > 0
	base := 0
	if gaps {
		for base < len(p.lines) && p.gap[base] {
			base++
		}
	}
	return f.lineHitsAt(p, lv, gaps, f.starts(p, lv, gaps, base, fromLine), limit)
}

// keptLineRoom is the most lines of room a finder keeps between searches
// (finder.lineRoom): an edit's, not a whole file's.
const keptLineRoom = 1 << 12

// lineHitsAt is lineHits at the given start lines (ascending) only: those
// that starts finds, or a caller's that knows them (batch.go).
func (f *finder) lineHitsAt(p *pattern, lv level, gaps bool, starts []int, limit int) []hit {
	if p.blank || len(p.lines) == 0 {
		return nil
	}
	lines := f.lineIndex()
	// The prepared lines, then the lines a shift is judged on (each
	// match's in the same room).
	room := slices.Grow(f.lineRoom[:0], 3*len(p.lines))[:3*len(p.lines)]
	defer func() {
		clear(room)
		if len(room) <= keptLineRoom {
			f.lineRoom = room[:0]
		}
	}()
	pl := room[:len(p.lines):len(p.lines)]
	for i, l := range p.lines {
		pl[i] = prepLine(lv, l)
	}
	gaps = gaps && p.gaps > 0
	// The file's line k holds pattern line base: leading placeholders
	// match no line.
	base := 0
	if gaps {
		for base < len(pl) && p.gap[base] {
			base++
		}
	}
	var hits []hit
	var rescaledHits []hit // hits that needed a change of units: only when no other
	fileText := func(k int) string { return f.content[lines[k].start:lines[k].end] }
	var memo []segMemo
	need := len(pl)
	if gaps {
		memo = make([]segMemo, len(pl))
		need -= p.gaps
	}
	for _, k := range starts {
		if k+need > len(lines) {
			break
		}
		var runs []int
		end, ok := k+len(pl), false
		if gaps {
			runs = make([]int, len(pl))
			end, ok = f.matchGaps(pl, p.gap, lv, k, runs, memo)
		} else {
			ok = f.segAt(pl, lv, k)
		}
		if !ok {
			continue
		}
		// Indentation: the same shift for every line that is not blank.
		ps, fs := room[len(pl):len(pl):2*len(pl)], room[2*len(pl):2*len(pl)]
		at := k
		for i := range pl {
			if gaps && p.gap[i] {
				at += runs[i]
				continue
			}
			ps = append(ps, p.lines[i])
			fs = append(fs, fileText(at))
			at++
		}
		sh := shift{tabw: 4}
		if lv >= levelIndent {
			var ok bool
			if sh, ok = consistentShift(ps, fs); !ok {
				continue
			}
		}
		h := hit{first: k, last: end - 1, lineMode: true, gapMode: gaps, runs: runs, sh: sh, cmp: lv}
		h.start, h.end = int(lines[k].start), int(lines[end-1].next)
		if sh.um != 0 {
			// A looser mapping than an additive shift: it counts only
			// when no place matches with one.
			if len(rescaledHits) < limit {
				rescaledHits = append(rescaledHits, h)
			}
			continue
		}
		hits = append(hits, h)
		if len(hits) >= limit {
			break
		}
	}
	if len(hits) == 0 {
		return rescaledHits
	}
	return hits
}

// starts returns, ascending, the lines from fromLine on where a match of
// p may start at line level lv. Rather than compare every line, it
// compares keys: a file line that matches a pattern line at any line level
// up to elision has the pattern line's looseKey (each level only forgives
// what the key leaves out: blanks and typography), and one that matches
// at levelSpacing its spacedKey (spacedLines). So only the lines whose key is that of
// the first segment's most telling line, shifted back to where the match
// would start, are starts.
func (f *finder) starts(p *pattern, lv level, gaps bool, base, fromLine int) []int {
	ni := tellingLine(p, gaps, base)
	if ni >= len(p.lines) {
		return nil // only placeholders: they match no line
	}
	off := ni - base
	if lv == levelSpacing {
		ks := f.spacedLines(p.lines[ni], fromLine+off)
		for i := range ks {
			ks[i] -= off
		}
		return ks
	}
	keys, key := f.looseKeys(), looseKey(p.lines[ni])
	var ks []int
	for L := fromLine + off; L < len(keys); L++ {
		if keys[L] == key {
			ks = append(ks, L-off)
		}
	}
	return ks
}

// tellingLine is the line of p that starts looks a match up by: the
// longest of the first segment's (from base, up to a gap when gaps is
// set), the first of the longest, its blanks at either end not counted.
func tellingLine(p *pattern, gaps bool, base int) int {
	ni, best := base, -1
	for i := base; i < len(p.lines) && !(gaps && p.gap[i]); i++ {
		if n := len(trimBoth(p.lines[i])); n > best {
			ni, best = i, n
		}
	}
	return ni
}

// looseKeys returns the looseKey of every line, computed once.
func (f *finder) looseKeys() []uint64 {
	if f.keys == nil {
		lines := f.lineIndex()
		f.keys = make([]uint64, len(lines))
		*f.keyed += len(lines)
		bits := 1 << 12
		for bits < 16*len(lines) {
			bits <<= 1
		}
		f.keyBits = make([]uint64, bits/64)
		for k, l := range lines {
			h := looseKey(f.content[l.start:l.end])
			f.keys[k] = h
			b := h & uint64(bits-1)
			f.keyBits[b/64] |= 1 << (b % 64)
		}
	}
	return f.keys
}

// mayHaveLines reports whether every line of p that is not a placeholder
// or blank may have a match at a line level: false when the loose key of
// one is that of no line of the file (a set of bits, so true may be
// wrong; false never is).
func (f *finder) mayHaveLines(p *pattern) bool {
	f.looseKeys()
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		b := looseKey(l) & uint64(len(f.keyBits)*64-1)
		if f.keyBits[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// segAt reports whether the lines seg match the file's lines from k on.
func (f *finder) segAt(seg []string, lv level, k int) bool {
	if k+len(seg) > len(f.lines) {
		return false
	}
	for i, l := range seg {
		ls := f.lines[k+i]
		if !lineEq(lv, f.content[ls.start:ls.end], l) {
			return false
		}
	}
	return true
}
