package locate

import (
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// TestWordsPerFormat: a ladder error about an edit in a tool call or a
// diff names that format's parts, never SEARCH or REPLACE, and a tool call
// that stands in several places is told how its own tool asks for every
// occurrence, or nothing when its tool cannot.
func TestWordsPerFormat(t *testing.T) {
	for _, c := range []struct {
		format         edit.Format
		file, old, new string
		count          int
		every          string
		code           edit.Code
		want           []string
		wantNot        []string
	}{
		{edit.FormatJSON, "a\nb\n", "x\n", "y\n", 1, "", edit.CodeNoMatch, []string{"old_string not found"}, nil},
		{edit.FormatJSON, "a\na\n", "a\n", "y\n", 1, "replace_all", edit.CodeMultipleMatches, []string{"old_string found 2 times", `"replace_all": true`}, nil},
		{edit.FormatJSON, "a\na\n", "a\n", "y\n", 1, "replaceAll", edit.CodeMultipleMatches, []string{`set "replaceAll": true`}, []string{"replace_all"}},
		{edit.FormatJSON, "a\na\n", "a\n", "y\n", 1, "allow_multiple", edit.CodeMultipleMatches, []string{`set "allow_multiple": true`}, []string{"replace_all"}},
		{edit.FormatJSON, "a\na\na\n", "a\n", "y\n", 1, "expected_replacements", edit.CodeMultipleMatches, []string{`set "expected_replacements": 3.`}, []string{"replace_all"}},
		{edit.FormatJSON, "a\na\n", "a\n", "y\n", 1, "", edit.CodeMultipleMatches, []string{"Add neighbouring lines to old_string"}, []string{"every occurrence"}},
		{edit.FormatJSON, "a\na\nb\n", "a\n", "y\n", 3, "", edit.CodeNoMatch, []string{"old_string found 2 times, expected 3", "change old_string."}, nil},
		{edit.FormatJSON, "a\nb\nc\n", "a\n...\nc\n", "z\nc\n", 1, "", edit.CodeElision, []string{"old_string line 2 is a placeholder the new_string does not keep"}, nil},
		{edit.FormatUDiff, "a\nb\n", "x\n", "y\n", 1, "", edit.CodeNoMatch, []string{"hunk's context and - lines not found"}, nil},
		{edit.FormatUDiff, "a\na\n", "a\n", "y\n", 1, "", edit.CodeMultipleMatches, []string{"Add context lines to the hunk"}, []string{"replace_all"}},
		{edit.FormatCodex, "a\na\n", "a\n", "y\n", 1, "", edit.CodeMultipleMatches, []string{"hunk"}, []string{"replace_all"}},
		{edit.FormatCodex, "f() {\n\tx()\n}\n", "f() {\n\tx()\n}\n", "f() {\n\t// ...\n}\n", 1, "", edit.CodeElision, []string{"hunk's + lines elides code", "in the hunk's context and - lines."}, nil},
		{edit.FormatCodex, "package a\n\nfunc f() {}\n", "", "package a\n\nimport \"x\"\n\nfunc f() {}\n", 1, "", edit.CodeFileExists, []string{"Send hunks whose context and - lines"}, nil},
		{edit.FormatSearchReplace, "package a\n\nfunc f() {}\n", "", "package a\n\nimport \"x\"\n\nfunc f() {}\n", 1, "", edit.CodeFileExists, []string{"Send SEARCH/REPLACE blocks"}, nil},
		{edit.FormatSearchReplace, "a\nb\n", "x\n", "y\n", 1, "", edit.CodeNoMatch, []string{"SEARCH text not found"}, nil},
		{edit.FormatSearchReplace, "a\na\n", "a\n", "y\n", 1, "", edit.CodeMultipleMatches, []string{"Add neighbouring lines to the SEARCH text"}, []string{"replace_all"}},
		{edit.FormatAuto, "a\nb\n", "x\n", "y\n", 1, "", edit.CodeNoMatch, []string{"SEARCH text not found"}, nil},
	} {
		e := &edit.Edit{Op: edit.Replace, Path: "f", Old: c.old, New: c.new, Format: c.format, Count: c.count, EveryKey: c.every}
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
		if c.format != edit.FormatSearchReplace && c.format != edit.FormatAuto && (strings.Contains(text, "SEARCH") || strings.Contains(text, "REPLACE")) {
			t.Errorf("%q %s: %q names SEARCH/REPLACE", c.format, c.code, text)
		}
	}
}

// TestWordsLeaveQuotesAlone: a hint quotes the file's line and the edit's
// as they are, even when they hold the very words a format's message
// uses: only the message's own words are the format's.
func TestWordsLeaveQuotesAlone(t *testing.T) {
	file := "// the SEARCH text goes here\nx := 1\n"
	for _, c := range []struct {
		format edit.Format
		side   string
	}{
		{edit.FormatJSON, "old_string"},
		{edit.FormatUDiff, "the hunk"},
		{edit.FormatSearchReplace, "the SEARCH"},
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
	for format, want := range map[edit.Format]string{
		edit.FormatJSON: "an empty old_string", edit.FormatUDiff: "a hunk of only + lines", edit.FormatCodex: "a hunk of only + lines",
		edit.FormatSearchReplace: "an empty SEARCH section", edit.FormatWhole: "an empty SEARCH section",
	} {
		if got := CreateWords(&edit.Edit{Format: format}); got != want {
			t.Errorf("CreateWords(%s) = %q, want %q", format, got, want)
		}
	}
	if got := CreateWords(nil); got != "an empty SEARCH section" {
		t.Errorf("CreateWords(nil) = %q", got)
	}
}

// TestToolArgsWords: an edit that records its tool's arguments is told
// how to create or change a file in those arguments alone, never in the
// words of the other tools its format covers.
func TestToolArgsWords(t *testing.T) {
	for _, c := range []struct {
		args      edit.ToolArgs
		create    string
		exists    []string
		existsNot []string
	}{
		{edit.ToolArgs{Old: "old_string"}, "an empty old_string",
			[]string{"as old_string", "an empty old_string creates a new file only"}, []string{"content", "str_replace", "old_str,"}},
		{edit.ToolArgs{Old: "oldText", Whole: "content"}, "an empty oldText",
			[]string{"as oldText", `send it as "content" with no oldText`}, []string{"old_string", "str_replace"}},
	} {
		e := &edit.Edit{Op: edit.Create, Format: edit.FormatJSON, Args: &c.args}
		if got := CreateWords(e); got != c.create {
			t.Errorf("%+v: CreateWords = %q, want %q", c.args, got, c.create)
		}
		h := ExistsHint(e)
		for _, w := range c.exists {
			if !strings.Contains(h, w) {
				t.Errorf("%+v: ExistsHint %q does not say %q", c.args, h, w)
			}
		}
		for _, w := range c.existsNot {
			if strings.Contains(h, w) {
				t.Errorf("%+v: ExistsHint %q says %q", c.args, h, w)
			}
		}
	}
}
