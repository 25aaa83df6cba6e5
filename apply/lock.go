package apply

import (
	"context"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/edit"
)

// lockRoot is fsio.LockRoot with timeout as Options.LockTimeout reads:
// DefaultLockTimeout when 0, no wait when negative.
func lockRoot(ctx context.Context, dir string, timeout time.Duration) (func(), *edit.Error) {
	if timeout == 0 {
		timeout = DefaultLockTimeout
	}
	return fsio.LockRoot(ctx, dir, timeout)
}

var errMsg = fsio.ErrMsg
