package main

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
)

// newMCPCmd returns `edapply mcp`, which checks its flags as the server
// does and then runs the server, the program cli.MCPServer, with them.
// The server is a program of its own so that edapply does not link the
// MCP SDK, whose package inits would run on every call of the command.
func newMCPCmd() *cobra.Command {
	opts := &cli.MCPOptions{}
	return cli.NewMCPCommand("mcp", opts, func(cmd *cobra.Command) error {
		server, err := findMCPServer()
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

// mcpServerFile is the server's file name on this system.
func mcpServerFile() string {
	if runtime.GOOS == "windows" {
		return cli.MCPServer + ".exe"
	}
	return cli.MCPServer
}

// findMCPServer returns the server's path: beside the running edapply
// (symlinks resolved), where make build and go install put it, else on
// PATH. IO_ERROR, with how to install it, when neither has it.
func findMCPServer() (string, *edit.Error) {
	var dirs []string
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			dirs = append(dirs, filepath.Dir(exe))
		}
	}
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	if p, ok := lookMCPServer(dirs); ok {
		return p, nil
	}
	return "", &edit.Error{
		Code: edit.CodeIO,
		Edit: -1,
		Msg:  cli.MCPServer + " (the MCP server edapply mcp runs) is neither beside edapply nor on PATH",
		Hint: "Install both programs from a checkout: make build (bin/edapply and bin/" + cli.MCPServer +
			"), or CGO_ENABLED=0 go install ./cmd/..., which installs both in one directory.",
	}
}

// lookMCPServer returns the first of dirs that holds the server as a
// regular file the user may execute. A directory named in PATH that is
// not absolute is skipped, as os/exec skips it: it would find a program
// in whatever the current directory is, a working tree a model writes to.
func lookMCPServer(dirs []string) (string, bool) {
	name := mcpServerFile()
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if isExecutableFile(p) {
			return p, true
		}
	}
	return "", false
}

// isExecutableFile reports whether p is, after its symlinks, a regular
// file with an execute bit set (on Windows, where there is none, a
// regular file).
func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
