package growth

import (
	"strings"
	"testing"
)

// fakeT records failures without failing the test that holds it.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()                    {}
func (f *fakeT) Logf(string, ...any)        {}
func (f *fakeT) Errorf(string, ...any)      { f.failed = true }
func (f *fakeT) Fatalf(fm string, a ...any) { f.failed = true }

var sink []string

// Linear tells a cost that doubles from one that quadruples.
func TestLinear(t *testing.T) {
	linear := func(k int) {
		sink = nil
		for i := range 2000 * k {
			sink = append(sink, strings.Repeat("x", 1+i%7))
		}
	}
	quadratic := func(k int) {
		sink = nil
		for i := range 200 * k {
			sink = append(sink, strings.Repeat("x", 1+i)) // a line rebuilt from the start each time
		}
	}
	for _, c := range []struct {
		name string
		run  func(int)
		fail bool
	}{{"linear", linear, false}, {"quadratic", quadratic, true}} {
		ft := &fakeT{TB: t}
		Linear(ft, c.name, c.run)
		if ft.failed != c.fail {
			t.Errorf("%s: failed %v, want %v", c.name, ft.failed, c.fail)
		}
	}
}
