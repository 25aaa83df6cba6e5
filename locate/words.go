package locate

import (
	"fmt"

	"github.com/edapply/edapply/edit"
)

// words are the names the ladder's messages give an edit's parts, in the
// words of the format it was written in: a model that sent a tool call
// reads about old_string, one that sent a diff about its hunk, context and
// - lines, one that sent a block about its SEARCH and REPLACE text. The
// messages are built with them, so that text quoted from the file or the
// edit is never reworded.
type words struct {
	old      string // the old text opening a message: "SEARCH text not found"
	theOld   string // the old text inside a sentence: "change the SEARCH text"
	TheOld   string // the old text opening a sentence: "The SEARCH text occurs"
	noLineOf string // "No line of the SEARCH text resembles"
	side     string // the old text beside the file's: "the file has x, the SEARCH has y"
	oldLine  string // a line of the old text, before its number: "SEARCH line 3"
	new      string // the new text opening a message: "REPLACE text elides"
	theNew   string // the new text inside a sentence: "the REPLACE text does not keep"
	widen    string // how to make the old text unique: "Add neighbouring lines to the SEARCH text"
	emptyOld string // an edit that creates a file: "an empty SEARCH section"
	changes  string // how to send a change: "Send SEARCH/REPLACE blocks for the lines that change"
}

// everyHint ends a hint about e's old text found in n places (0: more
// than were counted): how to change every one, with the argument e's tool
// call names for it; empty for an edit whose format has none.
func everyHint(e *edit.Edit, n int) string {
	if e == nil || e.Format != edit.FormatJSON {
		return ""
	}
	switch e.EveryKey {
	case "":
		return ""
	case "expected_replacements":
		if n == 0 {
			return ` To change every occurrence, set "expected_replacements" to their number.`
		}
		return fmt.Sprintf(` To change every occurrence, set "expected_replacements": %d.`, n)
	}
	return fmt.Sprintf(` To change every occurrence, set %q: true.`, e.EveryKey)
}

var (
	blockWords = &words{
		old: "SEARCH text", theOld: "the SEARCH text", TheOld: "The SEARCH text",
		noLineOf: "No line of the SEARCH text", side: "the SEARCH", oldLine: "SEARCH line",
		new: "REPLACE text", theNew: "the REPLACE text",
		widen:    "Add neighbouring lines to the SEARCH text",
		emptyOld: "an empty SEARCH section",
		changes:  "Send SEARCH/REPLACE blocks for the lines that change",
	}
	toolCallWords = &words{
		old: "old_string", theOld: "old_string", TheOld: "old_string",
		noLineOf: "No line of old_string", side: "old_string", oldLine: "old_string line",
		new: "new_string", theNew: "the new_string",
		widen:    "Add neighbouring lines to old_string",
		emptyOld: "an empty old_string",
		changes:  "Send the lines that change as old_string, their new text as new_string",
	}
	hunkWords = &words{
		old: "hunk's context and - lines", theOld: "the hunk's context and - lines", TheOld: "The hunk's context and - lines",
		noLineOf: "No context or - line of the hunk", side: "the hunk", oldLine: "hunk line",
		new: "hunk's + lines", theNew: "the hunk's + lines",
		widen:    "Add context lines to the hunk",
		emptyOld: "a hunk of only + lines",
		changes:  "Send hunks whose context and - lines quote the lines that change",
	}
)

// wordsOf returns the words of the format e was written in; an edit of
// another format or of none, or no edit (nil), is told in a block's.
func wordsOf(e *edit.Edit) *words {
	if e == nil {
		return blockWords
	}
	switch e.Format {
	case edit.FormatJSON:
		return toolCallWords
	case edit.FormatUDiff, edit.FormatCodex:
		return hunkWords
	}
	return blockWords
}

// CreateWords names, in the words of the format e was written in (a
// block's for nil) or of its tool's arguments (Args), the edit that
// creates a file: "an empty SEARCH section", "an empty old_string", "a
// hunk of only + lines".
func CreateWords(e *edit.Edit) string {
	if e != nil && e.Args != nil {
		return "an empty " + e.Args.Old
	}
	return wordsOf(e).emptyOld
}

// ExistsHint tells a model that created a file which exists how to change
// it instead, in the terms of the format it wrote: a tool call's empty
// old_string creates (OpenCode's overwrites, which the receipt must not
// let it assume), and so does a text editor's "create" command (whose
// tool names its texts old_str and new_str); a diff's /dev/null side and
// an Add File do too. An edit that records its tool's arguments (Args)
// is told in them alone.
func ExistsHint(e *edit.Edit) string {
	if a := e.Args; a != nil {
		if a.Whole == "" {
			return "To change an existing file, send the text to replace as " + a.Old + "; " + CreateWords(e) + " creates a new file only."
		}
		return fmt.Sprintf("To change an existing file, send the text to replace as %s; to write the whole file, send it as %q with no %s.", a.Old, a.Whole, a.Old)
	}
	switch e.Format {
	case edit.FormatJSON:
		return `To change an existing file, send the text to replace as old_string; to write the whole file, send it as "content" with no old_string. ` +
			`A text editor's "create" makes a new file only: change this one with "str_replace" (old_str, new_str).`
	case edit.FormatUDiff:
		return "To change an existing file, send hunks against its current lines instead of a diff from /dev/null."
	case edit.FormatCodex:
		return "To change an existing file, send *** Update File with its changed lines instead of *** Add File."
	}
	return "To change an existing file, send SEARCH/REPLACE blocks (or a whole-file rewrite) instead of creating it."
}
