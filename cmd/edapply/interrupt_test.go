//go:build unix

package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCatchInterrupts: the first SIGINT cancels the context, which names
// the signal as its cause, and a second one is caught too (it would end
// the test binary otherwise) until stop.
func TestCatchInterrupts(t *testing.T) {
	ctx, stop := catchInterrupts(context.Background())
	defer stop()
	for range 2 {
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
			t.Fatal("SIGINT did not cancel the context")
		}
	}
	// The second signal's delivery is asynchronous: give it time to reach
	// the process before stop restores the default, which would kill it.
	time.Sleep(100 * time.Millisecond)
	if cause := context.Cause(ctx); cause == nil || !strings.Contains(cause.Error(), "interrupt") {
		t.Errorf("cause %v, want one naming the interrupt", cause)
	}
}
