//go:build unix

package fsio

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockDir takes an exclusive flock(2) on the directory dir itself: the
// kernel releases it when the process dies, however it dies, so a killed
// apply never leaves the root locked. Any path to the directory (a
// symlink, a bind mount) names the same lock. held reports that the wait
// ran out with the lock still taken. A file system that refuses the lock
// (some network file systems: ENOLCK, EOPNOTSUPP, or an NFS client that
// wants a file open for writing) gives no error: the apply goes ahead
// unlocked, as it would on a system without flock, and relies on its
// re-check of every file before the rename. The directory is opened by
// OpenDir: never offered to the runtime's poller, and never a named pipe
// put in its place, whose open would wait for a writer.
func lockDir(ctx context.Context, dir string, wait time.Duration) (unlock func(), held bool, err error) {
	f, err := OpenDir(dir)
	if err != nil {
		return nil, false, err
	}
	release := func() { f.Close() } // closing the last descriptor drops the flock
	deadline := time.Now().Add(wait)
	// The wait polls: a blocking flock cannot be given a deadline. The
	// pause grows from 1 ms to 50 ms, so a commit of a few milliseconds is
	// followed closely and a long one costs few wake-ups.
	pause := time.Millisecond
	for waited := false; ; waited = true {
		err := flockNB(f)
		switch {
		case err == nil:
			return release, false, nil
		case !errors.Is(err, unix.EWOULDBLOCK):
			return release, false, nil // no locks here: see above
		}
		if !waited && LockWaitHook != nil {
			LockWaitHook()
		}
		left := time.Until(deadline)
		if left <= 0 {
			f.Close()
			return nil, true, nil
		}
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, false, ctx.Err()
		case <-t.C:
		}
		pause = min(pause*2, 50*time.Millisecond)
	}
}

// TryLock takes an exclusive flock(2) on f without waiting, and reports
// whether this process may go on: false when another holds it. A file
// system that keeps no locks says yes, as for the root's lock.
func TryLock(f *os.File) bool {
	err := flockNB(f)
	return err == nil || !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, errNoConn)
}

// errNoConn is flockNB's error for a file whose descriptor cannot be had.
var errNoConn = errors.New("no descriptor")

// flockNB tries once for an exclusive flock(2) on f, again after an
// interrupted call: nil when taken, EWOULDBLOCK when another holds it.
func flockNB(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return errNoConn
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			if ferr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB); ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return errNoConn
	}
	return ferr
}
