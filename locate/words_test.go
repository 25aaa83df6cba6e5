package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestInFormatWords: a ladder error about an edit in a tool call or a diff
// names that format's parts, never SEARCH or REPLACE, and a tool call that
// stands in several places is told about replace_all.
func TestInFormatWords(t *testing.T) {
	for _, c := range []struct {
		format, file, old string
		code              edit.Code
		want              []string
	}{
		{"json", "a\nb\n", "x\n", edit.CodeNoMatch, []string{"old_string"}},
		{"json", "a\na\n", "a\n", edit.CodeMultipleMatches, []string{"old_string", `"replace_all": true`}},
		{"udiff", "a\nb\n", "x\n", edit.CodeNoMatch, []string{"hunk"}},
		{"codex", "a\na\n", "a\n", edit.CodeMultipleMatches, []string{"hunk"}},
		{"search-replace", "a\nb\n", "x\n", edit.CodeNoMatch, []string{"SEARCH"}},
	} {
		e := &edit.Edit{Op: edit.Replace, Path: "f", Old: c.old, New: "y\n", Format: c.format, Count: 1}
		_, err := Locate(c.file, e, Options{})
		if err == nil || err.Code != c.code {
			t.Fatalf("%s: Locate = %v, want %s", c.format, err, c.code)
		}
		InFormatWords(err, e)
		text := err.Msg + " " + err.Hint
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %s: %q does not name %q", c.format, c.code, text, w)
			}
		}
		if c.format != "search-replace" && (strings.Contains(text, "SEARCH") || strings.Contains(text, "REPLACE")) {
			t.Errorf("%s %s: %q names SEARCH/REPLACE", c.format, c.code, text)
		}
	}
}
