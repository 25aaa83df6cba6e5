package fsio

import (
	"context"
	"fmt"
	"time"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
)

// LockWaitHook, when set (by tests), is called once by a LockRoot that
// found the lock held and is about to wait for it.
var LockWaitHook func()

// LockRoot takes the root's lock for a commit, a rollback or an undo, and
// returns the function that releases it. Every edapply in the root, in
// this process or another, takes the same lock, so that one's re-check of
// a file and its rename are never split by another's. It waits up to
// timeout (not at all when it is 0 or less) and then refuses with IO_ERROR, before anything is written. Where the file
// system keeps no locks (see lockDir), it goes ahead unlocked.
func LockRoot(ctx context.Context, dir string, timeout time.Duration) (func(), *edit.Error) {
	timeout = max(timeout, 0)
	unlock, held, err := lockDir(ctx, dir, timeout)
	if err != nil {
		return nil, &edit.Error{Code: edit.CodeIO, Edit: -1, Msg: "cannot lock the root " + dir + ": " + ErrMsg(err), Err: err}
	}
	if held {
		return nil, remedy.Mark(&edit.Error{Code: edit.CodeIO, Edit: -1,
			Msg:  fmt.Sprintf("another edapply is writing in %s; gave up waiting after %v; nothing was written", dir, timeout),
			Hint: "Retry once it has finished."}, remedy.LockTimeout)
	}
	return unlock, nil
}
