package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// verifyTail is how much of the --verify command's output the receipt
// keeps: the end, where compilers and test runners put the verdict.
const verifyTail = 4 << 10

// Verify is apply.Options.Verify for --verify LINE: LINE runs via sh -c
// in the root, killed with what it started after timeout (0: none) or
// when ctx is done. A non-zero exit fails the apply; the output's tail
// goes to the receipt either way.
func Verify(line string, timeout time.Duration) func(context.Context, string) (string, error) {
	return func(ctx context.Context, root string) (string, error) {
		out := &Tail{Max: verifyTail}
		if err := Run(ctx, root, line, timeout, nil, out, out); err != nil {
			return out.String(), fmt.Errorf("--verify command %w", err)
		}
		return out.String(), nil
	}
}

// maxFixerOutput bounds what a --repair fixer may print: a corrected edit,
// not a dump. Output beyond it makes the fix count as failed.
const maxFixerOutput = 4 << 20

// fixerStderrTail is how much of a failing fixer's stderr its error keeps:
// the end, where the reason usually is.
const fixerStderrTail = 300

// Fix runs line, a --repair fixer, via sh -c in dir with stdin in, and
// returns its stdout. A fixer that exits non-zero, outlives timeout or
// prints more than maxFixerOutput bytes is an error, whose message ends
// with the tail of its stderr.
func Fix(ctx context.Context, dir, line string, timeout time.Duration, in []byte) ([]byte, error) {
	out := &Head{Max: maxFixerOutput}
	errTail := &Tail{Max: fixerStderrTail}
	if err := Run(ctx, dir, line, timeout, bytes.NewReader(in), out, errTail); err != nil {
		msg := "the fixer " + err.Error()
		// The tail on one line: the reason is in a receipt's message.
		if t := strings.Join(strings.Fields(errTail.String()), " "); t != "" {
			msg += "; stderr: " + t
		}
		return nil, errors.New(msg)
	}
	if out.Over() {
		return nil, fmt.Errorf("the fixer printed more than %d MiB: a corrected edit, not a dump, is its answer", maxFixerOutput>>20)
	}
	return out.Bytes(), nil
}
