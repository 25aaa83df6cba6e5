//go:build unix

package main

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

// TestRunFixerKillsGroup: a fixer that is stopped is killed with
// everything it started. The fixer is stopped once its child is known, so
// the test waits on events, not on the machine's speed.
func TestRunFixerKillsGroup(t *testing.T) {
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
	out, err := runFixer(ctx, "sleep 100000 & echo $! > pid.tmp && mv pid.tmp pid; echo partial; wait", dir, 0, nil)
	if err == nil || out != nil {
		t.Fatalf("runFixer = %q, %v; want an error and no output", out, err)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The background sleep was in the fixer's process group: it was sent
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
