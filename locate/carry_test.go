package locate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// indexAll makes every index a failing edit may read.
func indexAll(f *finder) {
	f.lineIndex()
	f.looseKeys()
	f.keyPostings()
	f.spacedIndex()
	f.tokenIndex(false)
	f.tokenIndex(true)
	f.slipIndex()
}

// randomSplices returns ascending, disjoint splices of s: at any byte
// (inside a "\r\n" too), replacing up to a few lines with lines of pool,
// or with nothing; two may meet, or insert at one offset.
func randomSplices(r *rand.Rand, s string, pool []string) []Splice {
	var sp []Splice
	at := 0
	for n := r.IntN(4); n > 0 && at <= len(s); n-- {
		at += r.IntN(len(s)-at+1) / 2
		if r.IntN(4) == 0 {
			at = len(s) // at the end
		}
		end := min(at+r.IntN(60), len(s))
		if r.IntN(3) == 0 {
			end = at // an insertion
		}
		var nw strings.Builder
		for range r.IntN(4) {
			nw.WriteString(pool[r.IntN(len(pool))])
			nw.WriteString([]string{"\n", "\r\n", ""}[r.IntN(3)])
		}
		sp = append(sp, Splice{At: at, Old: s[at:end], New: nw.String()})
		at = end + r.IntN(2) // the next may start where this one ends
	}
	return sp
}

// poison overwrites r's arrays, to their capacity, with values no index
// holds: as the next carry writes into them, which no finder carried
// before may read.
func (r *carryRoom) poison(rnd *rand.Rand) {
	scribble := func(n int, set func(i int)) {
		for i := range n {
			set(i)
		}
	}
	lines, keys, bits := r.lines[:cap(r.lines)], r.keys[:cap(r.keys)], r.keyBits[:cap(r.keyBits)]
	spaced, order, spacedOrder := r.spacedKeys[:cap(r.spacedKeys)], r.order[:cap(r.order)], r.spacedOrder[:cap(r.spacedOrder)]
	scribble(len(lines), func(i int) { lines[i] = lineSpan{rnd.Int32(), rnd.Int32(), rnd.Int32()} })
	scribble(len(keys), func(i int) { keys[i] = rnd.Uint64() })
	scribble(len(bits), func(i int) { bits[i] = rnd.Uint64() })
	scribble(len(spaced), func(i int) { spaced[i] = rnd.Uint64() })
	scribble(len(order), func(i int) { order[i] = rnd.Int32() })
	scribble(len(spacedOrder), func(i int) { spacedOrder[i] = rnd.Int32() })
	oldToNew := r.oldToNew[:cap(r.oldToNew)]
	scribble(len(oldToNew), func(i int) { oldToNew[i] = rnd.Int32() })
	for _, a := range r.maps {
		a = a[:cap(a)]
		scribble(len(a), func(i int) { a[i] = rnd.Int32() })
	}
	counts := r.counts[:cap(r.counts)]
	scribble(len(counts), func(i int) { counts[i] = uint8(rnd.Uint32()) })
}

