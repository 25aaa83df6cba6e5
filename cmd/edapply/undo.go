package main

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/report"
)

type undoOptions struct {
	root   string
	dryRun bool
	json   bool
	list   bool
	lockTO time.Duration
	noSync bool // --no-sync
	color  colorMode
}

func newUndoCmd(opts *undoOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "undo [flags]",
		Short: "Restore the files the last apply in this root changed",
		Long: `undo restores the files changed by the last apply that wrote in the root:
modified files get their bytes and mode back, created files are removed,
deleted files return. It refuses (OUT_OF_DATE, nothing restored) when one of
those files changed since. Each root keeps its last ` + strconv.Itoa(apply.HistorySize) + ` applies, fewer once
their journals would hold more than ` + strconv.Itoa(apply.HistoryBytes>>20) + ` MiB (the newest is always kept): run
undo again to take back the one before, newest first; --list shows them. The
journals live outside the working tree, in $XDG_STATE_HOME/edapply or the
user cache directory.

Exit status: 0 restored; 1 nothing restored (a file changed since); 2
usage error, or nothing to undo (USAGE).`,
		Example: `  # See what undo would restore, as a diff; write nothing
  edapply undo --dry-run

  # List the applies undo can take back, newest first
  edapply undo --list

  # Restore the files the last apply in ~/src/proj changed
  edapply undo -C ~/src/proj`,
		Args:              cli.UsageArgs(cobra.NoArgs),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUndo(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.root, "root", "C", ".", "working tree `DIR`")
	fs.BoolVarP(&opts.dryRun, "dry-run", "n", false, "report what would be restored; write nothing; print the diff")
	fs.BoolVar(&opts.json, "json", false, "print the receipt as one JSON object")
	fs.BoolVar(&opts.list, "list", false, "list the applies undo can take back, newest first (when, which files); restore nothing")
	addLockFlag(fs, &opts.lockTO)
	addSyncFlag(fs, &opts.noSync)
	addColorFlag(fs, &opts.color)
	registerCompletions(cmd)
	return cmd
}

func runUndo(ctx context.Context, opts *undoOptions, out io.Writer) error {
	if err := cli.CheckRoot(opts.root); err != nil {
		return err
	}
	if opts.list {
		cps, err := apply.History(apply.Options{Root: opts.root})
		if err != nil {
			return err
		}
		return report.History(out, cps, opts.json)
	}
	ctx, stop := catchInterrupts(ctx)
	defer stop()
	// Like Apply, Undo always returns a Result holding its errors.
	res, _ := apply.Undo(ctx, apply.Options{Root: opts.root, DryRun: opts.dryRun, LockTimeout: lockTimeout(opts.lockTO), NoSync: opts.noSync})
	inCLIWords(res.Errors)
	var err error
	if opts.json {
		err = report.WriteJSON(out, report.NewReceipt(res))
	} else {
		err = writeHuman(out, res, opts.color)
	}
	if err != nil {
		return err
	}
	return resultStatus(res)
}
