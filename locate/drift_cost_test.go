package locate

import (
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/internal/growth"

	"github.com/edapply/edapply/edit"
)

// TestDriftedEditCost holds an edit whose tabs came back as four spaces
// to a few allocations more than the same edit sent as the file has it:
// its patterns (their lines not judged one by one: foundPattern), its
// places' comparison at the indent rung and its write in the file's tabs,
// not a copy or an index of the file per edit.
func TestDriftedEditCost(t *testing.T) {
	growth.SkipUnderRace(t)
	const n = 800
	content, drifted := passShapes[0].run(n)
	exact := make([]edit.Edit, len(drifted))
	for i, e := range drifted {
		e.Old, e.New = strings.ReplaceAll(e.Old, "    ", "\t"), strings.ReplaceAll(e.New, "    ", "\t")
		exact[i] = e
	}
	// Allocations and bytes an edit, a Doc's whole run of n edits counted.
	perEdit := func(es []edit.Edit, want edit.Strategy) (allocs, bytes float64) {
		ps := pointers(es)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		allocs = testing.AllocsPerRun(1, func() {
			d := NewDoc(content, Options{})
			d.Prepare(ps)
			for _, e := range ps {
				if r, err := d.Replace(e); err != nil || r.Strategy != want {
					t.Fatalf("%+v %v, want applied by %s", r, err, want)
				}
			}
		})
		runtime.ReadMemStats(&after)
		return allocs / n, float64(after.TotalAlloc-before.TotalAlloc) / 2 / n // AllocsPerRun runs it twice
	}
	da, db := perEdit(drifted, edit.StrategyIndent)
	xa, xb := perEdit(exact, edit.StrategyExact)
	t.Logf("an edit allocates %.1f times and %.0f bytes drifted, %.1f times and %.0f bytes exact", da, db, xa, xb)
	if da > xa+16 {
		t.Errorf("a drifted edit allocates %.1f times, an exact one %.1f: want at most 16 more", da, xa)
	}
	texts := 0
	for _, e := range drifted {
		texts += len(e.Old) + len(e.New)
	}
	// A copy of the file, or an index of its lines, per edit would be far
	// more: the file is hundreds of times an edit's texts.
	if per := float64(texts) / n; db > xb+24*per {
		t.Errorf("a drifted edit allocates %.0f bytes, an exact one %.0f: want at most 24 times its texts (%.0f bytes) more", db, xb, per)
	}
}
