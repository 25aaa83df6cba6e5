package parse

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/edapply/edapply/edit"
)

// shares reports whether s lies within src's bytes.
func shares(src, s string) bool {
	if s == "" {
		return true
	}
	a, b := uintptr(unsafe.Pointer(unsafe.StringData(src))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return b >= a && b+uintptr(len(s)) <= a+uintptr(len(src))
}

// A whole-file fence's content is the reply's own text, not a copy of it,
// unless the fence is indented and its lines lose their indent.
func TestWholeBodySharesReply(t *testing.T) {
	body := strings.Repeat("line of the file\r\n", 1000)
	for _, tc := range []struct {
		name, reply, want string
		shared            bool
	}{
		{"plain", "big.txt\n```\n" + body + "```\n", body, true},
		{"empty", "big.txt\n```\n```\n", "", true},
		{"indented in a list", "1. big.txt\n\n   ```\n   a\n    b\n   ```\n", "a\n b\n", false},
	} {
		src := tc.reply
		edits, errs := Parse(src, Options{Format: edit.FormatWhole})
		if len(errs) != 0 || len(edits) != 1 || edits[0].Op != edit.Rewrite {
			t.Fatalf("%s: edits %+v, errors %v; want one rewrite", tc.name, edits, errs.Err())
		}
		if got := edits[0].New; got != tc.want {
			t.Errorf("%s: content %q, want %q", tc.name, got[:min(len(got), 40)], tc.want[:min(len(tc.want), 40)])
		}
		if tc.shared && !shares(src, edits[0].New) {
			t.Errorf("%s: the content is a copy of the reply", tc.name)
		}
	}
}
