package locate

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestLadderFinderFollowsText: the ladder's finder, kept across edits,
// always reads the text the edit sees: edits that change nothing (already
// applied, or failed) share one, and an edit that changes the text gets a
// finder of the new text (its indexes carried from the old one's). Run on a reply sent twice: its second pass is
// all edits already made, each of which asks the finder for the whole
// file's derived lines.
func TestLadderFinderFollowsText(t *testing.T) {
	var file strings.Builder
	for i := range 400 {
		fmt.Fprintf(&file, "func f%d() {\n\treturn %d\n}\n\n", i, i)
	}
	edits := make([]edit.Edit, 0, 8)
	for _, i := range []int{3, 50, 51, 200, 399} {
		edits = append(edits, edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1,
			Old: fmt.Sprintf("func f%d() {\n\treturn %d\n", i, i), New: fmt.Sprintf("func f%d() {\n\treturn %d + 1\n", i, i)})
	}
	// One edit that fails: its old text is nowhere.
	edits = append(edits, edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1, Old: "func g() {\n\tnothing\n}\n", New: "x\n"})
	d := NewDoc(file.String(), Options{})
	for pass := range 2 {
		var seen []*finder
		for i := range edits {
			before := d.Text()
			r, err := d.ladder(&edits[i])
			if d.fin == nil || d.fin.content != before {
				t.Fatalf("pass %d, edit %d: the ladder's finder reads other text than the edit's", pass, i)
			}
			seen = append(seen, d.fin)
			changed := err == nil && r.Status == edit.StatusApplied
			if pass == 1 && changed {
				t.Fatalf("pass %d, edit %d: applied again (%+v)", pass, i, r)
			}
			d.settle()
			// A changed text gets a finder of its own, carried from the
			// old one (carry.go).
			if changed && d.fin != nil && (d.fin == seen[len(seen)-1] || d.fin.content != d.text) {
				t.Fatalf("pass %d, edit %d: the text changed and the old finder stayed", pass, i)
			}
		}
		if pass == 1 {
			for i := range seen {
				if seen[i] != seen[0] {
					t.Errorf("a reply's second pass, which changes nothing, made a new finder at edit %d", i)
					break
				}
			}
		}
	}
}

// TestVotesFromWordIndex: votes counted from the finder's index of its
// lines' words, made once, are the votes counted by cutting each line into
// words as it is reached, whatever the pattern and the first line.
func TestVotesFromWordIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pool := []string{"func load(p string) error {", "\treturn nil", "}", "", "\tx := y + 1", "\tlog.Print(x)",
		"// Load reads p.", "\tif err != nil {", "\t\treturn err", "\tdata, err := os.ReadFile(p)", "ÄÖ unicode wörds"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			l := pool[r.IntN(len(pool))]
			if r.IntN(4) == 0 {
				l = strings.ToUpper(l) + " extra"
			}
			b.WriteString(l + "\n")
		}
		return b.String()
	}
	for range 300 {
		f := newFinder(text(1 + r.IntN(80)))
		p := newPattern(text(1 + r.IntN(6)))
		from := r.IntN(len(f.lineIndex()) + 1)
		got, _ := f.votes(p, from, false)
		want := f.scanVotes(p, from, lineWords)
		if !sameVotes(got, want) {
			t.Fatalf("pattern %q from line %d: votes from the index %v, from each line's words %v", p.text, from, got, want)
		}
		keys, kpost := f.looseKeys(), f.keyPostings()
		for _, key := range append(slices.Clone(keys), 12345) {
			var want []int32
			for k, x := range keys {
				if x == key {
					want = append(want, int32(k))
				}
			}
			if got := kpost.get(key); !slices.Equal(got, want) {
				t.Fatalf("lines of key %x: %v, want %v", key, got, want)
			}
		}
		counts, _ := f.tokenIndex(false)
		for k, l := range f.lineIndex() {
			if w := lineWords(f.content[l.start:l.end], nil); int(counts[k]) != len(w) {
				t.Fatalf("line %d's indexed count of words %d, its words %v", k, counts[k], w)
			}
		}
		gotTri, _ := f.votes(p, from, true)
		wantTri := f.scanVotes(p, from, func(line string, dst []uint64) []uint64 {
			dst = lineTrigrams(line, dst)
			slices.Sort(dst)
			return slices.Compact(dst)
		})
		if !sameVotes(gotTri, wantTri) {
			t.Fatalf("pattern %q from line %d: trigram votes from the index %v, from each line's trigrams %v", p.text, from, gotTri, wantTri)
		}
	}
}

