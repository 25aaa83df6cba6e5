package apply

import (
	"fmt"

	"github.com/edapply/edapply/edit"
)

// The words of the messages about whole files that planning gives, in the
// terms of the format the model wrote; the ladder's own are locate's.

// createWords names, in the words of the format e was written in (a
// block's for nil) or of its tool's arguments (Args), the edit that
// creates a file: "an empty SEARCH section", "an empty old_string", "a
// hunk of only + lines".
func createWords(e *edit.Edit) string {
	if e == nil {
		return "an empty SEARCH section"
	}
	if e.Args != nil {
		return "an empty " + e.Args.Old
	}
	switch e.Format {
	case edit.FormatJSON:
		return "an empty " + oldKeyOf(e)
	case edit.FormatUDiff, edit.FormatCodex:
		return "a hunk of only + lines"
	}
	return "an empty SEARCH section"
}

// oldKeyOf is the key a tool call sent its old text as: old_string
// unless it named it otherwise (edit.Edit.Names).
func oldKeyOf(e *edit.Edit) string {
	if e.Names != nil && e.Names.Old != "" {
		return e.Names.Old
	}
	return "old_string"
}

// existsHint tells a model that created a file which exists how to change
// it instead, in the terms of the format it wrote: a tool call's empty
// old_string creates (OpenCode's overwrites, which the receipt must not
// let it assume), and so does a text editor's "create" command (whose
// tool names its texts old_str and new_str); a diff's /dev/null side and
// an Add File do too.
func existsHint(e *edit.Edit) string {
	if a := e.Args; a != nil {
		if a.Whole == "" {
			return "To change an existing file, send the text to replace as " + a.Old + "; " + createWords(e) + " creates a new file only."
		}
		return fmt.Sprintf("To change an existing file, send the text to replace as %s; to write the whole file, send it as %q with no %s.", a.Old, a.Whole, a.Old)
	}
	switch e.Format {
	case edit.FormatJSON:
		k := oldKeyOf(e)
		return `To change an existing file, send the text to replace as ` + k + `; to write the whole file, send it as "content" with no ` + k + `. ` +
			`A text editor's "create" makes a new file only: change this one with "str_replace" (old_str, new_str).`
	case edit.FormatUDiff:
		return "To change an existing file, send hunks against its current lines instead of a diff from /dev/null."
	case edit.FormatCodex:
		return "To change an existing file, send *** Update File with its changed lines instead of *** Add File."
	}
	return "To change an existing file, send SEARCH/REPLACE blocks (or a whole-file rewrite) instead of creating it."
}

// binaryErr is the error of an edit to a binary file: planning's, and a
// locate.Doc's, which gives only the code.
// nulErr is the BINARY_FILE of an edit whose new text holds a NUL byte,
// whatever its format: written, it would make a text file binary, which
// edapply would then refuse to edit. A model writes one when it meant an
// escape (a JSON "\u0000" for the two characters of "\0").
func nulErr() *edit.Error {
	return &edit.Error{Code: edit.CodeBinaryFile, Msg: "the edit's new text holds a NUL byte, which would make the file binary",
		Hint: "Write the character as the file's language escapes it (\\0, \\x00, \\u0000), or leave it out; edapply writes text files only."}
}

func binaryErr() *edit.Error {
	return &edit.Error{Code: edit.CodeBinaryFile, Msg: "binary file (NUL bytes)",
		Hint: "edapply edits text files only; leave this file out of the edits."}
}
