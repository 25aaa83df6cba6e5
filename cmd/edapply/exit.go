package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/report"
)

// The exit statuses of the contract (docs/contract.md).
const (
	exitOK     = 0 // every edit applied (or would, with --dry-run or --check)
	exitFailed = 1 // at least one edit could not be applied; nothing was written
	exitUsage  = 2 // usage error, or the input holds no edit that could be parsed
	exitVerify = 3 // --verify failed and every file was restored
)

// An exitStatus is returned by a command that has already reported why it
// failed (on stdout, in its receipt); run only turns it into the status.
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// exitCode maps the outcome of cmd to the contract's status, printing to
// stderr whatever has not been reported yet; a usage error points to
// cmd's own help.
func exitCode(cmd *cobra.Command, err error, stderr io.Writer) int {
	var status exitStatus
	var usage *cli.UsageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, &usage) && usage.Hint != "":
		fmt.Fprintf(stderr, "edapply: %v\nhint: %s\n", usage, usage.Hint)
		return exitUsage
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "edapply: %v\nRun '%s --help' for usage.\n", usage, helpPath(cmd))
		return exitUsage
	default:
		fmt.Fprintf(stderr, "edapply: %v\n", err)
		return exitFailed
	}
}

// helpPath is the command line whose --help describes cmd: "edapply",
// "edapply undo".
func helpPath(cmd *cobra.Command) string {
	if cmd == nil {
		return "edapply"
	}
	return cmd.CommandPath()
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
// flags did not parse, --json may stand past the flag that failed, where
// cobra did not reach: the arguments are read again for it alone.
func wantsJSON(cmd *cobra.Command, args []string, err error) bool {
	var usage *cli.UsageError
	if cmd == nil || !errors.As(err, &usage) || cmd.Flags().Lookup("json") == nil {
		return false
	}
	if !usage.Flags {
		return cmd.Flags().Lookup("json").Value.String() == "true"
	}
	fs := pflag.NewFlagSet("json", pflag.ContinueOnError)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	fs.SetOutput(io.Discard)
	asked := fs.Bool("json", false, "")
	_ = fs.Parse(args) // what does not parse was reported by cobra
	return *asked
}

// writeUsageReceipt prints err as the one JSON object a --json run owes its
// reader: no files, one USAGE error.
func writeUsageReceipt(w io.Writer, cmd *cobra.Command, err error) {
	dry := false
	if f := cmd.Flags().Lookup("dry-run"); f != nil {
		dry = f.Value.String() == "true"
	}
	hint := "Fix the command line; run '" + helpPath(cmd) + " --help' for usage."
	if usage := (*cli.UsageError)(nil); errors.As(err, &usage) && usage.Hint != "" {
		hint = usage.Hint
	}
	res := &apply.Result{DryRun: dry, Errors: edit.ErrorList{{Code: edit.CodeUsage, Edit: -1, Msg: err.Error(), Hint: hint}}}
	// A receipt that cannot be written leaves the status and stderr to say why.
	_ = report.WriteJSON(w, report.NewReceipt(res))
}

// resultStatus is the status an apply's receipt stands for: 0 when it
// succeeded, 3 when --verify failed (and the files were restored), 2 when
// the request had nothing to act on, else 1.
func resultStatus(res *apply.Result) error {
	switch {
	case res.OK:
		return nil
	case res.Verify == "failed":
		return exitStatus(exitVerify)
	case onlyUsage(res.Errors):
		return exitStatus(exitUsage)
	}
	return exitStatus(exitFailed)
}

// onlyUsage reports whether errs are all USAGE (undo with nothing to
// undo): a request with nothing to act on, exit 2 as a bad command line.
func onlyUsage(errs edit.ErrorList) bool {
	for _, e := range errs {
		if e.Code != edit.CodeUsage {
			return false
		}
	}
	return len(errs) > 0
}
