// Command edapply applies the edits in an LLM's reply (SEARCH/REPLACE
// blocks, unified diffs, whole-file fences, Codex envelopes, JSON tool
// calls) to a working tree as one transaction, and prints a receipt.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
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

// version reports the module version the binary was built from: a tag
// for `go install …@v1.2.3`, "(devel)" plus the VCS revision when known for
// a checkout build.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if v == "(devel)" && rev != "" {
		v += " " + rev[:min(len(rev), 12)] + dirty
	}
	return v
}
