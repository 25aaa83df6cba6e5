package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/apply"
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
those files changed since. Each root keeps its last ` + strconv.Itoa(apply.HistorySize) + ` applies: run undo
again to take back the one before, newest first; --list shows them. The
journals live outside the working tree, in $XDG_STATE_HOME/edapply or the
user cache directory.

Exit status: 0 restored; 1 nothing restored (nothing to undo, or a file
changed since); 2 usage error.`,
		Example: `  # See what undo would restore, as a diff; write nothing
  edapply undo --dry-run

  # List the applies undo can take back, newest first
  edapply undo --list

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
	fs.BoolVar(&opts.list, "list", false, "list the applies undo can take back, newest first (when, which files); restore nothing")
	addLockFlag(fs, &opts.lockTO)
	addSyncFlag(fs, &opts.noSync)
	opts.color = colorAuto
	fs.Var(&opts.color, "color", "color the receipt: auto, always, never")
	registerCompletions(cmd)
	return cmd
}

func runUndo(ctx context.Context, opts *undoOptions, out io.Writer) error {
	if err := checkRoot(opts.root); err != nil {
		return err
	}
	if opts.list {
		return listUndo(opts, out)
	}
	// Like Apply, Undo always returns a Result holding its errors.
	res, _ := apply.Undo(ctx, apply.Options{Root: opts.root, DryRun: opts.dryRun, LockTimeout: lockTimeout(opts.lockTO), NoSync: opts.noSync})
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

// noSyncEnv names the environment variable that sets --no-sync's default
// (true, 1: skip the syncs), for a harness that runs edapply many times.
const noSyncEnv = "EDAPPLY_NO_SYNC"

// addSyncFlag registers --no-sync, which apply and undo share; its default
// is EDAPPLY_NO_SYNC's, false when unset or not a boolean.
func addSyncFlag(fs *pflag.FlagSet, noSync *bool) {
	def, _ := strconv.ParseBool(os.Getenv(noSyncEnv))
	fs.BoolVar(noSync, "no-sync", def,
		"do not fsync the written files or the undo journal: faster on slow disks; still safe if edapply is killed, not if the machine loses power ($"+noSyncEnv+")")
}

// lockTimeout is --lock-timeout as apply.Options wants it, where 0 means
// the default wait and a negative value none.
func lockTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// A wireCheckpoint is an [apply.Checkpoint] as `undo --list --json` prints
// it.
type wireCheckpoint struct {
	ID      string            `json:"id,omitempty"`
	Time    string            `json:"time"`
	Journal string            `json:"journal"`
	Files   []wireFileOp      `json:"files"`
	Error   *report.WireError `json:"error,omitempty"`
}

type wireFileOp struct {
	Path string `json:"path"`
	Op   string `json:"op"` // what the apply did to it
}

// listUndo prints the root's undo history, newest first: one JSON object
// {"history": [...]}, or a line per apply.
func listUndo(opts *undoOptions, out io.Writer) error {
	cps, err := apply.History(apply.Options{Root: opts.root})
	if err != nil {
		return err
	}
	ws := make([]wireCheckpoint, 0, len(cps))
	for _, cp := range cps {
		w := wireCheckpoint{ID: cp.ID, Time: cp.Time.Format(time.RFC3339), Journal: cp.Journal, Files: []wireFileOp{}}
		for _, f := range cp.Files {
			w.Files = append(w.Files, wireFileOp{f.Path, f.Op})
		}
		if cp.Err != nil {
			we := report.NewWireError(cp.Err)
			w.Error = &we
		}
		ws = append(ws, w)
	}
	if opts.json {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			History []wireCheckpoint `json:"history"`
		}{ws})
	}
	if len(ws) == 0 {
		_, err := fmt.Fprintln(out, "nothing to undo in this root")
		return err
	}
	var b strings.Builder
	for i, w := range ws {
		fmt.Fprintf(&b, "%d. %s", i+1, cps[i].Time.Local().Format("2006-01-02 15:04:05 MST"))
		if w.Error != nil {
			fmt.Fprintf(&b, "  unusable: %s\n", w.Error.Message)
			continue
		}
		ops := make([]string, 0, len(w.Files))
		for _, f := range w.Files {
			ops = append(ops, f.Op+" "+f.Path)
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(ops, ", "))
	}
	b.WriteString("\n`edapply undo` takes back the first; each undo the next.\n")
	_, err = io.WriteString(out, b.String())
	return err
}
