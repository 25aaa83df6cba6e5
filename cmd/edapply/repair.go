package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/shell"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

// maxFixerOutput bounds what a --repair fixer may print: a corrected edit,
// not a dump. Output beyond it makes the fix count as failed.
const maxFixerOutput = 4 << 20

// fixerStderrTail is how much of a failing fixer's stderr its error keeps:
// the end, where the reason usually is.
const fixerStderrTail = 300

// repairFunc builds apply.Options.Repair for --repair CMD: CMD runs via
// sh -c in root, in a process group of its own, with the failed edit on
// stdin as [report.RepairJSON] gives it; what it prints is parsed as a response.
// A fixer that exits non-zero, outlives timeout, prints too much, or prints
// nothing that parses cleanly into an edit fixes nothing: the original
// error stands. Its edits that name no file edit file (--file), as the
// reply's do.
func repairFunc(cmdline, root, file string, timeout time.Duration) func(context.Context, apply.RepairRequest) ([]edit.Edit, error) {
	return func(ctx context.Context, req apply.RepairRequest) ([]edit.Edit, error) {
		in, err := report.RepairJSON(req)
		if err != nil {
			return nil, err
		}
		out, err := runFixer(ctx, cmdline, root, timeout, in)
		if err != nil {
			return nil, err
		}
		fixes, perrs := parse.Parse(string(out), replyParseOptions(edit.FormatAuto, file))
		if len(perrs) > 0 {
			return nil, fmt.Errorf("the fixer's output did not parse: %w", perrs.Err())
		}
		if len(fixes) == 0 {
			return nil, errors.New("the fixer printed no edit")
		}
		return fixes, nil
	}
}

// runFixer runs cmdline with stdin in and returns its stdout.
func runFixer(ctx context.Context, cmdline, root string, timeout time.Duration, in []byte) ([]byte, error) {
	out := &shell.Head{Max: maxFixerOutput}
	errTail := &shell.Tail{Max: fixerStderrTail}
	if err := shell.Run(ctx, root, cmdline, timeout, bytes.NewReader(in), out, errTail); err != nil {
		msg := "the fixer " + err.Error()
		// The tail on one line: the reason is in a receipt's message.
		if t := strings.Join(strings.Fields(errTail.String()), " "); t != "" {
			msg += "; stderr: " + t
		}
		return nil, errors.New(msg)
	}
	if out.Over() {
		return nil, fmt.Errorf("the fixer printed more than %d bytes", maxFixerOutput)
	}
	return out.Bytes(), nil
}
