package main

import (
	"context"
	"strings"
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

func TestRunFixerOutputLimit(t *testing.T) {
	if _, err := runFixer(context.Background(), "head -c 5000000 /dev/zero", t.TempDir(), 10*time.Second, nil); err == nil {
		t.Error("runFixer accepted more than maxFixerOutput bytes")
	}
	out, err := runFixer(context.Background(), "cat", t.TempDir(), 10*time.Second, []byte("in"))
	if err != nil || string(out) != "in" {
		t.Errorf("runFixer(cat) = %q, %v; want the input back", out, err)
	}
}
