// Command edapply applies the edits in an LLM's reply (SEARCH/REPLACE
// blocks, unified diffs, whole-file fences, Codex envelopes, JSON tool
// calls) to a working tree as one transaction, and prints a receipt.
//
// Each command is a file of its own: its options, its cobra command and
// its run function (apply.go, parse.go, hash.go, …). flags.go holds the
// flags several commands share, reply.go how a reply is read, exit.go how
// an outcome becomes the exit status, progress.go where a long run shows
// its progress; the collector's tuning is internal/gctune's.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/internal/gctune"
)

func main() { os.Exit(run(os.Args[1:])) }

// run executes the command line args and returns the exit status.
func run(args []string) int {
	gctune.Tune()
	root := newRootCmd()
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(context.Background())
	if wantsJSON(cmd, args, err) {
		writeUsageReceipt(root.OutOrStdout(), cmd, err)
	}
	return exitCode(cmd, err, root.ErrOrStderr())
}

// newRootCmd builds the edapply command with every subcommand. The root
// is itself `apply`, the default command, so `edapply r.md` and `edapply
// apply r.md` are the same.
func newRootCmd() *cobra.Command {
	root := newApplyCmd(&applyOptions{})
	root.Use = "edapply [apply] [flags] [RESPONSE_FILE]"
	root.Short = "Apply the edits in an LLM's reply to files, atomically, and print a receipt"
	root.Long = `edapply reads a model's reply (SEARCH/REPLACE blocks, unified diffs,
whole-file fences, Codex patch envelopes or JSON tool calls) from
RESPONSE_FILE, or from stdin when it is absent or "-", applies every edit to
the working tree as one transaction and prints a receipt.

` + applyStatus
	root.Version = cli.Version()
	root.SilenceErrors = true
	root.SilenceUsage = true
	// newCompletionCmd replaces cobra's default, whose help cannot say how
	// to install edapply's scripts.
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &cli.UsageError{Err: err, Flags: true} })
	root.AddCommand(newApplyCmd(&applyOptions{}), newParseCmd(&parseOptions{}), newHashCmd(&hashOptions{}),
		newReadCmd(&readOptions{}), newMCPCmd(), newUndoCmd(&undoOptions{}), newLintCmd(), newCompletionCmd(),
		newFormatsHelpCmd(), newNormalizeCmd(&normalizeOptions{}))
	return root
}

// catchInterrupts returns ctx cancelled by the first SIGINT or SIGTERM,
// for a command that writes (apply, undo): it then stops before its
// commit, or puts back what it wrote, and prints its receipt. Later
// signals are caught too until stop is called, so that none ends the
// process while files are being put back.
func catchInterrupts(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
