package apply

import (
	"context"
	"fmt"
	"time"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
)

// DefaultLockTimeout is how long an Apply or Undo waits for another one
// working in the same root (see Options.LockTimeout): far longer than any
// commit takes, short enough that a harness hears of a stuck process.
const DefaultLockTimeout = 30 * time.Second

// lockWaitHook, when set (by tests), is called once by a lockRoot that
// found the lock held and is about to wait for it.
var lockWaitHook func()

// lockRoot takes the root's lock for a commit, a rollback or an undo, and
// returns the function that releases it. Every edapply in the root, in
// this process or another, takes the same lock, so that one's re-check of
// a file and its rename are never split by another's. It waits up to
// timeout (DefaultLockTimeout when 0; not at all when negative) and then
// refuses with IO_ERROR, before anything is written. Where the file
// system keeps no locks (see lockDir), it goes ahead unlocked.
func lockRoot(ctx context.Context, dir string, timeout time.Duration) (func(), *edit.Error) {
	if timeout == 0 {
		timeout = DefaultLockTimeout
	}
	unlock, held, err := lockDir(ctx, dir, max(timeout, 0))
	if err != nil {
		return nil, &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot lock the root " + dir + ": " + errMsg(err), Err: err}
	}
	if held {
		return nil, remedy.Mark(&edit.Error{Code: edit.CodeIO, Edit: -1,
			Msg:  fmt.Sprintf("another edapply is writing in %s; gave up waiting after %v; nothing was written", dir, max(timeout, 0)),
			Hint: "Retry once it has finished."}, remedy.LockTimeout)
	}
	return unlock, nil
}
