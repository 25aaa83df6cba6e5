package locate

import (
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// refusedLineRuns are runs of edits each followed by a one-line quote
// of "\treturn nil", which stands in every function and inside a deeper
// line's indentation, refused with MULTIPLE_MATCHES: the blocks before
// the quotes rename a function (passShapes' ambiguous-line and
// ambiguous-line-first, and hinted, whose quotes' line hints tie
// between two places), write a function of their own that holds the
// line (the places the splices make grow with the run), or change the
// line in the functions in order (the places the splices took grow).
var refusedLineRuns = map[string]func(n int) (string, []edit.Edit){
	"written": writtenRun,
	"written-hinted": func(n int) (string, []edit.Edit) {
		content, es := writtenRun(n)
		for k := 1; k < len(es); k += 2 {
			es[k].Format, es[k].Hint = edit.FormatUDiff, 1+strings.Count(content, "\n")*3 // past the file: nearest its end
		}
		return content, es
	},
	"hinted": func(n int) (string, []edit.Edit) {
		content, es := returnNilRun(n, func(i int) edit.Edit {
			e := renameFunc(i)
			e.Format = edit.FormatUDiff
			return e
		})
		for k := 1; k < len(es)-2; k += 2 { // the last function is followed by shorter ones
			// Three lines after the function's "\treturn nil", as far
			// from it as from the next function's: a tie.
			es[k].Format, es[k].Hint = edit.FormatUDiff, 10+6*(k/2)
		}
		return content, es
	},
	"span": func(n int) (string, []edit.Edit) {
		return returnNilRunOf(n, "func z() {\n\t// z\treturn nil\n}\n\n", "\treturn nil\n}\n", renameFunc)
	},
	"span-hinted": func(n int) (string, []edit.Edit) {
		content, es := returnNilRunOf(n, "", "\treturn nil\n}\n", func(i int) edit.Edit {
			e := renameFunc(i)
			e.Format = edit.FormatUDiff
			return e
		})
		for k := 1; k < len(es)-2; k += 2 {
			es[k].Format, es[k].Hint = edit.FormatUDiff, 10+6*(k/2) // a tie, as in hinted
		}
		return content, es
	},
	"touched": func(n int) (string, []edit.Edit) {
		return returnNilRun(n, func(i int) edit.Edit {
			old := fmt.Sprintf("func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n", i)
			return edit.Edit{Op: edit.Replace, Path: "a.go", Old: old, New: strings.TrimSuffix(old, "\treturn nil\n") + "\treturn err\n\t// e\n",
				Count: 1, Format: edit.FormatSearchReplace}
		})
	},
}

// writtenRun is returnNilRun whose edits write a function of their own,
// which holds "\treturn nil", before the i-th.
func writtenRun(n int) (string, []edit.Edit) {
	return returnNilRun(n, func(i int) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d(x bool) error {\n", i),
			New: fmt.Sprintf("func g%d() error {\n\treturn nil\n}\n\nfunc f%d(x bool) error {\n", i, i), Count: 1, Format: edit.FormatSearchReplace}
	})
}

// renameFunc is a block that marks the i-th function of returnNilRun.
func renameFunc(i int) edit.Edit {
	return edit.Edit{Op: edit.Replace, Path: "a.go", Old: fmt.Sprintf("func f%d(x bool) error {\n", i),
		New: fmt.Sprintf("func f%d(x bool) error { // e\n", i), Count: 1, Format: edit.FormatSearchReplace}
}

// returnNilRun is n/2 functions and n edits: edit(i) to the i-th, each
// followed by a one-line quote of "\treturn nil"; and functions after
// them, whose "\treturn nil" no edit changes.
func returnNilRun(n int, edit1 func(i int) edit.Edit) (string, []edit.Edit) {
	return returnNilRunOf(n, "", "\treturn nil\n", edit1)
}

