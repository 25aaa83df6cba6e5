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

// TestRunFixerTimeout: a fixer past its time is an error, its output does
// not count.
func TestRunFixerTimeout(t *testing.T) {
	out, err := runFixer(context.Background(), "echo partial; sleep 30", t.TempDir(), 200*time.Millisecond, nil)
	if err == nil || !strings.Contains(err.Error(), "timed out") || out != nil {
		t.Fatalf("runFixer = %q, %v; want a timeout error and no output", out, err)
	}
}

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

func TestRunFixerOutputLimit(t *testing.T) {
	if _, err := runFixer(context.Background(), "head -c 5000000 /dev/zero", t.TempDir(), 10*time.Second, nil); err == nil {
		t.Error("runFixer accepted more than maxFixerOutput bytes")
	}
	out, err := runFixer(context.Background(), "cat", t.TempDir(), 10*time.Second, []byte("in"))
	if err != nil || string(out) != "in" {
		t.Errorf("runFixer(cat) = %q, %v; want the input back", out, err)
	}
}
