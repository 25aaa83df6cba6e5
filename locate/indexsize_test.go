package locate

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// goLike is n lines of text shaped as Go source: functions of a few
// statements over identifiers that repeat, closing braces, blank lines
// and comments, so that common lines (`}`, `return err`) and rare ones
// both weigh in the indexes.
func goLike(n int) string {
	var b strings.Builder
	for i := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "// handle%d reads the record of item %d.\n", i, i%97)
		fmt.Fprintf(&b, "func handle%d(ctx context.Context, item%d *Item) error {\n", i, i%13)
		fmt.Fprintf(&b, "\tif err := item%d.Load(ctx, %d); err != nil {\n\t\treturn err\n\t}\n", i%13, i%41)
		fmt.Fprintf(&b, "\tvalue := compute(item%d.Field%d, \"key-%d\")\n", i%13, i%7, i)
		b.WriteString("\treturn nil\n}\n\n")
	}
	return b.String()
}

// indexBytes is what f's per-line indexes hold, in bytes: every array
// the candidate search of a failing edit reads, as built.
func indexBytes(f *finder) map[string]int {
	post := func(p *postings) int {
		return 8*cap(p.slots) + 4*cap(p.ids) + 4*cap(p.at) + cap(p.deltas) + 4*cap(p.buf) + 4*cap(p.byKey)
	}
	return map[string]int{
		"lines":   int(unsafe.Sizeof(lineSpan{})) * cap(f.lines),
		"keys":    8*cap(f.keys) + 8*cap(f.keyBits),
		"byKey":   post(f.keyPost), // its keyOf is keys
		"words":   post(f.wordPost) + cap(f.wordCount),
		"trigram": post(f.triPost) + cap(f.triCount),
		"slips":   post(f.slips),
		"spaced":  8*cap(f.spacedKeys) + 4*cap(f.spacedOrder),
		"shared":  cap(f.shared),
	}
}

// TestIndexBytesPerLine holds what the indexes of a failing edit's
// candidate search cost a line of the file: the line index at 12 bytes,
// token postings as deltas of a byte or two per line they list, and all
// of them, and all their building allocates, within a fixed number of
// bytes a line whatever the file's length.
func TestIndexBytesPerLine(t *testing.T) {
	if s := unsafe.Sizeof(lineSpan{}); s != 12 {
		t.Fatalf("a lineSpan is %d bytes, want 12", s)
	}
	for _, n := range []int{20_000, 80_000} {
		content := goLike(n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f := newFinder(content)
		lines := len(f.lineIndex())
		f.looseKeys()
		f.keyPostings()
		f.tokenIndex(false)
		f.tokenIndex(true)
		f.slipIndex()
		f.spacedIndex()
		f.counts()
		runtime.ReadMemStats(&after)
		held := indexBytes(f)
		total := 0
		for _, b := range held {
			total += b
		}
		perLine := func(b int) float64 { return float64(b) / float64(lines) }
		t.Logf("%d lines: %.1f bytes a line held, %.1f allocated; %v", lines, perLine(total), perLine(int(after.TotalAlloc-before.TotalAlloc)), held)
		if got := perLine(held["lines"]); got > 12.1 {
			t.Errorf("%d lines: the line index holds %.1f bytes a line, want 12", lines, got)
		}
		if got := perLine(held["trigram"]); got > 16 {
			t.Errorf("%d lines: the trigram postings hold %.1f bytes a line, want at most 16", lines, got)
		}
		if got := perLine(total); got > 72 {
			t.Errorf("%d lines: the indexes hold %.1f bytes a line, want at most 72", lines, got)
		}
		if got := perLine(int(after.TotalAlloc - before.TotalAlloc)); got > 140 {
			t.Errorf("%d lines: building the indexes allocated %.1f bytes a line, want at most 140", lines, got)
		}
		runtime.KeepAlive(f)
	}
}