// TestPostingsKeepLast: a token index keeps a token's last keptPostings
// lines only, and still answers every vote's question as the whole list
// would: the lines from a line on when at most maxPostings stand there,
// and that there are more otherwise.
func TestPostingsKeepLast(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const n = 3000
	toks := make([][]uint64, n)
	all := map[uint64][]int32{}
	for k := range toks {
		// Token 0 and a few common ones stand on most lines, others on few.
		for _, tk := range []uint64{0, uint64(r.IntN(3) + 1), uint64(r.IntN(2000) + 10), uint64(r.IntN(2000) + 10)} {
			toks[k] = append(toks[k], tk, tk) // repeats count once
			if ls := all[tk]; len(ls) == 0 || ls[len(ls)-1] != int32(k) {
				all[tk] = append(ls, int32(k))
			}
		}
	}
	p, counts := makePostings(n, keptPostings, func(k int, emit func(uint64)) {
		for _, tk := range toks[k] {
			emit(tk)
		}
	})
	for k := range toks {
		if d := len(slices.Compact(slices.Sorted(slices.Values(toks[k])))); int(counts[k]) != d {
			t.Fatalf("line %d: count %d, want %d", k, counts[k], d)
		}
	}
	for tk, ls := range all {
		for range 20 {
			fromLine := r.IntN(n + 1)
			want, got := from(ls, fromLine), from(p.get(tk), fromLine)
			if (len(want) > maxPostings) != (len(got) > maxPostings) || len(want) <= maxPostings && !slices.Equal(want, got) {
				t.Fatalf("token %d from line %d: %d lines kept (%v), %d stand there", tk, fromLine, len(got), got, len(want))
			}
		}
	}
	if p.get(99999) != nil {
		t.Error("a token no line has has lines")
	}
}

// scanVotes is votes by a pass over every line of the file, each cut
// into tokens as it is reached: the reference the index is held to.
// It counts, for each start of a window from fromLine on, how much the
// file lines in it resemble the SEARCH lines they would align with: 1 for
// each line equal in its loosest form, else the share of tokens (as
// tokens splits a line into hashes, each once) of each pair that has at least
// minWordShare of them in common. One pass over the file.
func (f *finder) scanVotes(p *pattern, fromLine int, tokens func(line string, dst []uint64) []uint64) map[int]float64 {
	lines := f.lineIndex()
	votes := make(map[int]float64)
	want := make(map[uint64][]int)
	byTok := make(map[uint64][]int) // a token's SEARCH lines, each once
	nToks := make([]int, len(p.lines))
	var toks []uint64
	for i, l := range p.lines {
		if p.gap[i] || isBlank(l) {
			continue
		}
		k := looseKey(l)
		want[k] = append(want[k], i)
		toks = tokens(l, toks[:0])
		for _, w := range toks {
			if ls := byTok[w]; len(ls) == 0 || ls[len(ls)-1] != i {
				byTok[w] = append(ls, i)
				nToks[i]++
			}
		}
	}
	if len(want) == 0 || len(lines) == 0 {
		return votes
	}
	// A bit per slice of the key space rules out most lines before the
	// map is asked.
	var maybe, maybeTok hashBits
	for k := range want {
		maybe.set(k)
	}
	for w := range byTok {
		maybeTok.set(w)
	}
	shared := make([]int, len(p.lines))
	wt := make([]float64, len(p.lines)) // a line equal to one of the file's votes by its rarity
	for _, is := range want {
		for _, i := range is {
			wt[i] = f.rarity(p.lines[i])
		}
	}
	fragment := isFragment(p)
	var touched []int
	keys := f.looseKeys()
	for k := fromLine; k < len(lines); k++ {
		line := f.content[lines[k].start:lines[k].end]
		if key := keys[k]; maybe.has(key) && want[key] != nil {
			if isBlank(line) {
				continue
			}
			for _, i := range want[key] {
				votes[k-i] += wt[i]
			}
			continue
		}
		toks = tokens(line, toks[:0])
		touched = touched[:0]
		for _, w := range toks {
			if !maybeTok.has(w) {
				continue
			}
			for _, i := range byTok[w] {
				if shared[i] == 0 {
					touched = append(touched, i)
				}
				shared[i]++
			}
		}
		for _, i := range touched {
			// A file line's tokens may repeat; a SEARCH line's count once.
			share := 2 * float64(min(shared[i], nToks[i])) / float64(nToks[i]+len(toks))
			if fragment {
				// A piece of a line is judged by how much of it the line holds.
				share = float64(min(shared[i], nToks[i])) / float64(nToks[i])
			}
			if share >= minWordShare {
				votes[k-i] += share
			}
			shared[i] = 0
		}
	}
	return votes
}

