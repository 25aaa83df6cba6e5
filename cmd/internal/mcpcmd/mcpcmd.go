// Package mcpcmd is the program edapply-mcp, the MCP server that `edapply
// mcp` runs: its flags, help and checks are package cli's, shared with
// edapply's mcp subcommand, and its tools package mcp's. It is a package,
// not only a main, so that edapply's tests can run it as a command.
package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/mcp"
)

// Main runs the server with the process's arguments and stdio, and
// returns the exit status: 0 when the client closed stdin and every call
// it sent has been answered, 2 for a usage error, 1 for any other failure.
func Main() int {
	// An interrupt cancels the context, so a call in progress stops before
	// its commit or rolls back, and Serve returns. Later ones are caught
	// until then: the library catches none, and one must not end the
	// process while a call puts files back.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := NewCommand()
	cmd.SetArgs(os.Args[1:])
	return exitCode(cmd.ExecuteContext(ctx), cmd.ErrOrStderr())
}

// NewCommand returns the edapply-mcp command.
func NewCommand() *cobra.Command {
	opts := &cli.MCPOptions{}
	cmd := cli.NewMCPCommand(cli.MCPServer, opts, func(cmd *cobra.Command) error {
		return mcp.Serve(cmd.Context(), mcp.Options{
			Root: opts.Root, Strict: opts.Strict, PathPrefixes: opts.PathPrefixes, Version: cli.Version(),
		}, cmd.InOrStdin(), cmd.OutOrStdout())
	})
	cmd.Version = cli.Version()
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &cli.UsageError{Err: err, Flags: true} })
	return cmd
}

// exitCode prints err to stderr and returns the status it stands for.
func exitCode(err error, stderr io.Writer) int {
	var usage *cli.UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "%s: %v\nRun '%s --help' for usage.\n", cli.MCPServer, err, cli.MCPServer)
		return 2
	default:
		fmt.Fprintf(stderr, "%s: %v\n", cli.MCPServer, err)
		return 1
	}
}
