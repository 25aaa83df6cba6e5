package locate

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestLadderFinderFollowsText: the ladder's finder, kept across edits,
// always reads the text the edit sees: edits that change nothing (already
// applied, or failed) share one, and an edit that changes the text gets a
// finder of the new text. Run on a reply sent twice: its second pass is
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
			if changed && d.fin != nil {
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
		got, want := f.votes(p, from, nil), f.votes(p, from, lineWords)
		if !maps.Equal(got, want) {
			t.Fatalf("pattern %q from line %d: votes from the index %v, from each line's words %v", p.text, from, got, want)
		}
		words, at := f.lineWordIndex()
		for k, l := range f.lineIndex() {
			if w := lineWords(f.content[l.start:l.end], nil); !slices.Equal(words[at[k]:at[k+1]], w) {
				t.Fatalf("line %d's indexed words %v, its words %v", k, words[at[k]:at[k+1]], w)
			}
		}
	}
}