// sameVotes reports whether a and b hold the same windows with the same
// votes, but for the order the sums were made in.
func sameVotes(a, b map[int]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || math.Abs(v-w) > 1e-9 {
			return false
		}
	}
	return true
}

// TestOrderByKey: the lines ordered by key are those a comparison sort
// orders by key and line, with keys that share their top bits, keys
// many lines share, and no lines at all.
func TestOrderByKey(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 2, 7, 1000, 5000} {
		keys := make([]uint64, n)
		for k := range keys {
			switch r.IntN(4) {
			case 0:
				keys[k] = 42 // a key most lines share
			case 1:
				keys[k] = 1<<63 | uint64(r.IntN(8)) // top bits alike
			default:
				keys[k] = r.Uint64()
			}
		}
		want := make([]int32, n)
		for k := range want {
			want[k] = int32(k)
		}
		slices.SortFunc(want, func(a, b int32) int {
			if c := cmp.Compare(keys[a], keys[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		if got := orderByKey(keys); !slices.Equal(got, want) {
			t.Fatalf("%d lines: ordered %v, want %v", n, got[:min(n, 20)], want[:min(n, 20)])
		}
	}
}

// TestDocIndexesContentOnce: a batch segment and the ladder read one
// finder over the content they share, and a segment that ends with its
// splices applied lets go of its finder over the content before them,
// even while something holds the segment: a failing edit's indexes are
// then never held for two contents at once.
func TestDocIndexesContentOnce(t *testing.T) {
	var file strings.Builder
	for i := range 300 {
		fmt.Fprintf(&file, "func f%d() {\n\treturn %d\n}\n\n", i, i)
	}
	lands := edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1, Old: "func f10() {\n\treturn 10\n", New: "func f10() {\n\treturn 11\n"}
	fails := edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1, Old: "func f20() {\n\treturn twenty\n", New: "x\n"}
	again := edit.Edit{Op: edit.Replace, Path: "f.go", Count: 1, Old: "func f30() {\n\treturn 30\n", New: "func f30() {\n\treturn 31\n"}
	d := NewDoc(file.String(), Options{})
	d.Prepare([]*edit.Edit{&lands, &fails, &again})
	if _, err := d.Replace(&lands); err != nil {
		t.Fatal(err)
	}
	g := d.seg
	if g == nil {
		t.Fatal("the batch started no segment")
	}
	if g.f != d.fin {
		t.Fatal("the segment and the ladder index the same content in two finders")
	}
	if _, err := d.Replace(&fails); err == nil || err.Code != edit.CodeNoMatch {
		t.Fatalf("the failing edit: %v, want NO_MATCH", err)
	}
	if g.f != nil || g.keys != nil || g.loose != nil {
		t.Error("a segment whose splices were applied still holds its indexes")
	}
	if d.fin == nil || d.fin.content != d.text {
		t.Error("the ladder's finder is not over the content the edits left")
	}
}

// TestDocRefusesTooLarge: a content of more bytes than a line's int32
// offsets hold is refused with IO_ERROR, by the batch and the ladder, not
// searched with offsets that wrap; one of exactly that many is edited.
func TestDocRefusesTooLarge(t *testing.T) {
	defer func(m int) { maxContent = m }(maxContent)
	content := strings.Repeat("line\n", 20) // 100 bytes
	maxContent = len(content)
	e := edit.Edit{Op: edit.Replace, Path: "f", Count: 0, Old: "line\nline\n", New: "x\n"}
	if _, err := NewDoc(content, Options{}).Replace(&e); err != nil {
		t.Fatalf("a content of maxContent bytes: %v", err)
	}
	maxContent = len(content) - 1
	one := edit.Edit{Op: edit.Replace, Path: "f", Count: 1, Old: "line\n", New: "x\n"}
	next := one
	for name, run := range map[string]func(d *Doc) *edit.Error{
		"ladder": func(d *Doc) *edit.Error { _, err := d.Replace(&e); return err },
		"batch": func(d *Doc) *edit.Error {
			d.Prepare([]*edit.Edit{&one, &next})
			_, err := d.Replace(&one)
			return err
		},
		"forced": func(d *Doc) *edit.Error { _, err := d.Force(&one); return err },
	} {
		if err := run(NewDoc(content, Options{})); err == nil || err.Code != edit.CodeIO {
			t.Errorf("%s: %v, want IO_ERROR", name, err)
		}
	}
	if NewDoc(content, Options{}).Stands(&one) {
		t.Error("Stands searched a content too large")
	}
}
