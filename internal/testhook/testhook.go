// Package testhook holds the hooks that tests install in code they cannot
// reach otherwise. The CLI's tests run the edapply binary as a separate
// process (the test binary itself, re-executed by testscript), so they
// cannot set a package's unexported test variable; the test binary's
// "edapply" entry point sets these instead. Nothing outside tests sets
// them, and being internal, nothing outside this module can.
package testhook

import "io/fs"

// Commit, when set, is called by apply at each step of a commit, with the
// step's name and the root-relative path it concerns (see apply's
// hook for the steps). A hook may block, to hold the commit at that
// point while a test signals or kills the process.
var Commit func(step, path string)

// Sync, when set, is called by apply after each fsync of a written file,
// the undo journal or its directory: the CLI's tests count them.
var Sync func()

// Plan, when set, is called by apply before it checks a transaction, with
// each path the transaction writes content to, that content and its mode;
// what it returns is committed in their place. A test plants a defect in
// a plan with it, to see the check refuse the transaction.
var Plan func(path string, content []byte, mode fs.FileMode) ([]byte, fs.FileMode)
