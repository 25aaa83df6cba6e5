package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/internal/cli"
)

// newMCPCmd returns `edapply mcp`, which checks its flags as the server
// does and then runs the server, the program cli.MCPServer, with them.
// The server is a program of its own so that edapply does not link the
// MCP SDK, whose package inits would run on every call of the command.
func newMCPCmd() *cobra.Command {
	opts := &cli.MCPOptions{}
	return cli.NewMCPCommand("mcp", opts, func(cmd *cobra.Command) error {
		server, err := cli.FindMCPServer()
		if err == nil {
			err = cli.CheckMCPServer(cmd.Context(), server, cli.Version(), cli.MCPVersionTimeout)
		}
		if err != nil {
			printEditError(cmd.ErrOrStderr(), err)
			return exitStatus(exitFailed)
		}
		return runMCPServer(server, mcpServerArgs(cmd.Flags()))
	})
}

// mcpServerArgs are the server's arguments: each flag given to `edapply
// mcp`, as --name=value (a value that starts with "-" stays a value),
// each value of a repeated flag in its order.
func mcpServerArgs(fs *pflag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args
}
