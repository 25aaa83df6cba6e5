package locate

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/growth"
)

// TestPreparedHoldsLittle: a prepared edit holds a few words beside its
// edit, not its texts split in lines (two patterns of several times the
// texts' bytes): a large reply's edits are all prepared before the first
// file is planned, so what each holds is held for every edit at once. The
// ladder splits an edit's lines again only when the edit reaches it.
func TestPreparedHoldsLittle(t *testing.T) {
	growth.SkipUnderRace(t)
	const n = 4000
	edits := make([]edit.Edit, n)
	text := 0
	for i := range edits {
		var old, new strings.Builder
		for j := range 7 {
			fmt.Fprintf(&old, "\tx%d := compute(%d, %d)\n", j, i, j)
			fmt.Fprintf(&new, "\tx%d := compute(%d, %d) + 1\n", j, i, j)
		}
		edits[i] = edit.Edit{Op: edit.Replace, Path: "f.go", Old: old.String(), New: new.String(), Count: 1}
		text += old.Len() + new.Len()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ps := make([]Prepared, n)
	for i := range edits {
		ps[i] = Prepare(&edits[i])
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	for i := range ps {
		if !ps[i].Batchable() {
			t.Fatalf("edit %d is not batchable: the test measures what a batch's edit holds", i)
		}
	}
	runtime.KeepAlive(ps)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d prepared edits of %d bytes of text hold %d bytes, %.1f per edit", n, text, held, float64(held)/n)
	if held > 48*n {
		t.Errorf("%d prepared edits hold %d bytes (%.0f each, their texts %d in all): more than a few words each", n, held, float64(held)/n, text)
	}
}
