package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/internal/gctune"
	"github.com/edapply/edapply/internal/progress"
	"github.com/edapply/edapply/internal/shell"
	"github.com/edapply/edapply/internal/textcut"
	"github.com/edapply/edapply/report"
)

type applyOptions struct {
	planOptions
	dryRun   bool
	check    bool // --check: locate, write nothing, print only errors
	json     bool
	verify   string        // --verify CMD
	verifyTO time.Duration // --verify-timeout
	repair   string        // --repair CMD
	attempts int           // --repair-attempts
	repairTO time.Duration // --repair-timeout
	lockTO   time.Duration // --lock-timeout
	forceRO  bool          // --force-readonly
	noSync   bool          // --no-sync
	color    colorMode
}

// applyStatus ends the help of apply, which is also the root's.
const applyStatus = `Exit status: 0 every edit applied (with --dry-run or --check: would apply);
1 an edit failed and nothing was written; 2 usage error or no edit parsed;
3 --verify failed and every file was restored.`

func newApplyCmd(opts *applyOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "apply [flags] [RESPONSE_FILE]",
		Short: "Apply the edits in a model's reply (the default command)",
		Long: `apply reads a model's reply from RESPONSE_FILE, or from stdin when it is
absent or "-", locates every edit in the working tree (tolerating trailing
whitespace, shifted indentation, curly quotes and stale line numbers, never
guessing between two places), writes every file as one transaction and
prints a receipt. An edit that cannot be placed writes nothing; the receipt
names the closest candidates and how to fix the edit. A run longer than
two seconds shows the edits placed on stderr when it is a terminal, never
with --json.

` + applyStatus,
		Example: `  # Apply a reply piped from the clipboard (or any command) to the current directory
  pbpaste | edapply

  # Dry run: print the diff that would be written and the receipt; write nothing
  edapply --dry-run reply.md

  # As git apply --check: say only what would fail; write nothing
  edapply --check reply.md

  # The receipt as one JSON object, for a harness; the tree is another directory
  edapply --json -C ~/src/proj reply.md

  # Refuse (OUT_OF_DATE) if main.go changed since the model saw it: save its
  # hash when the model reads it, apply with that hash when the reply comes
  seen=$(edapply hash main.go | cut -c1-16)
  edapply --base main.go=$seen reply.md

  # Run the tests after writing; if they fail, restore every file and exit 3
  edapply --verify 'go test ./...' reply.md`,
		Args: cli.UsageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.response = args[0]
			}
			return runApply(cmd.Context(), opts, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
		ValidArgsFunction: completeResponseFile,
	}
	fs := cmd.Flags()
	addPlanFlags(fs, &opts.planOptions, "refuse with OUT_OF_DATE unless `PATH=HASH` (SHA-256, 8+ hex digits) matches; repeatable")
	fs.BoolVarP(&opts.dryRun, "dry-run", "n", false, "parse, match and report; write nothing; print the diff")
	fs.BoolVar(&opts.check, "check", false, "as git apply --check: locate every edit, write nothing, print only errors")
	fs.BoolVar(&opts.json, "json", false, "print the receipt as one JSON object")
	fs.StringVar(&opts.verify, "verify", "", "after writing, run `CMD` via sh -c in the root; restore every file and exit 3 if it fails")
	fs.DurationVar(&opts.verifyTO, "verify-timeout", 10*time.Minute, "kill the --verify command (and its process group) after `DURATION`, restore every file and exit 3; 0: no limit")
	fs.StringVar(&opts.repair, "repair", "", "for each failing edit, run `CMD` via sh -c in the root with the edit, error and file excerpt as JSON on stdin; it prints a corrected edit")
	fs.IntVar(&opts.attempts, "repair-attempts", 1, "at most `N` rounds of --repair")
	fs.DurationVar(&opts.repairTO, "repair-timeout", 60*time.Second, "kill a --repair command (and its process group) after `DURATION`")
	addLockFlag(fs, &opts.lockTO)
	fs.BoolVar(&opts.forceRO, "force-readonly", false, "replace files the user has no write permission for (refused with IO_ERROR otherwise)")
	addSyncFlag(fs, &opts.noSync)
	addColorFlag(fs, &opts.color)
	registerCompletions(cmd)
	return cmd
}

