package locate

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// byKey must order lines as a sort by key and then by line number does,
// whatever the keys: spread as hashes are, repeated as a file's "}" lines
// are, or all in one bucket of its top bits.
func TestByKey(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(n int) []uint64{
		"hashes": func(n int) []uint64 {
			ks := make([]uint64, n)
			for i := range ks {
				ks[i] = r.Uint64()
			}
			return ks
		},
		"repeated": func(n int) []uint64 {
			ks := make([]uint64, n)
			for i := range ks {
				ks[i] = uint64(r.IntN(3)) * 0x9e3779b97f4a7c15
			}
			return ks
		},
		"one bucket": func(n int) []uint64 {
			ks := make([]uint64, n)
			for i := range ks {
				ks[i] = uint64(r.IntN(n + 1))
			}
			return ks
		},
	}
	for name, keys := range shapes {
		for _, n := range []int{0, 1, 2, 3, 17, 1000, 4096, 5000} {
			ks := keys(n)
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortFunc(want, func(a, b int32) int { return cmp.Or(cmp.Compare(ks[a], ks[b]), cmp.Compare(a, b)) })
			if got := byKey(ks); !slices.Equal(got, want) {
				t.Errorf("%s, %d lines: byKey's order differs from a sort by key and line", name, n)
			}
		}
	}
}
