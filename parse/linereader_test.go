package parse

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// lineReader stands in for the bufio.Reader go-gitdiff would make: it must
// return the same lines and errors.
func TestLineReader(t *testing.T) {
	for _, in := range []string{"", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\nx\n", "diff --git a/x b/x\nindex 1..2 100644\n"} {
		want := bufio.NewReader(strings.NewReader(in))
		got := &lineReader{in}
		for {
			w, werr := want.ReadString('\n')
			g, gerr := got.ReadString('\n')
			if g != w || gerr != werr {
				t.Fatalf("%q: ReadString = %q, %v; bufio.Reader's %q, %v", in, g, gerr, w, werr)
			}
			if werr != nil {
				break
			}
		}
	}
	b, err := io.ReadAll(&lineReader{"a\nbc"})
	if err != nil || string(b) != "a\nbc" {
		t.Fatalf("Read = %q, %v", b, err)
	}
}
