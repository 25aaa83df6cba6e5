package edit

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
