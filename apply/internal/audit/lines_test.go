package audit

import (
	"slices"
	"strings"
	"testing"
)

// Lines the ladder's rungs may take for one another, and lines none
// does: looseEqual must answer as comparing their loose forms does.
var loosePairs = []struct {
	a, b string
	same bool
}{
	{"\treturn x", "    return x", true},
	{"a  =  b", "a = b", true},
	{"a = b", "a = c", false},
	{`say("hi")`, "say('hi')", true},
	{"say(“hi”)", `say("hi")`, true},
	{"x -- y", "x - y", true},
	{"x — y", "x - y", true},
	{"x -–- y", "x - y", true},
	{"x - - y", "x - y", true}, // blanks do not end a run of dashes
	{"wait…", "wait...", true},
	{"wait…", "wait..", false},
	{"a\u00a0b", "ab", true},
	{"caf\xe9", "caf\xe9", true},
	{"caf\xe9", "café", false},
	{"naïve", "naive", false},
	{"", "   \t", true},
	{"", "x", false},
	{"ab", "a", false},
}

func TestLooseEqual(t *testing.T) {
	for _, p := range loosePairs {
		if got := looseEqual(p.a, p.b); got != p.same || got != (loose(p.a) == loose(p.b)) {
			t.Errorf("looseEqual(%q, %q) = %v, want %v (loose forms %q, %q)", p.a, p.b, got, p.same, loose(p.a), loose(p.b))
		}
		if got := looseEqual(p.b, p.a); got != p.same {
			t.Errorf("looseEqual(%q, %q) = %v, want %v", p.b, p.a, got, p.same)
		}
	}
}

// FuzzLooseEqual holds looseEqual to loose: for any two lines, and for a
// line and the same line with its blanks, quotes and dashes respelled.
func FuzzLooseEqual(f *testing.F) {
	for _, p := range loosePairs {
		f.Add(p.a, p.b)
	}
	respell := strings.NewReplacer("\t", "    ", " ", "", "\"", "'", "-", "—", "...", "…", "'", "’")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, q := range [][2]string{{a, b}, {a, respell.Replace(a)}, {b, respell.Replace(a)}} {
			if got, want := looseEqual(q[0], q[1]), loose(q[0]) == loose(q[1]); got != want {
				t.Fatalf("looseEqual(%q, %q) = %v, but their loose forms are %q and %q", q[0], q[1], got, loose(q[0]), loose(q[1]))
			}
		}
	})
}

// textLines is the texts of splitLines' lines, whatever ends them.
func TestTextLines(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\r\n", "a\r", "\n", "\r\n\n", "a\nb\r", "x\r\r\n", "a\n\nb", "\ta\r\n  b\n"} {
		if got, want := textLines(s), texts(splitLines(s)); !slices.Equal(got, want) {
			t.Errorf("textLines(%q) = %q, want %q", s, got, want)
		}
	}
}