// runApply parses the response, applies its edits and prints the receipt.
// Everything that goes wrong with an edit is in the receipt; the returned
// error only carries the exit status, or a usage error.
func runApply(ctx context.Context, opts *applyOptions, in io.Reader, out, errOut io.Writer) error {
	if opts.attempts < 1 {
		return cli.Usagef("--repair-attempts must be at least 1")
	}
	ctx, stop := catchInterrupts(ctx)
	defer stop()
	if opts.response == "" || opts.response == "-" {
		if f, ok := in.(*os.File); ok && progress.IsTerminal(f) {
			// Otherwise a user who forgot the file sees nothing happen.
			fmt.Fprintln(errOut, "edapply: reading the reply from stdin; end it with Ctrl-D (or pass RESPONSE_FILE)")
		}
	}
	dryRun := opts.dryRun || opts.check
	var ignored []edit.Edit
	if opts.format != edit.FormatAuto {
		opts.skipped = func(e edit.Edit) { ignored = append(ignored, e) }
	}
	r, err := loadReplyOrInterrupt(ctx, &opts.planOptions, in)
	if errors.Is(err, errInterruptedRead) {
		res := &apply.Result{DryRun: dryRun, Errors: edit.ErrorList{{Code: edit.CodeIO, Edit: -1, Msg: err.Error(), Err: context.Cause(ctx)}}}
		if err := writeApplyReceipt(out, errOut, opts, res, nil); err != nil {
			return err
		}
		return resultStatus(res)
	}
	if err != nil {
		return err
	}
	if opts.format != edit.FormatAuto {
		if n, formats := ignoredRegions(ignored); n > 0 {
			fmt.Fprintf(errOut, "edapply: -f %s ignored %d %s in other formats (%s)\n",
				opts.format, n, map[bool]string{true: "region", false: "regions"}[n == 1], strings.Join(formats, ", "))
		}
	}
	if len(r.edits) == 0 {
		res := &apply.Result{DryRun: dryRun, Errors: r.perrs}
		if err := writeApplyReceipt(out, errOut, opts, res, nil); err != nil {
			return err
		}
		return exitStatus(exitUsage)
	}
	var repair func(context.Context, apply.RepairRequest) ([]edit.Edit, error)
	if opts.repair != "" {
		repair = repairFunc(opts.repair, opts.root, opts.file, opts.repairTO)
	}
	var verify func(context.Context, string) (string, error)
	if opts.verify != "" {
		verify = shell.Verify(opts.verify, opts.verifyTO)
	}
	// A long apply shows the edits placed on a terminal's stderr, never
	// with --json, and blanks the line before the receipt.
	meter := newMeter(errOut, opts.json, "edapply")
	// Apply always returns a Result; its error is Result.Errors.Err(), which
	// the receipt reports, so only the Result is kept.
	aopts := apply.Options{
		Root:   opts.root,
		Strict: opts.strict,
		// A response with a region that did not parse is refused whole, but
		// its parsed edits are still planned so the receipt reports their
		// errors too: one round trip to the model fixes them all.
		DryRun:         dryRun || len(r.perrs) > 0,
		Base:           r.base,
		TrimTrailingWS: opts.trimWS,
		PathPrefixes:   opts.prefixes,
		Encoding:       opts.encoding,
		Verify:         verify,
		LockTimeout:    lockTimeout(opts.lockTO),
		ForceReadOnly:  opts.forceRO,
		NoSync:         opts.noSync,
		Repair:         repair,
		RepairAttempts: opts.attempts,
	}
	aopts.Omit.Hashes = !opts.json // the human receipt shows none
	// Only a dry run's diff, and the human receipt's word on what a failed
	// --verify put back, read the new content.
	aopts.Omit.After = !dryRun && verify == nil
	gctune.BudgetApply(opts.root, r.src, r.edits)
	aopts.Progress = placing(meter)
	res, _ := apply.Apply(ctx, r.edits, aopts)
	meter.Done()
	if len(r.perrs) > 0 {
		res.OK, res.DryRun = false, dryRun
		res.Errors = append(r.perrs, res.Errors...)
	}
	inCLIWords(res.Errors)
	// The status is taken before the receipt is written, so that the
	// Result, and the files and texts it holds, need not outlive the
	// receipt's own records while a --json receipt is encoded.
	status := resultStatus(res)
	if err := writeApplyReceipt(out, errOut, opts, res, r); err != nil {
		return err
	}
	return status
}

// writeApplyReceipt prints res as the flags ask: the JSON receipt, with
// the reply as applied when r is given and it differs from the reply as
// sent; with --check only the errors, on errOut; else the human receipt.
func writeApplyReceipt(out, errOut io.Writer, opts *applyOptions, res *apply.Result, r *loadedReply) error {
	switch {
	case opts.json:
		rc := report.NewReceipt(res)
		if r != nil {
			rc.Normalized, _ = report.Normalized(r.src, r.edits, res)
		}
		return report.WriteJSON(out, rc)
	case opts.check:
		if res.Verify == "skipped" && res.OK {
			fmt.Fprintln(errOut, "edapply: --verify not run: --check writes nothing")
		}
		return report.Errors(errOut, res, opts.color.enabled(errOut))
	}
	return writeHuman(out, res, opts.color)
}

// writeHuman prints the human receipt of res, after the diff that a
// successful dry run would write, cut as a receipt's text is.
func writeHuman(out io.Writer, res *apply.Result, color colorMode) error {
	if res.DryRun && res.OK {
		var d bytes.Buffer
		if err := report.Diff(&d, res); err != nil {
			return err
		}
		if d.Len() > 0 {
			// The receipt after the diff keeps its own budget.
			if _, err := io.WriteString(out, textcut.Cut(d.String(), textcut.Budget/4)+"\n"); err != nil {
				return err
			}
		}
	}
	return report.Human(out, res, color.enabled(out))
}

// ignoredRegions counts the regions of the edits -f left unread, which
// --format auto reads, and names their formats.
func ignoredRegions(ignored []edit.Edit) (int, []string) {
	regions := map[int]bool{}
	var formats []string
	for _, e := range ignored {
		if regions[e.Start] {
			continue
		}
		regions[e.Start] = true
		if name := e.Format.String(); !slices.Contains(formats, name) {
			formats = append(formats, name)
		}
	}
	slices.Sort(formats)
	return len(regions), formats
}
