package syntax

import "testing"

func TestCountLines(t *testing.T) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "a\r\nb\r\n", "a\n\nb"} {
		if got, want := CountLines(s), len(SplitAfter(s)); got != want {
			t.Errorf("CountLines(%q) = %d, want %d", s, got, want)
		}
	}
}
