// Command edapply applies the edits in an LLM's reply (SEARCH/REPLACE
// blocks, unified diffs, whole-file fences, Codex envelopes, JSON tool
// calls) to a working tree as one transaction, and prints a receipt.
package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

func main() { os.Exit(run()) }

// run executes the command line and returns the exit status.
func run() int {
	deferGC()
	args := os.Args[1:]
	ctx := newInterruptContext()
	defer ctx.cancel()
	if jsonAsked(args) {
		// A --json run owes its reader one receipt, an interrupted one
		// too: it catches the signals from the start.
		ctx.Done()
	}
	root := newRootCmdFor(args)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if wantsJSON(cmd, args, err) {
		writeUsageReceipt(root.OutOrStdout(), cmd, err)
	}
	return exitCode(err, root.ErrOrStderr())
}

// An interruptContext is cancelled by the first SIGINT or SIGTERM, so
// that apply stops before its commit or rolls back, and a --check or
// --repair command stops; a second interrupt kills the process the
// default way. It catches the signals only from the first call of Done
// on: whatever can be interrupted asks for it (the commit, a wait for
// the lock, a command run) before it starts, and until then an
// interrupt that ends the process the default way loses nothing, since
// nothing was written. Catching them costs a
// thread for os/signal and more in the runtime, which the calls that
// write nothing (a dry run, a refused edit, --version, hash, read) do
// not pay. Err stays nil until then: no signal was caught. A --json run
// asks for Done at once: the contract owes its reader exactly one JSON
// object, and one interrupted before its commit says so.
type interruptContext struct {
	context.Context
	cancel context.CancelFunc
	once   sync.Once
	notify func(c chan<- os.Signal, sig ...os.Signal) // signal.Notify
}

func newInterruptContext() *interruptContext {
	ctx, cancel := context.WithCancel(context.Background())
	return &interruptContext{Context: ctx, cancel: cancel, notify: signal.Notify}
}

func (c *interruptContext) Done() <-chan struct{} {
	c.once.Do(c.catch)
	return c.Context.Done()
}

// catch cancels c on the first SIGINT or SIGTERM. One goroutine waits
// for it (signal.NotifyContext and a goroutine to stop it would be two).
func (c *interruptContext) catch() {
	sigc := make(chan os.Signal, 1)
	c.notify(sigc, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigc
		signal.Stop(sigc)
		c.cancel()
	}()
}
