package bench

import (
	"fmt"
	"testing"

	"github.com/edapply/edapply/internal/gen"
)

// BenchmarkWorstUndrifted is the drift shapes' change written as the file
// has it, tabs and all: what a drifted edit costs beyond an exact one of
// the same size is the difference between the two at each size.
func BenchmarkWorstUndrifted(b *testing.B) {
	for _, s := range worstShapes {
		if s.name != "drift-sr" && s.name != "drift-udiff" {
			continue
		}
		for _, n := range s.sizes {
			b.Run(fmt.Sprintf("%s/edapply-%d", s.name, n), func(b *testing.B) {
				fx, err := driftFixture(n, s.name == "drift-udiff", false)
				if err != nil {
					b.Fatal(err)
				}
				t := newTree(b, []gen.File{fx.file})
				want := []gen.File{{Path: fx.file.Path, Src: fx.want}}
				benchTree(b, t, want, len(fx.reply)+2*len(fx.file.Src), &meter{}, func() error {
					return applyOK(fx.reply, t, n)
				})
			})
		}
	}
}
