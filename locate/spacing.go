package locate

import (
	"cmp"
	"hash/maphash"
	"slices"
	"sort"
	"strings"
)

// spacingPunct holds the ASCII punctuation beside which the spacing rung
// drops blanks: brackets, separators and operators, whose spacing is a
// matter of style in every language a model edits. Quotes, "_", "\", "#",
// "$" and "@" are not in it: a blank beside them may be a string's content
// (`" "` is not `""`) or part of a word (`echo $x` is not `echo$x`).
var spacingPunct = func() (t [128]bool) {
	for _, c := range []byte("()[]{},;:.=+-*/%<>!&|^~?") {
		t[c] = true
	}
	return t
}()

func isSpacingPunct(c byte) bool { return c < 0x80 && spacingPunct[c] }

// spacedForm is s as the spacing rung compares it: trimmed, each run of
// inner blanks dropped where a punctuation byte (spacingPunct) stands on
// either side of it, and made one space elsewhere. Blanks between two
// other bytes are never dropped: "int x" is not "intx". A trimmed line
// without inner blanks is returned as it is.
func spacedForm(s string) string {
	t, inner := trimInner(s)
	if !inner {
		return t
	}
	return string(appendSpaced(make([]byte, 0, len(t)), t))
}

// trimInner returns s trimmed, and whether blanks stand inside it.
func trimInner(s string) (string, bool) {
	t := trimBoth(s)
	for i := 0; i < len(t); i++ {
		if isSpace(t[i]) {
			return t, true
		}
	}
	return t, false
}

// appendSpaced appends spacedForm(t) to b, for t trimmed.
func appendSpaced(b []byte, t string) []byte {
	for i := 0; i < len(t); {
		if !isSpace(t[i]) {
			b = append(b, t[i])
			i++
			continue
		}
		// t is trimmed: a run of blanks has a byte on either side.
		j := skipSpace(t, i)
		if !isSpacingPunct(t[i-1]) && !isSpacingPunct(t[j]) {
			b = append(b, ' ')
		}
		i = j
	}
	return b
}

// spacedKey is the key of a line at the spacing rung: lines that match
// there have the same key. It allocates nothing for a line of ASCII
// (without "--") that fits its buffer: a NO_MATCH computes one per line
// of the file.
func spacedKey(s string) uint64 {
	t, inner := trimInner(foldPunct(s))
	if !inner {
		return maphash.String(candSeed, t)
	}
	var buf [256]byte
	return maphash.Bytes(candSeed, appendSpaced(buf[:0], t))
}

// spacedApart reports whether a line of p holds punctuation the spacing
// rung drops blanks beside, typography folded. Without any, a line
// matches there where it matches at the unicode rung, blanks collapsed:
// the rung would find nothing that rung did not.
func spacedApart(p *pattern) bool {
	for _, l := range p.lines {
		l = foldPunct(l)
		for i := 0; i < len(l); i++ {
			if isSpacingPunct(l[i]) {
				return true
			}
		}
	}
	return false
}

// spacedLines returns, ascending, the lines from line first on whose
// spacedKey is that of l. The first search of a finder scans (spacedScan);
// from the second on, the file's lines are indexed by spacedKey once for
// its content (spacedIndex), so each edit that reaches the rung, as
// every failing one does, costs the places its line stands, not a pass.
func (f *finder) spacedLines(l string, first int) []int {
	if f.spacedOrder == nil && !f.spacedAsked {
		f.spacedAsked = true
		return f.spacedScan(l, first)
	}
	keys, order := f.spacedIndex()
	key := spacedKey(l)
	// order is by key, then by line: the lines of key from first on are a
	// run of it.
	lo := sort.Search(len(order), func(i int) bool {
		k := keys[order[i]]
		return k > key || k == key && int(order[i]) >= first
	})
	var out []int
	for i := lo; i < len(order) && keys[order[i]] == key; i++ {
		out = append(out, int(order[i]))
	}
	return out
}

