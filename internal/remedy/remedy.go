// Package remedy names the ways out of an error that each caller words
// for itself, because each has its own flags or tools for them: the
// command line's --lock-timeout and `edapply undo`, the MCP server's undo
// tool. The library words an error's hint for every caller, without
// naming any caller's flags, and marks the error with its remedy; a
// caller that has a flag or a tool for it rewrites the hint in its own
// vocabulary (see For).
package remedy

import (
	"errors"

	"github.com/edapply/edapply/edit"
)

// A Remedy is what would get past an error, as a caller offers it. It is
// an error only so that it can ride in edit.Error.Err, where errors.Is
// finds it.
type Remedy struct{ what string }

func (r *Remedy) Error() string { return "remedy: " + r.what }

// The remedies the library marks errors with.
var (
	// LockTimeout: another edapply held the root's lock for longer than
	// the wait; a longer wait would do.
	LockTimeout = &Remedy{"wait longer for the root's lock"}
	// ForceReadOnly: the user may not write the file, and replacing it
	// anyway takes the caller's explicit leave.
	ForceReadOnly = &Remedy{"replace a file the user may not write"}
	// Encoding: the file is not UTF-8 and its encoding is not declared.
	Encoding = &Remedy{"declare the file's encoding"}
	// RealEncoding: the file's declared encoding does not read it (one
	// edapply does not know, or not the one its bytes are in).
	RealEncoding = &Remedy{"name the file's real encoding"}
	// Undo: the undo journal holds what a failed restore could not put
	// back, or the earlier state the model asked for.
	Undo = &Remedy{"undo from the journal"}
	// WholeFile: a fence under a path reads as a piece of the file; the
	// caller may have a way to say it is the whole file.
	WholeFile = &Remedy{"read a fence as the whole file"}
	// Hash: a base hash was malformed; the caller names where a good one
	// comes from.
	Hash = &Remedy{"take the file's hash"}
)

// Mark records r as e's remedy, keeping e's cause, and returns e.
func Mark(e *edit.Error, r *Remedy) *edit.Error {
	if e.Err == nil {
		e.Err = r
	} else {
		e.Err = errors.Join(e.Err, r)
	}
	return e
}

// Of returns e's remedy, or nil.
func Of(e *edit.Error) *Remedy {
	var r *Remedy
	if errors.As(e.Err, &r) {
		return r
	}
	return nil
}

// For rewrites the hint of each error in errs that carries a remedy
// hints has words for: a caller's whole hint, in its own vocabulary.
func For(errs edit.ErrorList, hints map[*Remedy]string) {
	for _, e := range errs {
		if r := Of(e); r != nil {
			if h, ok := hints[r]; ok {
				e.Hint = h
			}
		}
	}
}
