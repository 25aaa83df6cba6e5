package edit

import (
	"slices"
	"testing"
)

func TestKept(t *testing.T) {
	tests := map[string]struct {
		marks    string
		old, new int
		want     []int
	}{
		"none":        {"", 2, 1, nil},
		"secondKept":  {"- ", 2, 1, []int{1}},
		"firstKept":   {" -", 2, 1, []int{0}},
		"addAndKeep":  {" +-+ ", 3, 4, []int{0, -1, -1, 2}},
		"wrongCounts": {" -", 3, 1, nil},
		"unknownMark": {" ?", 1, 1, nil},
		"onlyAdded":   {"++", 0, 2, []int{-1, -1}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			e := Edit{Marks: tt.marks}
			if got := e.Kept(tt.old, tt.new); !slices.Equal(got, tt.want) {
				t.Errorf("Kept(%d, %d) with marks %q = %v, want %v", tt.old, tt.new, tt.marks, got, tt.want)
			}
		})
	}
}
