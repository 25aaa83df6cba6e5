package locate

import "github.com/edapply/edapply/edit"

// A Strategy names how an edit was located: a level of the tolerance ladder,
// or the whole-file op that needed no search.
type Strategy string

// The contract's strategies.
const (
	StrategyExact      Strategy = "exact"
	StrategyTrailingWS Strategy = "trailing-ws"
	StrategyIndent     Strategy = "indent"
	StrategyWhitespace Strategy = "whitespace"
	StrategyUnicode    Strategy = "unicode"
	StrategyElision    Strategy = "elision"
	StrategyLineHint   Strategy = "line-hint"
	StrategyCreate     Strategy = "create"
	StrategyDelete     Strategy = "delete"
	StrategyRewrite    Strategy = "rewrite"
	StrategyRename     Strategy = "rename"
	StrategyAppend     Strategy = "append"
)

// A Status is an edit's outcome.
type Status string

// The contract's statuses.
const (
	StatusApplied        Status = "applied"
	StatusMatched        Status = "matched" // located, but not written: a dry run, or the transaction failed
	StatusAlreadyApplied Status = "already_applied"
	StatusFailed         Status = "failed"
)

// bom is UTF-8's byte order mark, which a file's content may start with.
const bom = "\uFEFF"

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

// A Stream is fed a batch's content in order as its splices make it (the
// receipt's hash, computed while the edits are planned): substrings of the
// content, which it must not keep past Stop. Stop ends the stream without
// a result.
type Stream interface {
	Feed(piece string)
	Stop()
}

// IsCRLF reports whether text's line endings are mostly CRLF.
func IsCRLF(text string) bool { return isCRLF(text) }

// SameContent reports whether content equals want as a whole file, up to
// line endings, trailing whitespace and trailing blank lines (a diff's
// deletion must match the whole file).
func SameContent(content, want string) bool { return sameContent(content, want) }
