//go:build unix

package shell

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunKillsGroup: a command that is stopped is killed with everything
// it started. It is stopped once its child is known, so the test waits on
// events, not on the machine's speed.
func TestRunKillsGroup(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pidFile := filepath.Join(dir, "pid")
	go func() {
		defer cancel()
		for {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	err := Run(ctx, dir, "sleep 100000 & echo $! > pid.tmp && mv pid.tmp pid; wait", 0, nil, nil, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "was interrupted") {
		t.Fatalf("Run = %v, want it interrupted", err)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The background sleep was in the command's process group: it was sent
	// SIGKILL and must go (or be a zombie about to be reaped by init). It
	// would otherwise outlive go test's own timeout, which then fails the
	// test.
	for syscall.Kill(pid, 0) == nil {
		if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(st), ") Z ") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
}
