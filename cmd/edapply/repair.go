package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/shell"
	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

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
		out, err := shell.Fix(ctx, root, cmdline, timeout, in)
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
