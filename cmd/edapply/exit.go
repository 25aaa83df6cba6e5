package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/report"
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

// A usageError is a bad invocation: run prints it to stderr and exits 2.
type usageError = cli.UsageError

func usagef(format string, args ...any) error { return cli.Usagef(format, args...) }

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

// printEditError prints e on stderr as the commands that report an
// error there (hash, read, mcp) do: its code and message, then its hint.
func printEditError(stderr io.Writer, e *edit.Error) {
	fmt.Fprintf(stderr, "edapply: %s %v\n", e.Code, e)
	if e.Hint != "" {
		fmt.Fprintf(stderr, "hint: %s\n", e.Hint)
	}
}

// wantsJSON reports whether err is a usage error of a command run with
// --json, whose stdout must then hold the receipt all the same. When the
// flags did not parse, --json may lie past the flag that failed: the raw
// arguments are read up to "--".
func wantsJSON(cmd *cobra.Command, args []string, err error) bool {
	var usage *usageError
	if cmd == nil || !errors.As(err, &usage) {
		return false
	}
	f := cmd.Flags().Lookup("json")
	if f == nil {
		return false
	}
	if !usage.Flags {
		return f.Value.String() == "true"
	}
	return jsonAsked(args)
}

// jsonAsked reports whether args ask for --json before any "--", read
// without parsing them: for a command line whose flags did not parse, and
// before they are parsed.
func jsonAsked(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--json"); ok && (v == "" || v[0] == '=') {
			on, err := strconv.ParseBool(strings.TrimPrefix(v, "="))
			if v == "" || err == nil && on {
				return true
			}
		}
	}
	return false
}

// writeUsageReceipt prints err as the one JSON object a --json run owes its
// reader: no files, one USAGE error.
func writeUsageReceipt(w io.Writer, cmd *cobra.Command, err error) {
	dry := false
	if f := cmd.Flags().Lookup("dry-run"); f != nil {
		dry = f.Value.String() == "true"
	}
	// A receipt that cannot be written leaves the status and stderr to say why.
	_ = report.WriteReceipt(w, report.UsageReceipt(err.Error(), dry))
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