// checkCarried fails unless the indexes of got, carried to content, are
// those of a finder made on content: the same entries, and for each
// token of a token index a run of its last lines that answers every vote
// as the fresh one does.
func checkCarried(t *testing.T, got *finder, content string) {
	t.Helper()
	want := newFinder(content)
	indexAll(want)
	if !slices.Equal(got.lineIndex(), want.lines) {
		t.Fatalf("lines %v, want %v", got.lines, want.lines)
	}
	indexAll(got)
	if !slices.Equal(got.keys, want.keys) || !slices.Equal(got.keyBits, want.keyBits) {
		t.Fatal("loose keys differ")
	}
	if !slices.Equal(got.keyPost.byKey, want.keyPost.byKey) {
		t.Fatalf("lines by loose key %v, want %v", got.keyPost.byKey, want.keyPost.byKey)
	}
	if !slices.Equal(got.spacedKeys, want.spacedKeys) || !slices.Equal(got.spacedOrder, want.spacedOrder) {
		t.Fatal("spaced keys differ")
	}
	if !slices.Equal(got.wordCount, want.wordCount) || !slices.Equal(got.triCount, want.triCount) {
		t.Fatal("token counts differ")
	}
	lines := want.lines
	line := func(k int) string { return content[lines[k].start:lines[k].end] }
	for _, ix := range []struct {
		name     string
		got      *postings
		tokensOf func(string, []uint64) []uint64
	}{
		{"words", got.wordPost, lineWords},
		{"trigrams", got.triPost, lineTrigrams},
		{"slips", got.slips, shortLineSlips},
	} {
		// Every token's lines, none left out.
		all, _ := makePostings(len(lines), len(lines)+1, func(k int, emit func(uint64)) {
			for _, h := range ix.tokensOf(line(k), nil) {
				emit(h)
			}
		})
		var buf []uint64
		for k := range lines {
			for _, h := range ix.tokensOf(line(k), buf[:0]) {
				every, kept := all.get(h), ix.got.get(h)
				if len(kept) < min(len(every), keptPostings) || !slices.Equal(kept, every[len(every)-len(kept):]) {
					t.Fatalf("%s: token of line %d (%q) keeps lines %v of %v", ix.name, k, line(k), kept, every)
				}
			}
		}
	}
}

// TestCarriedIndexes: the indexes a finder carries across random splices,
// again and again, are those made afresh on the content the splices
// leave: CRLF and LF, splices that cut a line ending in two, insertions
// at the end, every line removed; and they stay so while the next carry
// writes into the arrays of the finder carried from (poison).
func TestCarriedIndexes(t *testing.T) {
	pool := []string{"func load(p string) error {", "\treturn nil", "}", "", "\tx := y + 1", "\tlog.Print( x )",
		"// Load reads p.", "\tif err != nil {", "\t\treturn err", "  spaced  line ", "ÄÖ wörds", "abc", "betta", "x"}
	r := rand.New(rand.NewPCG(35, 1))
	for round := range 300 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pool[r.IntN(len(pool))])
			b.WriteString([]string{"\n", "\r\n"}[r.IntN(2)])
		}
		if r.IntN(3) == 0 {
			b.WriteString(pool[r.IntN(len(pool))]) // no final line ending
		}
		content := b.String()
		f := newFinder(content)
		indexAll(f)
		var room carryRoom
		for step := range 8 {
			sp := randomSplices(r, content, pool)
			content = joined(content, sp)
			f = room.carry(f, resizesOf(sp), content)
			room.poison(r)
			if step%3 == 1 {
				continue // a content no failure read: what it would not make waits
			}
			t.Run(fmt.Sprintf("%d-%d", round, step), func(t *testing.T) { checkCarried(t, f, content) })
			if t.Failed() {
				t.Fatalf("content %q, splices %q", content, sp)
			}
		}
	}
}

// TestCarriedCommonTokens: a token on more lines than an index keeps
// loses some of the lines kept, carry after carry, and the index still
// holds the last lines a vote needs, or is made again.
func TestCarriedCommonTokens(t *testing.T) {
	var b strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&b, "\treturn v%d\n", i%7)
	}
	content := b.String()
	f := newFinder(content)
	indexAll(f)
	r := rand.New(rand.NewPCG(35, 2))
	kept, made := 0, 0 // carries that kept the word index, that dropped it
	var room carryRoom
	for step := range 60 {
		// Remove a run of lines near the end, or add some; once, remove
		// the file's second half, every line of a token kept with it.
		lines := f.lineIndex()
		k := len(lines) - 1 - r.IntN(min(len(lines), 400))
		n := min(r.IntN(40)+1, len(lines)-k)
		if step == 29 {
			k = len(lines) / 2
			n = len(lines) - k
		}
		sp := []Splice{{At: int(lines[k].start), Old: content[lines[k].start:lines[k+n-1].next]}}
		if step%5 == 4 {
			sp[0].New = strings.Repeat("\treturn w\n", 30)
		}
		content = joined(content, sp)
		f = room.carry(f, resizesOf(sp), content)
		room.poison(r)
		carriedWords := f.wordPost != nil
		checkCarried(t, f, content)
		if carriedWords && f.wordsRemade == 0 {
			kept++
		} else {
			made++
		}
	}
	if kept == 0 || made == 0 {
		t.Errorf("the word index was carried %d times and made again %d times: both are not tried", kept, made)
	}
}

