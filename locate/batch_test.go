package locate

import (
	"fmt"
	"strings"
	"testing"
)

// TestKeyFilter holds the filter to its one promise: a line added is
// always a "maybe", whatever its length; and it must rule out most others,
// or the batch hashes every line of the file.
func TestKeyFilter(t *testing.T) {
	var k keyFilter
	var in []string
	for n := range 40 {
		line := strings.Repeat("x", n/2) + fmt.Sprint(n) + strings.Repeat("\t", n%3)
		in = append(in, line)
		if h := k.add(line); h != lineHash(line) {
			t.Fatalf("add(%q) = %x, want its lineHash %x", line, h, lineHash(line))
		}
	}
	for _, line := range in {
		if !k.may(line) {
			t.Errorf("may(%q) = false; want true", line)
		}
	}
	maybes := 0
	for i := range 10000 {
		if k.may(fmt.Sprintf("\tfield%d := compute(%d)", i, i*7)) {
			maybes++
		}
	}
	if maybes > 100 {
		t.Errorf("%d of 10000 lines not in the set were a maybe; want at most 100", maybes)
	}
}

// crlfJoined counts the "\r\n" pairs of a join without making it: every
// way a pair can straddle a boundary, or not.
func TestCRLFJoined(t *testing.T) {
	ends := []string{"", "x", "\r", "\n"}
	texts := []string{"", "\n", "\r", "\r\n", "\n\r", "a\r\nb", "\r\r\n\n", "ab"}
	for _, a := range ends {
		for _, b := range ends {
			for _, text := range texts {
				if got, want := crlfJoined(a, text, b), strings.Count(a+text+b, "\r\n"); got != want {
					t.Errorf("crlfJoined(%q, %q, %q) = %d, want %d", a, text, b, got, want)
				}
			}
		}
	}
}
