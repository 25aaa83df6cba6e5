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
