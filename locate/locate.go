package locate

import "github.com/edapply/edapply/edit"

// LineOriented reports whether e was written in a format that quotes whole
// lines (SEARCH/REPLACE blocks, diff hunks, Codex chunks): its old text
// matches at line starts only, and an empty old text on a file with
// content appends to it. A tool call's old_string is a substring, and
// an edit of no known format is read as one.
func LineOriented(e *edit.Edit) bool {
	switch e.Format {
	case edit.FormatSearchReplace, edit.FormatUDiff, edit.FormatCodex:
		return true
	}
	return false
}
