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

// TestRunFixerTimeout checks that a fixer outliving its timeout is killed
// with everything it started, and that its output does not count.
func TestRunFixerTimeout(t *testing.T) {
	dir := t.TempDir()
	out, err := runFixer(context.Background(), "sleep 30 & echo $! > pid; echo partial; wait", dir, 200*time.Millisecond, nil)
	if err == nil || out != nil {
		t.Fatalf("runFixer = %q, %v; want a timeout error and no output", out, err)
	}
	b, rerr := os.ReadFile(filepath.Join(dir, "pid"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The background sleep was in the fixer's process group: it was sent
	// SIGKILL and must go (or be a zombie about to be reaped by init). The
	// wait is bounded only for a kill that never came: the sleep itself
	// lasts 30 s.
	deadline := time.Now().Add(25 * time.Second)
	for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
		if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(st), ") Z ") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(pid, 0) == nil {
		if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); !strings.Contains(string(st), ") Z ") {
			t.Errorf("the fixer's child %d survived the timeout", pid)
		}
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
