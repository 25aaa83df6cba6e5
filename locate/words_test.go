package locate

import (
	"fmt"
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
		text, ok := errorSays(t, fmt.Sprintf("%q", c.format), c.file, e, c.code, c.want, c.wantNot)
		if ok && c.format != edit.FormatSearchReplace && c.format != edit.FormatAuto && (strings.Contains(text, "SEARCH") || strings.Contains(text, "REPLACE")) {
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
		_, err := locate(file, e, Options{})
		if err == nil || err.Code != edit.CodeNoMatch {
			t.Fatalf("%s: Locate = %v, want NO_MATCH", c.format, err)
		}
		want := "Line 1 differs: the file has `// the SEARCH text goes here`, " + c.side + " has `// the SEARCH text goes her`."
		if !strings.HasPrefix(err.Hint, want) {
			t.Errorf("%s: hint %q, want it to start %q", c.format, err.Hint, want)
		}
	}
}

// TestWordsOfTheReply: an error names the edit's texts as its reply
// did, a tool call's own arguments (old_str, oldString, before) or
// Zed's tags, never old_string or SEARCH in their place.
func TestWordsOfTheReply(t *testing.T) {
	for _, c := range []struct {
		format         edit.Format
		oldName, nw    string
		file, old, new string
		code           edit.Code
		want, wantNot  []string
	}{
		{edit.FormatJSON, "old_str", "new_str", "a\nb\n", "x\n", "y\n", edit.CodeNoMatch, []string{"old_str not found"}, []string{"old_string", "SEARCH"}},
		{edit.FormatJSON, "oldString", "newString", "a\na\n", "a\n", "y\n", edit.CodeMultipleMatches, []string{"oldString found 2 times", "Add neighbouring lines to oldString"}, []string{"old_string", "SEARCH"}},
		{edit.FormatJSON, "old_text", "new_text", "a\nb\nc\n", "a\n...\nc\n", "z\nc\n", edit.CodeElision, []string{"old_text line 2 is a placeholder the new_text does not keep"}, []string{"old_string", "new_string"}},
		{edit.FormatJSON, "before", "after", "a\nb\n", "x\n", "y\n", edit.CodeNoMatch, []string{"before not found"}, []string{"old_string"}},
		{edit.FormatSearchReplace, "<old_text>", "<new_text>", "a\nb\n", "x\n", "y\n", edit.CodeNoMatch, []string{"<old_text> not found"}, []string{"SEARCH", "old_string"}},
		{edit.FormatSearchReplace, "<old_text>", "<new_text>", "a\na\n", "a\n", "y\n", edit.CodeMultipleMatches, []string{"Add neighbouring lines to the <old_text>"}, []string{"SEARCH"}},
	} {
		e := &edit.Edit{Op: edit.Replace, Path: "f", Old: c.old, New: c.new, Format: c.format, Count: 1, Names: &edit.TextNames{Old: c.oldName, New: c.nw}}
		errorSays(t, c.oldName, c.file, e, c.code, c.want, c.wantNot)
	}
}

// errorSays locates e in file and checks that it fails with code, its
// message and hint saying each of want and none of wantNot; it returns
// them, and false when e did not fail so. label names the case.
func errorSays(t *testing.T, label, file string, e *edit.Edit, code edit.Code, want, wantNot []string) (string, bool) {
	t.Helper()
	_, err := locate(file, e, Options{})
	if err == nil || err.Code != code {
		t.Errorf("%s %s: Locate = %v, want %s", label, want[0], err, code)
		return "", false
	}
	text := err.Msg + " " + err.Hint
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s %s: %q does not say %q", label, code, text, w)
		}
	}
	for _, w := range wantNot {
		if strings.Contains(text, w) {
			t.Errorf("%s %s: %q says %q", label, code, text, w)
		}
	}
	return text, true
}