// landingAndFailing is 40 edits to bigFile, every other one landing (a
// function of the first 400 changed) and the rest failing (a near miss
// of one).
func landingAndFailing() []*edit.Edit {
	var es []*edit.Edit
	for i := range 40 {
		n := i * 10
		if i%2 == 0 {
			es = append(es, &edit.Edit{Op: edit.Replace, Count: 1, Format: edit.FormatSearchReplace,
				Old: fmt.Sprintf("\ty := x * %d\n", n), New: fmt.Sprintf("\ty := x * %d\n\ty++\n", n)})
		} else {
			es = append(es, &edit.Edit{Op: edit.Replace, Count: 1, Format: edit.FormatSearchReplace,
				Old: fmt.Sprintf("func f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, errTooSmal\n", n, n), New: "x\n"})
		}
	}
	return es
}

// TestFailureKeysChangedLines: a failing edit after edits that landed
// keys the lines those changed, not the file: past the first failure's
// indexes, the lines keyed for a run of blocks that alternately land and
// fail do not grow with the file.
func TestFailureKeysChangedLines(t *testing.T) {
	// keyed returns the lines keyed by the first failure, and by the 19
	// after it.
	keyed := func(fileLines int) (first, rest int) {
		es := landingAndFailing()
		d := NewDoc(bigFile(fileLines), Options{})
		d.Prepare(es)
		for i, e := range es {
			_, err := d.Replace(e)
			if i%2 == 1 != (err != nil) || err != nil && (err.Code != edit.CodeNoMatch || len(err.Candidates) == 0) {
				t.Fatalf("%d lines, edit %d: %+v", fileLines, i, err)
			}
			if i == 1 {
				first = d.keyedLines
			}
		}
		return first, d.keyedLines - first
	}
	firstSmall, small := keyed(5000)
	firstLarge, large := keyed(40000)
	if firstSmall < 5000 || firstLarge < 8*firstSmall*9/10 {
		t.Fatalf("the first failure keyed %d lines of a 5,000-line file, %d of a 40,000-line one: the count is not kept", firstSmall, firstLarge)
	}
	if small == 0 {
		t.Fatal("the failures after edits that landed keyed nothing: the count is not kept")
	}
	if large > 2*small {
		t.Errorf("19 failures between landing edits keyed %d lines of a 40,000-line file, %d of a 5,000-line one: each failure keys the file", large, small)
	}
}

// FuzzCarriedAnswers: a Doc whose indexes are carried across the splices
// of the edits that land answers every edit as one that makes them afresh
// for each content: statuses, lines, errors, their candidates and hints.
func FuzzCarriedAnswers(f *testing.F) {
	f.Add([]byte{32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43}, []byte{0, 0, 2, 0, 0, 4, 3, 5, 2, 0, 1, 4, 0, 9, 2, 0, 0, 4}, byte(0))
	f.Add([]byte{160, 161, 162, 163, 164, 165, 166, 167, 232}, []byte{2, 0, 2, 0, 0, 4, 0, 4, 2, 0, 0, 4, 4, 6, 1, 3, 5, 4}, byte(2))
	// A failure, every line removed, lines written from nothing, a failure.
	f.Add([]byte{32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43}, []byte{5, 0, 1, 2, 0, 4, 248, 0, 0, 0, 0, 3, 248, 0, 0, 0, 0, 4, 0, 5, 2, 0, 0, 4}, byte(0))
	f.Fuzz(func(t *testing.T, data, prog []byte, flags byte) {
		if len(data) > 200 || len(prog) > 6*24 {
			return
		}
		files := batchFiles(data, flags)
		checkCarriedAnswers(t, files, batchEdits(files, prog), batchOpts(flags))
	})
}

