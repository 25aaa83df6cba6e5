package apply

import (
	"context"
	"time"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/journal"
	"github.com/edapply/edapply/edit"
)

// HistorySize is how many journals a root keeps: its last applies, which
// Undo takes back newest first.
const HistorySize = journal.HistorySize

// DefaultLockTimeout is how long an Apply or Undo waits for another one
// working in the same root (see Options.LockTimeout): far longer than any
// commit takes, short enough that a harness hears of a stuck process.
const DefaultLockTimeout = 30 * time.Second

// lockRoot is fsio.LockRoot with timeout as Options.LockTimeout reads:
// DefaultLockTimeout when 0, no wait when negative.
func lockRoot(ctx context.Context, dir string, timeout time.Duration) (func(), *edit.Error) {
	if timeout == 0 {
		timeout = DefaultLockTimeout
	}
	return fsio.LockRoot(ctx, dir, timeout)
}

var errMsg = fsio.ErrMsg
