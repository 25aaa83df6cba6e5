package locate

import "testing"

func TestLineDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"from a import b", "from a import b", 0},
		{"from a import b", "fxom a import b", 1},
		{"from a import b", "frm a import b", 1},
		{"from a import b", "from a imprt c", 2},
		{"from a import b", "fxom a imxort c", 3},
		{"abc", "abcde", 2},
		{"abc", "abcdef", 3},
		{"", "x", 1},
		{"kitten", "sitting", 3},
		{"return total", "return subtotal", 3},
	} {
		if got := lineDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("lineDistance(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := lineDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("lineDistance(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}
