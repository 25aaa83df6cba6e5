package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/edapply/edapply/apply"
)

// The exit statuses of CONTRACT.md.
const (
	exitOK     = 0 // every edit applied (or would, with --dry-run)
	exitFailed = 1 // at least one edit could not be applied; nothing was written
	exitUsage  = 2 // usage error, or the input holds no edit that could be parsed
	exitCheck  = 3 // --check failed and every file was restored
)

// An exitStatus is returned by a command that has already reported why it
// failed (on stdout, in its receipt); run only turns it into the status.
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// A usageError is a bad invocation: a flag, an argument, a response that
// cannot be read. run prints it to stderr and exits 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitCode maps the outcome of a command to the contract's status, printing
// to stderr whatever has not been reported yet.
func exitCode(err error, stderr io.Writer) int {
	var status exitStatus
	var usage *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "edapply: %v\nRun 'edapply --help' for usage.\n", usage)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "edapply: %v\n", err)
		return exitFailed
	}
}

// resultStatus is the status an apply's receipt stands for: 0 when it
// succeeded, 3 when --check failed (and the files were restored), else 1.
func resultStatus(res *apply.Result) error {
	if res.OK {
		return nil
	}
	if res.CheckFailed() {
		return exitStatus(exitCheck)
	}
	return exitStatus(exitFailed)
}
