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
	start := time.Now()
	out, err := runFixer(context.Background(), "sleep 30 & echo $! > pid; echo partial; wait", dir, 200*time.Millisecond, nil)
	if err == nil || out != nil {
		t.Fatalf("runFixer = %q, %v; want a timeout error and no output", out, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("runFixer took %v after a 200ms timeout", d)
	}
	b, rerr := os.ReadFile(filepath.Join(dir, "pid"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The background sleep was in the fixer's process group: it must be
	// gone (or a zombie about to be reaped by init) by now.
	deadline := time.Now().Add(2 * time.Second)
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
