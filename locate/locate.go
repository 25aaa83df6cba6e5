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
	case "search-replace", "udiff", "codex":
		return true
	}
	return false
}

// A Location is where the ladder found a Replace edit, and what to write.
type Location = location

// A Splice replaces content[Start:End] with New. Offsets are bytes.
type Splice = splice

// Locate finds e (a Replace) in content, which is the file's current text
// without its BOM, and returns the splices that apply it. The returned
// error carries Code, Msg, Hint and Candidates; the caller sets Path and
// Edit.
func Locate(content string, e *edit.Edit, opts Options) (Location, *edit.Error) {
	return locate(content, e, opts)
}

// A Stream is fed a batch's content in order as its splices make it (the
// receipt's hash, computed while the edits are planned). Feed may be
// given the pieces of content as substrings of it; Stop ends the stream
// without a result.
type Stream interface {
	Feed(piece string)
	Stop()
}

// A BatchEdit is an edit of a run with what a Segment needs of it.
type BatchEdit = batchEdit

// Batchable judges whether a Segment may try e: see batchable.
func Batchable(e *edit.Edit) BatchEdit { return batchable(e) }

// OK reports whether a Segment may try the edit at all.
func (be BatchEdit) OK() bool { return be.ok }

// A Segment plans a run of SEARCH/REPLACE edits to one file in one pass
// where that is provably what Locate, edit by edit, would do.
type Segment = segment

// NewSegment starts a segment at body, a text file's content without its
// BOM (hasBOM says whether it had one), indexing the lines the edits in
// bes quote. It returns nil when body's line endings are mixed.
func NewSegment(body string, hasBOM bool, bes []BatchEdit) *Segment {
	return newSegment(body, hasBOM, bes)
}

// SetStream makes the segment feed s the content as its splices make it,
// the BOM first.
func (g *segment) SetStream(s Stream) {
	g.hs = s
	if g.hasBOM {
		s.Feed(bom)
	}
}

// Try plans e in the segment if it can prove Locate would plan it the
// same way on the content as the edits so far left it; false leaves the
// segment as it was, for the caller to Flush and run Locate.
func (g *segment) Try(e *edit.Edit, be *BatchEdit, opts Options) (Location, bool) {
	return g.try(e, be, opts)
}

// Flush returns the content, BOM included, with the accepted splices
// applied, and forgets them; nil when none was accepted. g may be nil.
// When runEnds and a splice changed the content, the stream is fed the
// rest for its owner to finish; otherwise it is stopped.
func (g *segment) Flush(runEnds bool) []byte { return g.flush(runEnds) }

// Closed reports whether the last splice changed something the segment
// assumes: the caller must Flush before the next edit.
func (g *segment) Closed() bool { return g.closed }

// Accepted reports whether the segment holds splices not yet flushed.
func (g *segment) Accepted() bool { return len(g.sp) > 0 }

// IsCRLF reports whether text's line endings are mostly CRLF.
func IsCRLF(text string) bool { return isCRLF(text) }

// SameContent reports whether content equals want as a whole file, up to
// line endings, trailing whitespace and trailing blank lines (a diff's
// deletion must match the whole file).
func SameContent(content, want string) bool { return sameContent(content, want) }

// ElidedRewrite reports whether rewritten, a whole-file rewrite of
// original, stands in for code of original with a placeholder such as
// "// ... existing code ..."; line is the placeholder's 1-based line in
// rewritten. A placeholder line that original already has is code.
func ElidedRewrite(original, rewritten string) (line int, elided bool) {
	return elidedRewrite(original, rewritten)
}
