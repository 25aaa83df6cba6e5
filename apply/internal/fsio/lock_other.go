//go:build !unix

package fsio

import (
	"context"
	"os"
	"time"
)

// lockDir takes no lock where there is no flock(2): applies in one root
// rely on their re-check of every file before its rename alone.
func lockDir(context.Context, string, time.Duration) (func(), bool, error) {
	return func() {}, false, nil
}

// TryLock takes no lock where there is no flock(2); see lockDir.
func TryLock(*os.File) bool { return true }
