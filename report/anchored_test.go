package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/edapply/edapply/internal/growth"
)

// randomVersions returns a text of lines drawn from a small alphabet, so
// that lines repeat and few are unique, and a version of it with a few
// lines changed, removed or added; either may lack its last line ending.
func randomVersions(r *rand.Rand) (old, new []byte) {
	alphabet := []string{"a", "b", "c", "}", "", "\treturn nil", "x", "y"}
	n := r.IntN(40)
	var lines []string
	for i := 0; i < n; i++ {
		if r.IntN(4) == 0 {
			lines = append(lines, fmt.Sprintf("u%d", r.IntN(60)))
		} else {
			lines = append(lines, alphabet[r.IntN(len(alphabet))])
		}
	}
	edited := append([]string(nil), lines...)
	for k := r.IntN(4); k >= 0; k-- {
		at := 0
		if len(edited) > 0 {
			at = r.IntN(len(edited) + 1)
		}
		switch r.IntN(3) {
		case 0:
			edited = append(edited[:at], append([]string{alphabet[r.IntN(len(alphabet))]}, edited[at:]...)...)
		case 1:
			if at < len(edited) {
				edited = append(edited[:at], edited[at+1:]...)
			}
		default:
			if at < len(edited) {
				edited[at] = fmt.Sprintf("v%d", r.IntN(5))
			}
		}
	}
	join := func(ls []string) []byte {
		if len(ls) == 0 {
			return nil
		}
		s := strings.Join(ls, "\n")
		if r.IntN(4) != 0 {
			s += "\n"
		}
		return []byte(s)
	}
	return join(lines), join(edited)
}

// TestAnchoredDiffIsDiff: the diff of a receipt is go-internal's, byte
// for byte, on texts whose lines repeat, with changes anywhere and last
// lines with and without their line ending.
func TestAnchoredDiffIsDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := [][2]string{
		{"", "a\n"}, {"a\n", ""}, {"a", "a\n"}, {"a\n", "a"}, {"a\nb", "a\nc"},
		{"a\na\n", "a\n"}, {"a\n", "a\na\n"}, {"x\na\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\ne\nf\ng\n"},
		{"a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n"},
		{"u\n}\n}\nv\n}\n", "u\n}\nv\n}\n}\n"},
	}
	for range 20000 {
		old, new := randomVersions(r)
		cases = append(cases, [2]string{string(old), string(new)})
	}
	for _, c := range cases {
		old, new := []byte(c[0]), []byte(c[1])
		want := diff.Diff("a/f", old, "b/f", new)
		got := anchoredDiff("a/f", old, "b/f", new)
		if !bytes.Equal(got, want) {
			t.Fatalf("diff of %q and %q:\n%s\nwant\n%s", c[0], c[1], got, want)
		}
	}
}

// TestAnchoredDiffCostFollowsChange: one line changed in the middle of a
// file costs allocations that do not grow with the file.
func TestAnchoredDiffCostFollowsChange(t *testing.T) {
	growth.SkipUnderRace(t)
	var sizes []uint64
	for _, lines := range []int{2_000, 16_000} {
		var b strings.Builder
		for i := range lines {
			fmt.Fprintf(&b, "\tline(%d)\n}\n", i%50)
		}
		old := []byte(b.String())
		// A line start near the middle.
		mid := len(old) / 2
		mid += bytes.IndexByte(old[mid:], '\n') + 1
		new := append(append(append([]byte(nil), old[:mid]...), "\tchanged()\n"...), old[mid:]...)
		var out []byte
		_, bytes := growth.Allocs(func() { out = anchoredDiff("a/f", old, "b/f", new) })
		if !strings.Contains(string(out), "+\tchanged()\n") {
			t.Fatalf("diff lacks the change:\n%s", out)
		}
		sizes = append(sizes, bytes)
	}
	if sizes[1] > 2*sizes[0]+4096 {
		t.Fatalf("bytes allocated for one changed line: %d on 2,000 lines, %d on 16,000", sizes[0], sizes[1])
	}
}
