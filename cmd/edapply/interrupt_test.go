//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestInterruptContextCatchesFromDone: the context catches no signal
// until its Done is asked for (an interrupt before then ends the process,
// which has written nothing), catches them once however often Done is
// asked for, and an interrupt after that cancels it.
func TestInterruptContextCatchesFromDone(t *testing.T) {
	// The test's own channel keeps the test process alive throughout.
	own := make(chan os.Signal, 1)
	signal.Notify(own, os.Interrupt)
	defer signal.Stop(own)

	ctx := newInterruptContext()
	defer ctx.cancel()
	catches := 0
	ctx.notify = func(c chan<- os.Signal, sig ...os.Signal) {
		catches++
		signal.Notify(c, sig...)
	}
	if err := ctx.Err(); catches != 0 || err != nil {
		t.Fatalf("before Done: %d catches, Err %v; want none and nil", catches, err)
	}
	done := ctx.Done()
	ctx.Done()
	if catches != 1 {
		t.Fatalf("after Done: %d catches, want 1", catches)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("an interrupt after Done was asked for did not cancel the context")
	}
	if ctx.Err() == nil {
		t.Fatal("Done is closed but Err is nil")
	}
}
