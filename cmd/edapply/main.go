// Command edapply applies the edits in an LLM's reply (SEARCH/REPLACE
// blocks, unified diffs, whole-file fences, Codex envelopes, JSON tool
// calls) to a working tree as one transaction, and prints a receipt.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(run()) }

// run executes the command line and returns the exit status.
func run() int {
	deferGC()
	// An interrupt cancels the context, so apply stops before its commit or
	// rolls back; a second interrupt kills the process the default way.
	// One goroutine waits for it (signal.NotifyContext and a goroutine to
	// stop it would be two, each a thread to wake at start-up).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigc
		signal.Stop(sigc)
		cancel()
	}()
	args := os.Args[1:]
	root := newRootCmdFor(args)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if wantsJSON(cmd, args, err) {
		writeUsageReceipt(root.OutOrStdout(), cmd, err)
	}
	return exitCode(err, root.ErrOrStderr())
}
