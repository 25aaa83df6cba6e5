// Package shell runs a user's command line with sh -c, as --verify and
// --repair run theirs.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// errTimedOut is the cause of a run's context when its own timeout ended it.
var errTimedOut = errors.New("timed out")

// Run runs line with sh -c in dir, with stdin, stdout and stderr (nil:
// none), and returns nil when it exits 0. Any other end is an error that
// reads after the command's name: "timed out after 10s and was killed",
// "was interrupted: ...", "exited with status 1", "did not start: ...". A
// timeout of 0 sets none beyond ctx.
//
// Where the system has process groups the command gets one of its own,
// and the end of ctx or of the timeout kills the whole group: a command
// stopped so takes what it started (a compiler, a test binary, a model
// client) with it, and nothing it left running can write into the tree
// afterwards.
func Run(ctx context.Context, dir, line string, timeout time.Duration, stdin io.Reader, stdout, stderr io.Writer) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, errTimedOut)
		defer cancel()
	}
	c := exec.CommandContext(ctx, "sh", "-c", line)
	c.Dir = dir
	c.Stdin, c.Stdout, c.Stderr = stdin, stdout, stderr
	ownGroup(c)
	// A child the shell started may keep an output pipe open after sh is
	// killed; don't wait for it forever.
	c.WaitDelay = 2 * time.Second
	err := c.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case context.Cause(ctx) == errTimedOut:
		return fmt.Errorf("timed out after %v and was killed", timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("was interrupted: %w", context.Cause(ctx))
	case errors.As(err, &exit) && exit.Exited():
		return fmt.Errorf("exited with status %d", exit.ExitCode())
	case errors.As(err, &exit):
		return fmt.Errorf("was killed: %w", err)
	case errors.Is(err, exec.ErrWaitDelay):
		return errors.New("exited, but what it started kept its output open")
	}
	return fmt.Errorf("did not start: %w", err)
}

// A Tail keeps the last Max bytes written to it: of a command's output,
// the end, where compilers and test runners put the verdict.
type Tail struct {
	Max int
	buf []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	n := len(p)
	p = p[max(0, len(p)-t.Max):]
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.Max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return n, nil
}

// String returns the tail as valid UTF-8 (a cut may split a character).
func (t *Tail) String() string { return strings.ToValidUTF8(string(t.buf), "") }

// A Head keeps the first Max bytes written to it, and notes whether more
// came: a program's answer read only as far as it can be of use. It has
// no ReadFrom, so io.Copy cannot pass the limit by.
type Head struct {
	Max  int
	buf  []byte
	over bool
}

func (h *Head) Write(p []byte) (int, error) {
	room := h.Max - len(h.buf)
	if len(p) > room {
		h.over = true
	}
	h.buf = append(h.buf, p[:min(len(p), max(room, 0))]...)
	return len(p), nil
}

// Bytes returns the head kept.
func (h *Head) Bytes() []byte { return h.buf }

// Over reports whether more than Max bytes were written.
func (h *Head) Over() bool { return h.over }