// TestCarriedAnswers is FuzzCarriedAnswers over random inputs, most edits
// near misses: each failure reads the indexes the landed edits carried.
func TestCarriedAnswers(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 3))
	after := 0
	for range 1000 {
		data := make([]byte, 4+r.IntN(60))
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		prog := make([]byte, 6*(2+r.IntN(12)))
		for i := range prog {
			prog[i] = byte(r.IntN(256))
		}
		files := batchFiles(data, byte(r.IntN(64)))
		after += checkCarriedAnswers(t, files, batchEdits(files, prog), batchOpts(byte(r.IntN(16))))
	}
	if after < 100 {
		t.Errorf("%d edits failed after one landed: the carried indexes are hardly read", after)
	}
}

// checkCarriedAnswers gives each file's Replace edits, up to the first
// other op, to a Doc and to one that makes its indexes afresh (fresh),
// and fails unless they answer alike. It returns how many edits failed
// after one had landed.
func checkCarriedAnswers(t *testing.T, files map[string]string, edits []edit.Edit, opts Options) (after int) {
	t.Helper()
	for name, content := range files {
		var es []*edit.Edit
		for k := range edits {
			e := &edits[k]
			if e.Path != name {
				continue
			}
			if e.Op != edit.Replace {
				break
			}
			es = append(es, e)
		}
		d, ref := NewDoc(content, opts), NewDoc(content, opts)
		ref.fresh = true
		d.Prepare(es)
		ref.Prepare(es)
		landed := false
		for k, e := range es {
			r, err := d.Replace(e)
			wr, werr := ref.Replace(e)
			if err != nil && landed {
				after++
			}
			landed = landed || err == nil && r.Status == edit.StatusApplied
			if !reflect.DeepEqual(r, wr) || !reflect.DeepEqual(err, werr) {
				t.Fatalf("file %q, edit %d (old %q new %q): carried\n  %+v %v\nfresh\n  %+v %v", content, k, e.Old, e.New, r, err, wr, werr)
			}
		}
		if got, want := d.Text(), ref.Text(); got != want {
			t.Fatalf("file %q: carried %q, fresh %q", content, got, want)
		}
	}
	return after
}

// TestCarriedThroughEmpty: indexes carried to an empty content and on
// to one with lines again are those made afresh; a Doc whose edits fail,
// empty the file, write it anew and fail again answers the last failure
// with its candidates.
func TestCarriedThroughEmpty(t *testing.T) {
	const file = "package a\n\nfunc f() int {\n\treturn 1\n}\n"
	for _, start := range []string{"", file} {
		content := start
		f := newFinder(content)
		indexAll(f)
		var room carryRoom
		for _, next := range []string{"", "", "package b\n\nfunc h() int {\n\treturn 3\n}\n", "", file} {
			sp := []Splice{{At: 0, Old: content, New: next}}
			content = joined(content, sp)
			f = room.carry(f, resizesOf(sp), content)
			checkCarried(t, f, content)
		}
	}

	sr := func(old, new string) *edit.Edit {
		return &edit.Edit{Op: edit.Replace, Count: 1, Format: edit.FormatSearchReplace, Old: old, New: new}
	}
	es := []*edit.Edit{
		sr("func g() int {\n\treturn 2\n}\n", "x\n"),
		sr(file, ""),
		sr("", "package b\n\nfunc h() int {\n\treturn 3\n}\n"),
		sr("func h() int {\n\treturn 4\n}\n", "y\n"),
	}
	d := NewDoc(file, Options{})
	d.Prepare(es)
	for i, e := range es {
		_, err := d.Replace(e)
		if fails := i == 0 || i == 3; fails != (err != nil) || fails && (err.Code != edit.CodeNoMatch || len(err.Candidates) == 0) {
			t.Fatalf("edit %d: %+v", i, err)
		}
	}
}