// returnNilRunOf is returnNilRun with head after the package clause,
// and quote, which starts with "\treturn nil", quoted.
func returnNilRunOf(n int, head, quote string, edit1 func(i int) edit.Edit) (string, []edit.Edit) {
	var b strings.Builder
	var es []edit.Edit
	b.WriteString("package a\n\n" + head)
	for i := range n / 2 {
		fmt.Fprintf(&b, "func f%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
		es = append(es, edit1(i), edit.Edit{Op: edit.Replace, Path: "a.go", Old: quote, New: strings.Replace(quote, "nil", "err", 1),
			Count: 1, Format: edit.FormatSearchReplace})
	}
	for i := range maxListed + 5 { // places no edit takes
		fmt.Fprintf(&b, "func h%d() error {\n\treturn nil\n}\n", i)
	}
	return b.String(), es
}

// TestRefusedPlaceVisits holds a one-line quote refused with
// MULTIPLE_MATCHES, whose answer counts every place of its line, to a
// number of places looked at that does not grow with the places: at 100
// and 800 edits (50 and 400 functions), each refused edit looks at the
// first places the answer lists, of orig's lines and of the lines
// splices made, and a few more, not at every place;
// beyond that, each place is looked at a few times in the whole run
// (the first count, and once when a splice took its line).
func TestRefusedPlaceVisits(t *testing.T) {
	runs := maps.Clone(refusedLineRuns)
	for _, s := range passShapes {
		if s.name == "ambiguous-line" || s.name == "ambiguous-line-first" {
			runs[s.name] = s.run
		}
	}
	for _, name := range slices.Sorted(maps.Keys(runs)) {
		run := runs[name]
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := run(n)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				refused := 0
				for k := range es {
					_, err := d.Replace(&es[k])
					if k%2 == 0 {
						if err != nil {
							t.Fatalf("%d edits: edit %d: %v, want applied", n, k, err)
						}
						continue
					}
					if err == nil || err.Code != edit.CodeMultipleMatches {
						t.Fatalf("%d edits: edit %d: %v, want MULTIPLE_MATCHES", n, k, err)
					}
					refused++
				}
				places := strings.Count(content, "return nil\n")
				if limit := 4*maxListed*refused + 3*places; d.visits > limit {
					t.Errorf("%d edits: %d places looked at, want at most %d (%d refused edits, %d places)", n, d.visits, limit, refused, places)
				}
			}
			content, es := run(60)
			checkBatch(t, map[string]string{"a.go": content}, es, Options{})
		})
	}
}

