package locate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestRefusedPlaceVisits holds a one-line quote refused with
// MULTIPLE_MATCHES, whose answer counts every place of its line, to a
// number of places looked at that does not grow with the places: at 100
// and 800 edits (50 and 400 places), each refused edit looks at the
// first places the answer lists and a few more, not at every place.
func TestRefusedPlaceVisits(t *testing.T) {
	for _, s := range passShapes {
		if s.name != "ambiguous-line" && s.name != "ambiguous-line-first" {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := s.run(n)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				refused := 0
				for k := range es {
					_, err := d.Replace(&es[k])
					if s.refused(k) {
						if err == nil || err.Code != edit.CodeMultipleMatches {
							t.Fatalf("%d edits: edit %d: %v, want MULTIPLE_MATCHES", n, k, err)
						}
						refused++
					}
				}
				// The first to count them walks every place once.
				places := strings.Count(content, "\n\treturn nil\n")
				if limit := 3*maxListed*refused + places; d.visits > limit {
					t.Errorf("%d edits: %d places looked at, want at most %d (%d refused edits, %d places)", n, d.visits, limit, refused, places)
				}
			}
		})
	}
}

// tallyRun is a file where one line stands twenty times and more, at
// line starts and at the end of longer lines, and a run of edits that
// write and remove that line (by quoting it with a unique neighbour,
// adding it after a quote, or writing it in place of another), merge
// with the splices before them, and quote it alone, refused with
// MULTIPLE_MATCHES: the count the answer gives must follow every splice.
func tallyRun(r *rand.Rand) (string, []edit.Edit) {
	ks := []string{"}", "\treturn nil", "x"}
	k := ks[r.IntN(len(ks))]
	var lines []string
	for i := range 30 + r.IntN(60) {
		switch r.IntN(5) {
		case 0, 1:
			lines = append(lines, k)
		case 2:
			lines = append(lines, "\t"+k) // its place inside a line
		default:
			lines = append(lines, fmt.Sprintf("\tu%d()", i))
		}
	}
	if r.IntN(4) == 0 {
		lines = append(lines, k) // the last line
	}
	file := strings.Join(lines, "\n") + "\n"
	if r.IntN(6) == 0 {
		file = strings.TrimSuffix(file, "\n")
	}
	if r.IntN(6) == 0 {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	cur := slices.Clone(lines)
	var es []edit.Edit
	for n := range 6 + r.IntN(30) {
		if r.IntN(3) == 0 {
			e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: k + "\n", New: fmt.Sprintf("%s // q%d\n", k, n), Count: 1, Format: edit.FormatSearchReplace}
			if r.IntN(8) == 0 {
				e.Format, e.EveryKey = edit.FormatJSON, "expected_replacements"
			}
			es = append(es, e)
			continue
		}
		at := r.IntN(len(cur))
		m := min(1+r.IntN(3), len(cur)-at)
		quoted := slices.Clone(cur[at : at+m])
		var nl []string
		switch r.IntN(5) {
		case 0: // the line dropped
			nl = slices.DeleteFunc(slices.Clone(quoted), func(l string) bool { return l == k })
		case 1: // written after the quote
			nl = append(slices.Clone(quoted), k)
		case 2: // written in place of the quote's first line
			nl = append([]string{k}, quoted[1:]...)
		case 3: // written inside a longer line
			nl = append(slices.Clone(quoted), "\t"+k, fmt.Sprintf("\tw%d()", n))
		default:
			nl = append(slices.Clone(quoted), fmt.Sprintf("\tw%d()", n))
		}
		old := strings.Join(quoted, "\n") + "\n"
		nw := strings.Join(nl, "\n") + "\n"
		if len(nl) == 0 {
			nw = ""
		}
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.txt", Old: old, New: nw, Count: 1, Format: edit.FormatSearchReplace})
		cur = append(cur[:at:at], append(nl, cur[at+m:]...)...)
	}
	return file, es
}

// TestBatchTallyEquivalence holds the count of a one-line quote's
// places, kept from splice to splice, to the ladder's answers; and
// makes sure the runs reach it: refusals that count more places than
// they list.
func TestBatchTallyEquivalence(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	r := rand.New(rand.NewPCG(35, 35))
	counted := 0
	for range n {
		file, es := tallyRun(r)
		opts := Options{TrimTrailingWS: r.IntN(4) == 0}
		checkBatch(t, map[string]string{"a.txt": file}, es, opts)
		d := NewDoc(file, opts)
		d.Prepare(pointers(es))
		for k := range es {
			_, err := d.Replace(&es[k])
			if err == nil || err.Code != edit.CodeMultipleMatches || d.seg == nil || d.seg.tallies == nil {
				continue
			}
			var m int
			if _, rest, ok := strings.Cut(err.Msg, "found at least "); ok {
				if _, e := fmt.Sscanf(rest, "%d", &m); e == nil && m > maxListed {
					counted++
				}
			}
		}
	}
	if counted < n/10 {
		t.Errorf("%d refusals counted beyond the places listed, in %d runs: the runs miss the kept count", counted, n)
	}
}
