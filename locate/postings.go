package locate

// Candidates for thousands of failing edits must not cost a pass over the
// file each: the file's lines are indexed once per content, by loose key
// and by token (word, or trigram for the second pass), and a failing
// edit reads only the lines that share a key or a token with its own.
// A key or token that stands on more than maxPostings lines (`}`,
// `return`) says little of where the text is and is not read; when that
// leaves an edit without a single vote, the first maxPostings of its lines
// are read and the search is said to be cut short.

import "slices"

// maxPostings is how many lines of one key or token a vote reads.
const maxPostings = 256

// A postings index maps a key or token to the lines that have it,
// ascending, each once.
type postings map[uint64][]int32

// keyPostings returns the lines of each loose key, made once per content.
func (f *finder) keyPostings() postings {
	if f.keyPost == nil {
		f.keyPost = postings{}
		for k, key := range f.looseKeys() {
			f.keyPost[key] = append(f.keyPost[key], int32(k))
		}
	}
	return f.keyPost
}

// tokenIndex returns, made once per content, each line's tokens (line k's
// are toks[at[k]:at[k+1]]) and the lines of each token: words, or with
// tri the trigrams of the second pass.
func (f *finder) tokenIndex(tri bool) (toks []uint64, at []int, post postings) {
	if !tri {
		toks, at = f.lineWordIndex()
		if f.wordPost == nil {
			f.wordPost = index(toks, at)
		}
		return toks, at, f.wordPost
	}
	if f.triAt == nil {
		lines := f.lineIndex()
		f.triAt = make([]int, 1, len(lines)+1)
		// Sized for every line's trigrams at once: grown by appends, the
		// largest array of the finder would be copied over and over.
		n := 0
		for _, l := range lines {
			n += min(max(len(trimBoth(f.content[l.start:l.end]))-2, 0), maxTrigrams)
		}
		f.tris = make([]uint64, 0, n)
		var one []uint64
		for _, l := range lines {
			one = lineTrigrams(f.content[l.start:l.end], one[:0])
			// A line's trigrams, each once (lineTrigrams keeps repeats).
			slices.Sort(one)
			f.tris = append(f.tris, slices.Compact(one)...)
			f.triAt = append(f.triAt, len(f.tris))
		}
		f.triPost = index(f.tris, f.triAt)
	}
	return f.tris, f.triAt, f.triPost
}

// index makes the postings of tokens toks, line k's at toks[at[k]:at[k+1]].
func index(toks []uint64, at []int) postings {
	post := postings{}
	for k := 0; k+1 < len(at); k++ {
		for _, t := range toks[at[k]:at[k+1]] {
			if ls := post[t]; len(ls) == 0 || ls[len(ls)-1] != int32(k) {
				post[t] = append(ls, int32(k))
			}
		}
	}
	return post
}

// from is the lines of ls from line fromLine on.
func from(ls []int32, fromLine int) []int32 {
	i, _ := slices.BinarySearch(ls, int32(fromLine))
	return ls[i:]
}

// votes counts, for each start of a window from fromLine on, how much the
// file lines in it resemble the SEARCH lines they would align with: a
// line equal in its loosest form votes its rarity (see rarity), any other
// the share of tokens (words; with tri, trigrams) of each pair that has
// at least minWordShare of them in common. cut reports that keys or
// tokens too frequent to read were read in part (see maxPostings).
func (f *finder) votes(p *pattern, fromLine int, tri bool) (votes map[int]float64, cut bool) {
	votes = make(map[int]float64)
	lines := f.lineIndex()
	if len(lines) == 0 {
		return votes, false
	}
	keys, kpost := f.looseKeys(), f.keyPostings()
	_, at, tpost := f.tokenIndex(tri)
	tokens := lineWords
	if tri {
		tokens = lineTrigrams
	}
	want := map[uint64]bool{}
	for i, l := range p.lines {
		if !p.gap[i] && !isBlank(l) {
			want[looseKey(l)] = true
		}
	}
	fragment := isFragment(p)
	var mine []uint64
	var cands []int32
	shared := f.counts()
	var frequent []int // SEARCH lines whose every key and token was too frequent to read
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		read := false
		if ls := from(kpost[looseKey(l)], fromLine); len(ls) <= maxPostings {
			wt := f.rarity(l)
			f.visits += len(ls)
			for _, k := range ls {
				if !isBlank(f.content[lines[k].start:lines[k].end]) {
					votes[int(k)-i] += wt
				}
			}
			read = true
		}
		mine = tokens(l, mine[:0])
		if tri {
			slices.Sort(mine)
			mine = slices.Compact(mine)
		}
		if len(mine) == 0 {
			if !read {
				frequent = append(frequent, i)
			}
			continue
		}
		// Each token of the line and of a file line is counted once, so
		// a file line's hits are the tokens the two share.
		cands = cands[:0]
		for _, t := range mine {
			ls := from(tpost[t], fromLine)
			if len(ls) > maxPostings {
				continue
			}
			read = true
			f.visits += len(ls)
			for _, k := range ls {
				if shared[k] == 0 {
					cands = append(cands, k)
				}
				shared[k]++
			}
		}
		if !read {
			frequent = append(frequent, i)
		}
		for _, k := range cands {
			n := min(int(shared[k]), len(mine))
			shared[k] = 0
			if want[keys[k]] {
				continue // equal to a SEARCH line: it voted as such
			}
			share := 2 * float64(n) / float64(len(mine)+at[k+1]-at[k])
			if fragment {
				// A piece of a line is judged by how much of it the line holds.
				share = float64(n) / float64(len(mine))
			}
			if share >= minWordShare {
				votes[int(k)-i] += share
			}
		}
	}
	if len(votes) == 0 && len(frequent) > 0 {
		// Every line that could vote stands too often: read the first of
		// its places, and say the search was cut short.
		for _, i := range frequent {
			l := p.lines[i]
			ls := from(kpost[looseKey(l)], fromLine)
			wt := f.rarity(l)
			f.visits += min(len(ls), maxPostings)
			for _, k := range ls[:min(len(ls), maxPostings)] {
				if !isBlank(f.content[lines[k].start:lines[k].end]) {
					votes[int(k)-i] += wt
				}
			}
		}
		cut = true
	}
	return votes, cut
}

// counts returns a zeroed counter per line, kept for the next search:
// each user leaves it zeroed.
func (f *finder) counts() []int32 {
	if f.shared == nil {
		f.shared = make([]int32, len(f.lineIndex()))
	}
	return f.shared
}
