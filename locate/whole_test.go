package locate

import "testing"

func TestWholeOf(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       bool
	}{
		{"", "anything\n", true},
		{"a\nb\nc\nd\ne\nf\n", "a\nx\nf\n", true},                             // first and last kept
		{"a\nb\nc\nd\ne\nf\n", "b\nc\nd\ne\n", true},                          // most lines, in order
		{"a\nb\nc\nd\ne\nf\n", "c\n", false},                                  // one line of six
		{"a\nb\nc\nd\ne\nf\n", "e\nc\n", false},                               // two lines, out of order
		{"one two three four five six\n", "one two\nthree four five\n", true}, // reflowed
		{"aaaa bbbb\ncccc dddd\n", "a totally different text of the same size\n", true},
	} {
		if got := WholeOf(tc.file, tc.text); got != tc.want {
			t.Errorf("WholeOf(%q, %q) = %v, want %v", tc.file, tc.text, got, tc.want)
		}
	}
}