// spacedIndex returns, made once per content, each line's spacedKey and
// the lines ordered by key and then by number: two words a line, where a
// map of the lines of each key would cost several times the file.
func (f *finder) spacedIndex() (keys []uint64, order []int32) {
	if f.spacedOrder == nil {
		lines := f.lineIndex()
		f.spacedKeys = make([]uint64, len(lines))
		*f.keyed += len(lines)
		f.spacedOrder = make([]int32, len(lines))
		for k, ls := range lines {
			f.spacedKeys[k] = spacedKey(f.content[ls.start:ls.end])
			f.spacedOrder[k] = int32(k)
		}
		keys := f.spacedKeys
		slices.SortFunc(f.spacedOrder, func(a, b int32) int {
			if c := cmp.Compare(keys[a], keys[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
	}
	return f.spacedKeys, f.spacedOrder
}

// spacedScan is spacedLines by a scan of the content. A line that matches
// l at the spacing rung holds l's longest run of ASCII letters, digits and
// "_" as l has it: blanks are dropped only beside punctuation, and folding
// changes no such byte. So only the lines strings.Index finds that run in
// are keyed, and a miss costs a scan of the content, not a key per line.
func (f *finder) spacedScan(l string, from int) []int {
	f.scans++
	lines := f.lineIndex()
	key, word := spacedKey(l), longestWord(l)
	var out []int
	if word == "" {
		for k := from; k < len(lines); k++ {
			if spacedKey(f.content[lines[k].start:lines[k].end]) == key {
				out = append(out, k)
			}
		}
		return out
	}
	for k := from; k < len(lines); {
		i := strings.Index(f.content[lines[k].start:], word)
		if i < 0 {
			break
		}
		at := int(lines[k].start) + i
		for int(lines[k].next) <= at {
			k++
		}
		if spacedKey(f.content[lines[k].start:lines[k].end]) == key {
			out = append(out, k)
		}
		k++
	}
	return out
}

// longestWord returns the longest run of ASCII letters, digits and "_" in
// s, the first of those as long; "" when there is none.
func longestWord(s string) string {
	best := ""
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isASCIIWordByte(s[j]) {
			j++
		}
		if j-i > len(best) {
			best = s[i:j]
		}
		i = j + 1
	}
	return best
}

func isASCIIWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// spacing runs the spacing rung, the last of the ladder, tried when every
// rung before it and every rescue found nothing: the old text's lines,
// typography folded as at the unicode rung, match the file's once blanks
// beside punctuation are dropped ("function  f( a, b )" for
// "function f(a, b)"), indentation mapped as from the indent rung on.
// Only whole lines are compared, so a letter the model got wrong still
// fails, and hits are unique or refused as at every rung. It is safe
// last because no earlier rung had a place to prefer. done, when not nil,
// says the new text stands already at this rung: an insertion sent
// again, or an edit made before whose old text is gone.
func (m *matcher) spacing(op, np *pattern) (hits []hit, done *location) {
	if m.opts.Strict || m.rescued || op.blank {
		return nil, nil
	}
	f := m.f
	already := func(nh []hit) *location {
		loc := m.already(nh, levelSpacing)
		loc.Note = noteSpacing
		return &loc
	}
	if !spacedApart(op) {
		hits = nil // the unicode rung compared these lines as this one would
	} else if hits = m.search(op, levelSpacing); len(hits) > 0 {
		// As in places: the new text holding the old, standing around
		// each place the old text matched, is an insertion already made.
		if !m.opts.noAlready && insertion(op, np) {
			if nh := m.search(np, levelSpacing); m.standing(nh) && !f.addsFinalNL(op, np, nh) && within(hits, nh) && holdsEach(nh, hits) {
				return nil, already(nh)
			}
		}
		return hits, nil
	}
	if np.text != op.text && !np.blank && !m.opts.noAlready && spacedApart(np) {
		if nh := m.search(np, levelSpacing); m.standing(nh) && f.onlyExplanation(op, np, nh[0]) {
			return nil, already(nh)
		}
	}
	return nil, nil
}
