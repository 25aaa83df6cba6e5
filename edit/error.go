package edit

import (
	"fmt"
	"strings"
)

// A Code is an error code of the command-line contract.
type Code string

// The contract's error codes.
const (
	CodeParse           Code = "PARSE_ERROR"
	CodeNoMatch         Code = "NO_MATCH"
	CodeMultipleMatches Code = "MULTIPLE_MATCHES"
	CodeOutOfDate       Code = "OUT_OF_DATE"
	CodeFileNotFound    Code = "FILE_NOT_FOUND"
	CodeFileExists      Code = "FILE_EXISTS"
	CodeOutOfRoot       Code = "OUT_OF_ROOT"
	CodeElision         Code = "ELISION"
	CodeBinaryFile      Code = "BINARY_FILE"
	CodeCheckFailed     Code = "CHECK_FAILED"
	CodeIO              Code = "IO_ERROR"
	CodeUsage           Code = "USAGE" // a command line or MCP call that could not run; only a wire receipt carries it
	// CodeInternal is edapply's own check of a transaction failing before
	// anything was written: a defect of edapply, not of the edits.
	CodeInternal Code = "INTERNAL"
)

// A Candidate is a region of a file that resembles an edit's old text: a near
// miss for NO_MATCH, or one of the places a MULTIPLE_MATCHES found. A path
// candidate, for FILE_NOT_FOUND or OUT_OF_ROOT, has Path set and nothing
// else: a file of the tree the edit's path probably means.
type Candidate struct {
	Path       string  // a path candidate: root-relative, slash-separated
	LineStart  int     // 1-based first line
	LineEnd    int     // 1-based last line, inclusive
	Similarity float64 // 0..1; 1 for an exact (ambiguous) match
	Excerpt    string  // the file's text at those lines
	// Weak marks a NO_MATCH's only candidate when even the closest region
	// is not close: shown so the model can tell, never to be copied.
	Weak bool
}

// An Error is one problem with one edit or file, as the receipt reports it.
type Error struct {
	Code       Code
	Path       string      // root-relative, slash-separated; "" if none
	Edit       int         // index into the parsed edits; -1 if none
	Line       int         // PARSE_ERROR: 1-based line in the model output
	Msg        string      // what went wrong; no trailing period
	Hint       string      // what the model should do next; a full sentence
	Candidates []Candidate // NO_MATCH, MULTIPLE_MATCHES: near misses, best first; FILE_NOT_FOUND, OUT_OF_ROOT: path candidates
	Err        error       // the cause, if any (kept for errors.As)
	// Repair is what a --repair fixer did when it failed to fix this
	// error: its exit status and the tail of its stderr, a timeout, output
	// that held no edit. "" when no fixer ran or its fix stood in.
	Repair string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Msg != "" {
		b.WriteString(e.Msg)
	} else {
		b.WriteString(string(e.Code))
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Code and otherwise
// empty, so errors.Is(err, &edit.Error{Code: edit.CodeNoMatch}) matches any
// NO_MATCH.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return t.Code == e.Code && t.Path == "" && t.Msg == "" && t.Line == 0 && t.Err == nil
}

// Errorf returns an Error with the given code and formatted message, tied to
// no edit.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Edit: -1, Msg: fmt.Sprintf(format, args...)}
}

// An ErrorList collects every problem found, so a receipt lists each failing
// edit rather than the first.
type ErrorList []*Error

// Add appends e.
func (l *ErrorList) Add(e *Error) { *l = append(*l, e) }

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Unwrap lets errors.Is and errors.As see every error in the list.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
