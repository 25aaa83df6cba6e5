package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// repairFunc builds apply.Options.Repair for --repair CMD: CMD runs via
// sh -c in root, in a process group of its own, with the failed edit on
// stdin as a [report.RepairInput]; what it prints is parsed as a response.
// A fixer that exits non-zero, outlives timeout, prints too much, or prints
// nothing that parses cleanly into an edit fixes nothing: the original
// error stands. Every fix the fixer returns is recorded in log.
func repairFunc(cmdline, root string, timeout time.Duration) func(context.Context, apply.RepairRequest) ([]edit.Edit, error) {
	return func(ctx context.Context, req apply.RepairRequest) ([]edit.Edit, error) {
		in, err := json.Marshal(report.NewRepairInput(req))
		if err != nil {
			return nil, err
		}
		out, err := runFixer(ctx, cmdline, root, timeout, in)
		if err != nil {
			return nil, err
		}
		fixes, perrs := parse.Parse(out, parse.FormatAuto)
		if len(perrs) > 0 {
			return nil, fmt.Errorf("fixer output: %w", perrs.Err())
		}
		if len(fixes) == 0 {
			return nil, errors.New("fixer printed no edit")
		}
		return fixes, nil
	}
}

// runFixer runs cmdline with stdin in and returns its stdout.
func runFixer(ctx context.Context, cmdline, root string, timeout time.Duration, in []byte) ([]byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := shell.Command(ctx, root, cmdline)
	cmd.Stdin = bytes.NewReader(in)
	out := &limitedBuffer{max: maxFixerOutput}
	cmd.Stdout = out
	cmd.Stderr = io.Discard
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("fixer %w", ctx.Err())
	case err != nil:
		return nil, fmt.Errorf("fixer: %w", err)
	case out.over:
		return nil, fmt.Errorf("fixer printed more than %d bytes", maxFixerOutput)
	}
	return out.Bytes(), nil
}

// A limitedBuffer keeps the first max bytes written to it and notes more.
// It has no ReadFrom (an embedded bytes.Buffer would lend it one, which
// io.Copy would call instead of Write, bypassing the limit).
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }
