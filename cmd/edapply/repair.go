package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
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
		fixes, perrs := parse.Parse(string(out), parse.Options{})
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
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := shell.Command(ctx, root, cmdline)
	cmd.Stdin = bytes.NewReader(in)
	out := &limitedBuffer{max: maxFixerOutput}
	errTail := &tailBuffer{max: fixerStderrTail}
	cmd.Stdout = out
	cmd.Stderr = errTail
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0:
		return nil, fmt.Errorf("the fixer timed out after %v and was killed", timeout)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("the fixer was stopped: %w", ctx.Err())
	case errors.As(err, &exit):
		return nil, fmt.Errorf("the fixer exited with status %d%s", exit.ExitCode(), errTail.said())
	case err != nil:
		return nil, fmt.Errorf("the fixer did not run: %w", err)
	case out.over:
		return nil, fmt.Errorf("the fixer printed more than %d bytes", maxFixerOutput)
	}
	return out.Bytes(), nil
}

// fixerStderrTail is how much of a failing fixer's stderr its error keeps:
// the end, where the reason usually is.
const fixerStderrTail = 300

// A tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// said is "; stderr: …" with the tail on one line, or "" when the fixer
// wrote nothing there.
func (b *tailBuffer) said() string {
	t := strings.Join(strings.Fields(strings.ToValidUTF8(string(b.buf), "")), " ")
	if t == "" {
		return ""
	}
	return "; stderr: " + t
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
