package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/shell"
)

// checkTail is how much of the check command's output Result.CheckOutput
// keeps: the end, where compilers and test runners put the verdict.
const checkTail = 4 << 10

// runCheck runs cmd with sh -c in dir, keeping the tail of its combined
// output in res.CheckOutput. A non-zero exit, a timeout or a failure to
// start is CHECK_FAILED; the caller restores the files and says so in
// its message.
func runCheck(ctx context.Context, dir, cmd string, timeout time.Duration, res *Result) *edit.Error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	c := shell.Command(ctx, dir, cmd)
	var out tailBuffer
	c.Stdout, c.Stderr = &out, &out
	// A child the shell started may keep the output pipe open after sh is
	// killed; don't wait for it forever.
	c.WaitDelay = 2 * time.Second
	err := c.Run()
	res.CheckOutput = out.String()
	if err == nil {
		return nil
	}
	var msg string
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		msg = fmt.Sprintf("check command timed out after %v", timeout)
	case ctx.Err() != nil:
		msg = "check command interrupted: " + ctx.Err().Error()
	case errors.As(err, &ee) && ee.Exited():
		msg = fmt.Sprintf("check command failed with exit status %d", ee.ExitCode())
	default:
		msg = "check command failed: " + err.Error()
	}
	return &edit.Error{Code: edit.CodeCheckFailed, Edit: -1, Msg: msg, Err: err,
		Hint: "The edits were undone because `" + cmd + "` failed on them; read its output, fix the edits and resend them."}
}

// A tailBuffer keeps the last checkTail bytes written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= checkTail {
		t.b = append(t.b[:0], p[len(p)-checkTail:]...)
		return n, nil
	}
	if over := len(t.b) + len(p) - checkTail; over > 0 {
		t.b = t.b[:copy(t.b, t.b[over:])]
	}
	t.b = append(t.b, p...)
	return n, nil
}

func (t *tailBuffer) String() string { return string(bytes.ToValidUTF8(t.b, nil)) }