// tallyRun is a file where a quote (one line, or with span set two
// lines, most often ones no two of whose places overlap) stands twenty
// times and more, at line starts and at the end of longer lines, and a
// run of edits that write and remove it or its first line (by quoting
// them with a unique neighbour, adding them after a quote, or writing
// them in place of another), merge with the splices before them, and
// quote it alone, refused with MULTIPLE_MATCHES: the count the answer
// gives must follow every splice.
func tallyRun(r *rand.Rand, span bool) (string, []edit.Edit) {
	ks := []string{"}", "\treturn nil", "x"}
	k := ks[r.IntN(len(ks))]
	unit := []string{k}
	if span {
		seconds := []string{"}", "\treturn nil", "y", k} // k twice: its places may overlap
		if unit = append(unit, seconds[r.IntN(len(seconds))]); unit[1] == k && r.IntN(2) == 0 {
			unit[1] = "z"
		}
	}
	var lines []string
	for i := range (30 + r.IntN(60)) * len(unit) {
		switch r.IntN(6) {
		case 0, 1:
			lines = append(lines, unit...)
		case 2:
			lines = append(append(lines, "\t"+k), unit[1:]...) // its place inside a line
		case 3:
			lines = append(lines, k) // a span's first line alone
		default:
			lines = append(lines, fmt.Sprintf("\tu%d()", i))
		}
	}
	if r.IntN(4) == 0 {
		lines = append(lines, unit...) // the last lines
	}
	file := strings.Join(lines, "\n") + "\n"
	if r.IntN(6) == 0 {
		file = strings.TrimSuffix(file, "\n")
	}
	if r.IntN(6) == 0 {
		file = strings.ReplaceAll(file, "\n", "\r\n")
	}
	quote := strings.Join(unit, "\n") + "\n"
	cur := slices.Clone(lines)
	var es []edit.Edit
	for n := range 6 + r.IntN(30) {
		if r.IntN(3) == 0 {
			e := edit.Edit{Op: edit.Replace, Path: "a.txt", Old: quote, New: fmt.Sprintf("%s // q%d\n", k, n) + quote[len(k)+1:], Count: 1, Format: edit.FormatSearchReplace}
			switch r.IntN(8) {
			case 0:
				e.Format, e.EveryKey = edit.FormatJSON, "expected_replacements"
			case 1, 2, 3:
				// A line hint, most often a tie between two places or
				// none near enough; the answer lists the places
				// nearest it.
				e.Format, e.Hint = edit.FormatUDiff, 1+r.IntN(len(cur)+4)
			}
			es = append(es, e)
			continue
		}
		at := r.IntN(len(cur))
		m := min(1+r.IntN(3), len(cur)-at)
		if span && r.IntN(3) == 0 {
			// From a place's second line, which a place before the
			// edit's lines reaches into, to a line of its own.
			for i := range cur {
				if c := (at + i) % len(cur); c > 0 && cur[c-1] == k && cur[c] == unit[1] {
					if u := slices.IndexFunc(cur[c:], func(l string) bool { return strings.HasPrefix(l, "\tu") || strings.HasPrefix(l, "\tw") }); u >= 0 {
						at, m = c, u+1
						break
					}
				}
			}
		}
		quoted := slices.Clone(cur[at : at+m])
		var nl []string
		switch r.IntN(6) {
		case 0: // the line dropped
			nl = slices.DeleteFunc(slices.Clone(quoted), func(l string) bool { return l == k })
		case 1: // written after the quote
			nl = append(slices.Clone(quoted), unit...)
		case 2: // written in place of the quote's first line
			nl = append(slices.Clone(unit), quoted[1:]...)
		case 3: // written inside a longer line
			nl = append(slices.Clone(quoted), "\t"+k, fmt.Sprintf("\tw%d()", n))
		case 4: // its first line written after the quote
			nl = append(slices.Clone(quoted), k)
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

// TestBatchTallyEquivalence holds the count of a quote's places, one
// line or a span of them, kept from splice to splice, to the ladder's
// answers; and makes sure the runs reach it: refusals that count more
// places than they list.
func TestBatchTallyEquivalence(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	for _, span := range []bool{false, true} {
		t.Run(fmt.Sprintf("span=%v", span), func(t *testing.T) {
			r := rand.New(rand.NewPCG(35, 35))
			counted, hinted := 0, 0
			for range n {
				file, es := tallyRun(r, span)
				opts := Options{TrimTrailingWS: r.IntN(4) == 0}
				checkBatch(t, map[string]string{"a.txt": file}, es, opts)
				d := NewDoc(file, opts)
				d.Prepare(pointers(es))
				for k := range es {
					_, err := d.Replace(&es[k])
					if d.seg != nil {
						for _, sp := range d.seg.spans {
							if want := placesAtLineStarts(d.seg.read(0, d.seg.size()), sp.needle); sp.n != want {
								t.Fatalf("after edit %d: %d places of %q kept, want %d", k, sp.n, sp.needle, want)
							}
						}
					}
					if err == nil || err.Code != edit.CodeMultipleMatches || d.seg == nil || d.seg.tallies == nil && d.seg.spans == nil {
						continue
					}
					var m int
					if _, rest, ok := strings.Cut(err.Msg, "found at least "); ok {
						if _, e := fmt.Sscanf(rest, "%d", &m); e == nil && m > maxListed {
							counted++
						}
					}
					if _, rest, ok := strings.Cut(err.Msg, " found "); ok && es[k].Hint > 0 {
						if _, e := fmt.Sscanf(rest, "%d", &m); e == nil && m > maxListed {
							hinted++
						}
					}
				}
			}
			if counted < n/10 {
				t.Errorf("%d refusals counted beyond the places listed, in %d runs: the runs miss the kept count", counted, n)
			}
			if hinted < n/10 {
				t.Errorf("%d refusals with a line hint counted beyond the places listed, in %d runs: the runs miss the places nearest a hint", hinted, n)
			}
		})
	}
}

// TestTallyChainCost holds the upkeep of a kept count to the lines the
// splices change: a one-line quote refused with its places counted, then
// a chain of blocks each merging with the splice the ones before it
// made, in file order or bottom-up; at 100 and 800 blocks, the lines
// the count's upkeep reads stay within a few per block, where each merge
// read all of the merged splice's.
func TestTallyChainCost(t *testing.T) {
	for _, s := range chainShapes {
		if !s.one {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := tallyChainRun(s.run, n)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				for k := range es {
					_, err := d.Replace(&es[k])
					if k == 0 {
						if err == nil || err.Code != edit.CodeMultipleMatches || d.seg == nil || d.seg.tallies == nil {
							t.Fatalf("%d blocks: the quote: %v, want MULTIPLE_MATCHES with its places counted", n, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%d blocks: edit %d: %v", n, k, err)
					}
				}
				if d.seg == nil {
					t.Fatalf("%d blocks: the run left the batch", n)
				}
				if limit := 16 * len(es); d.seg.tallyLines > limit {
					t.Errorf("%d blocks: the count's upkeep read %d lines, want at most %d", n, d.seg.tallyLines, limit)
				}
			}
			content, es := tallyChainRun(s.run, 40)
			checkBatch(t, map[string]string{"a.go": content}, es, Options{})
		})
	}
}

// tallyChainRun is run's chain after maxListed+5 functions that hold
// "\treturn nil" at a line start and inside a deeper line, led by a
// one-line quote of it.
func tallyChainRun(run func(n int) (string, []edit.Edit), n int) (string, []edit.Edit) {
	content, chain := run(n)
	var b strings.Builder
	for i := range maxListed + 5 {
		fmt.Fprintf(&b, "func r%d(x bool) error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn nil\n}\n", i)
	}
	head, nl := b.String(), "\n"
	if strings.Contains(content, "\r\n") {
		head, nl = strings.ReplaceAll(head, "\n", "\r\n"), "\r\n"
	}
	quote := edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil" + nl, New: "\treturn err" + nl, Count: 1, Format: edit.FormatSearchReplace}
	return head + content, append([]edit.Edit{quote}, chain...)
}

// placesAtLineStarts counts the line starts of text where needle
// stands.
func placesAtLineStarts(text, needle string) int {
	n := 0
	for s := 0; ; {
		if strings.HasPrefix(text[s:], needle) {
			n++
		}
		k := strings.IndexByte(text[s:], '\n')
		if k < 0 {
			return n
		}
		s += k + 1
	}
}

// writtenFewRun is n/2 edits that each write a function holding
// "\treturn nil" before one that has none, each followed by a one-line
// quote of it, refused with MULTIPLE_MATCHES, in a file where the line
// stands three times: every answer reads the lines the splices made.
// With merge "merging", each edit quotes from the line the one before it
// wrote, so that its splice is merged into the one before; with
// "rewriting", from that one's "\treturn nil", which it writes again,
// so that the merge takes every line the key had there.
func writtenFewRun(n int, merge string) (string, []edit.Edit) {
	var b strings.Builder
	b.WriteString("package a\n\n")
	for i := range 3 {
		fmt.Fprintf(&b, "func h%d() error {\n\treturn nil\n}\n", i)
	}
	var es []edit.Edit
	for i := range n / 2 {
		fmt.Fprintf(&b, "func f%d() {\n\tlog(%d)\n}\n", i, i)
		old, head := fmt.Sprintf("func f%d() {\n", i), ""
		if i > 0 && merge == "merging" {
			head = fmt.Sprintf("func f%d() {\n\tlog(%d)\n}\n", i-1, i-1)
		} else if i > 0 && merge == "rewriting" {
			head = fmt.Sprintf("\treturn nil\n}\n\nfunc f%d() {\n\tlog(%d)\n}\n", i-1, i-1)
		}
		es = append(es, edit.Edit{Op: edit.Replace, Path: "a.go", Old: head + old,
			New: head + fmt.Sprintf("func g%d() error {\n\treturn nil\n}\n\nfunc f%d() {\n", i, i), Count: 1, Format: edit.FormatSearchReplace},
			edit.Edit{Op: edit.Replace, Path: "a.go", Old: "\treturn nil\n", New: "\treturn err\n", Count: 1, Format: edit.FormatSearchReplace})
	}
	return b.String(), es
}

// TestZoneSweepsBounded holds the lines the answers read beyond those
// they list, to pass over the lines gone and to sort the lines the
// splices made, to a few per line made, in runs that merge nothing and
// that merge every edit with the one before it (writtenFewRun), and
// with the refusals hinted near the end, whose places are walked
// towards the start: one sweep of every line per refusal read n²/8
// lines at n edits.
func TestZoneSweepsBounded(t *testing.T) {
	run := func(n int, merge string) (string, []edit.Edit) {
		merge, hinted := strings.CutSuffix(merge, "-hinted")
		content, es := writtenFewRun(n, merge)
		if hinted {
			for k := 1; k < len(es); k += 2 {
				// Past the file: its places nearest the end, walked
				// towards the start.
				es[k].Format, es[k].Hint = edit.FormatUDiff, 3*strings.Count(content, "\n")
			}
		}
		return content, es
	}
	for _, merge := range []string{"apart", "merging", "rewriting", "rewriting-hinted"} {
		t.Run(merge, func(t *testing.T) {
			for _, n := range []int{100, 800} {
				content, es := run(n, merge)
				d := NewDoc(content, Options{})
				d.Prepare(pointers(es))
				for k := range es {
					if _, err := d.Replace(&es[k]); (k%2 == 1) != (err != nil && err.Code == edit.CodeMultipleMatches) {
						t.Fatalf("%d edits: edit %d: %v", n, k, err)
					}
				}
				if d.seg == nil || d.passes > 2 {
					t.Fatalf("%d edits: %d passes, the segment %v: the run leaves the batch", n, d.passes, d.seg != nil)
				}
				if read, limit := d.seg.zoneSkips+d.seg.zoneSorts, 4*n; read > limit {
					t.Errorf("%d edits: %d zone lines read past or sorted, want at most %d", n, read, limit)
				}
			}
			content, es := run(60, merge)
			checkBatch(t, map[string]string{"a.go": content}, es, Options{})
		})
	}
}

// TestZoneRunsOutOfOrder holds refused one-line quotes whose places
// stand on lines written out of file order (writtenRun's pairs
// bottom-up, and in a random order) to the first places the answer
// lists and a few more, as TestRefusedPlaceVisits does in file order:
// not every line written before it, which is what one unsorted list of
// them cost (97,826 places looked at for 800 edits bottom-up, 1,351,226
// for 3,200), nor the first places of each of the lines' sorted runs
// (166,614 for 3,200); and keeping the runs sorted to reading each line
// a logarithmic number of times.
func TestZoneRunsOutOfOrder(t *testing.T) {
	for _, order := range []string{"reversed", "random"} {
		t.Run(order, func(t *testing.T) {
			for _, n := range []int{800, 3200} {
				content, es := writtenRun(n)
				pairs := make([]int, len(es)/2)
				for i := range pairs {
					pairs[i] = i
				}
				if order == "reversed" {
					slices.Reverse(pairs)
				} else {
					rand.New(rand.NewPCG(uint64(n), 7)).Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
				}
				var run []edit.Edit
				for _, p := range pairs {
					run = append(run, es[2*p], es[2*p+1])
				}
				d := NewDoc(content, Options{})
				d.Prepare(pointers(run))
				for k := range run {
					_, err := d.Replace(&run[k])
					if want := k%2 == 1; (err != nil && err.Code == edit.CodeMultipleMatches) != want {
						t.Fatalf("%d edits: edit %d: %v, want refused %v", n, k, err, want)
					}
				}
				refused, places := n/2, strings.Count(content, "return nil\n")+n/2
				if limit := 4*maxListed*refused + 3*places; d.visits > limit {
					t.Errorf("%d edits: %d places looked at, want at most %d (%d refused edits)", n, d.visits, limit, refused)
				}
				// Each line written is sorted into a run once and merged
				// a logarithmic number of times; each answer reads a few
				// more at the runs' ends.
				if written := n / 2; d.seg.zoneSorts > written*(bits.Len(uint(written))+4)+4*n {
					t.Errorf("%d edits: sorting the runs read %d zone lines, want at most %d", n, d.seg.zoneSorts, written*(bits.Len(uint(written))+4)+4*n)
				}
			}
		})
	}
}
