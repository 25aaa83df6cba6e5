package main

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/apply"
)

type undoOptions struct {
	root   string
	dryRun bool
	json   bool
	lockTO time.Duration
	color  colorMode
}

func newUndoCmd(opts *undoOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "undo [flags]",
		Short: "Restore the files the last apply in this root changed",
		Long: `undo restores the files changed by the last apply that wrote in the root:
modified files get their bytes and mode back, created files are removed,
deleted files return. It refuses (OUT_OF_DATE, nothing restored) when one of
those files changed since. Its state lives outside the working tree, in
$XDG_STATE_HOME/edapply or the user cache directory.

Exit status: 0 restored; 1 nothing restored (nothing to undo, or a file
changed since); 2 usage error.`,
		Example: `  # See what undo would restore, as a diff; write nothing
  edapply undo --dry-run

  # Restore the files the last apply in ~/src/proj changed
  edapply undo -C ~/src/proj`,
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUndo(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.root, "root", "C", ".", "working tree `DIR`")
	fs.BoolVarP(&opts.dryRun, "dry-run", "n", false, "report what would be restored; write nothing; print the diff")
	fs.BoolVar(&opts.json, "json", false, "print the receipt as one JSON object")
	addLockFlag(fs, &opts.lockTO)
	opts.color = colorAuto
	fs.Var(&opts.color, "color", "color the receipt: auto, always, never")
	registerCompletions(cmd)
	return cmd
}

func runUndo(ctx context.Context, opts *undoOptions, out io.Writer) error {
	if err := checkRoot(opts.root); err != nil {
		return err
	}
	// Like Apply, Undo always returns a Result holding its errors.
	res, _ := apply.Undo(ctx, apply.Options{Root: opts.root, DryRun: opts.dryRun, LockTimeout: lockTimeout(opts.lockTO)})
	if err := writeReceipt(out, res, opts.json, opts.color, ""); err != nil {
		return err
	}
	return resultStatus(res)
}

// defaultCheckTimeout bounds a --check command that hangs (a test waiting
// on the network, a watcher that never exits): generous for a build and a
// test suite, short of leaving an agent stuck for good.
const defaultCheckTimeout = 10 * time.Minute

// addLockFlag registers --lock-timeout, which apply and undo share.
func addLockFlag(fs *pflag.FlagSet, d *time.Duration) {
	fs.DurationVar(d, "lock-timeout", apply.DefaultLockTimeout,
		"wait at most `DURATION` for another edapply writing in the root, then fail with IO_ERROR; 0: do not wait")
}

// lockTimeout is --lock-timeout as apply.Options wants it, where 0 means
// the default wait and a negative value none.
func lockTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
