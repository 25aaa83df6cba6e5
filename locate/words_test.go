package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestWordsPerFormat: a ladder error about an edit in a tool call or a
// diff names that format's parts, never SEARCH or REPLACE, and a tool call
// that stands in several places is told about replace_all.
func TestWordsPerFormat(t *testing.T) {
	for _, c := range []struct {
		format, file, old, new string
		count                  int
		code                   edit.Code
		want                   []string
		wantNot                []string
	}{
		{"json", "a\nb\n", "x\n", "y\n", 1, edit.CodeNoMatch, []string{"old_string not found"}, nil},
		{"json", "a\na\n", "a\n", "y\n", 1, edit.CodeMultipleMatches, []string{"old_string found 2 times", `"replace_all": true`}, nil},
		{"json", "a\na\nb\n", "a\n", "y\n", 3, edit.CodeNoMatch, []string{"old_string found 2 times, expected 3", "change old_string."}, nil},
		{"json", "a\nb\nc\n", "a\n...\nc\n", "z\nc\n", 1, edit.CodeElision, []string{"old_string line 2 is a placeholder the new_string does not keep"}, nil},
		{"udiff", "a\nb\n", "x\n", "y\n", 1, edit.CodeNoMatch, []string{"hunk's context and - lines not found"}, nil},
		{"udiff", "a\na\n", "a\n", "y\n", 1, edit.CodeMultipleMatches, []string{"Add context lines to the hunk"}, []string{"replace_all"}},
		{"codex", "a\na\n", "a\n", "y\n", 1, edit.CodeMultipleMatches, []string{"hunk"}, []string{"replace_all"}},
		{"codex", "f() {\n\tx()\n}\n", "f() {\n\tx()\n}\n", "f() {\n\t// ...\n}\n", 1, edit.CodeElision, []string{"hunk's + lines elides code", "in the hunk's context and - lines."}, nil},
		{"search-replace", "a\nb\n", "x\n", "y\n", 1, edit.CodeNoMatch, []string{"SEARCH text not found"}, nil},
		{"search-replace", "a\na\n", "a\n", "y\n", 1, edit.CodeMultipleMatches, []string{"Add neighbouring lines to the SEARCH text"}, []string{"replace_all"}},
		{"", "a\nb\n", "x\n", "y\n", 1, edit.CodeNoMatch, []string{"SEARCH text not found"}, nil},
	} {
		e := &edit.Edit{Op: edit.Replace, Path: "f", Old: c.old, New: c.new, Format: c.format, Count: c.count}
		_, err := Locate(c.file, e, Options{})
		if err == nil || err.Code != c.code {
			t.Errorf("%q %s: Locate = %v, want %s", c.format, c.want[0], err, c.code)
			continue
		}
		text := err.Msg + " " + err.Hint
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q %s: %q does not say %q", c.format, c.code, text, w)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(text, w) {
				t.Errorf("%q %s: %q says %q", c.format, c.code, text, w)
			}
		}
		if c.format != "search-replace" && c.format != "" && (strings.Contains(text, "SEARCH") || strings.Contains(text, "REPLACE")) {
			t.Errorf("%q %s: %q names SEARCH/REPLACE", c.format, c.code, text)
		}
	}
}

// TestWordsLeaveQuotesAlone: a hint quotes the file's line and the edit's
// as they are, even when they hold the very words a format's message
// uses: only the message's own words are the format's.
func TestWordsLeaveQuotesAlone(t *testing.T) {
	file := "// the SEARCH text goes here\nx := 1\n"
	for _, c := range []struct{ format, side string }{
		{"json", "old_string"},
		{"udiff", "the hunk"},
		{"search-replace", "the SEARCH"},
	} {
		e := &edit.Edit{Op: edit.Replace, Path: "f", Old: "// the SEARCH text goes her\nx := 1\n", New: "y\n", Format: c.format, Count: 1}
		_, err := Locate(file, e, Options{})
		if err == nil || err.Code != edit.CodeNoMatch {
			t.Fatalf("%s: Locate = %v, want NO_MATCH", c.format, err)
		}
		want := "Line 1 differs: the file has `// the SEARCH text goes here`, " + c.side + " has `// the SEARCH text goes her`."
		if !strings.HasPrefix(err.Hint, want) {
			t.Errorf("%s: hint %q, want it to start %q", c.format, err.Hint, want)
		}
	}
}

// TestCreateWords: the edit that creates a file is named in the words of
// the format the failed edit was written in, a block's for no edit.
func TestCreateWords(t *testing.T) {
	for format, want := range map[string]string{
		"json": "an empty old_string", "udiff": "a hunk of only + lines", "codex": "a hunk of only + lines",
		"search-replace": "an empty SEARCH section", "whole": "an empty SEARCH section",
	} {
		if got := CreateWords(&edit.Edit{Format: format}); got != want {
			t.Errorf("CreateWords(%s) = %q, want %q", format, got, want)
		}
	}
	if got := CreateWords(nil); got != "an empty SEARCH section" {
		t.Errorf("CreateWords(nil) = %q", got)
	}
}
