// Package cli holds what the two programs, edapply and edapply-mcp, say
// alike: the MCP server's flags, help and checks, the build's version, and
// what a usage error is; and how edapply finds the server and checks that
// it is of the same build (server.go). It imports neither the MCP SDK nor package mcp:
// edapply imports it and must not link them, whose package inits
// (net/http, TLS, encoding/gob, a JSON-schema library) would run on every
// call of the command, though only the server uses them.
package cli

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// MCPServer is the program that serves MCP: `edapply mcp` runs it.
const MCPServer = "edapply-mcp"

// A UsageError is a bad invocation: a flag, an argument, a response that
// cannot be read. The command prints it to stderr and exits 2. Flags marks
// a command line its flag set could not parse. Hint, when set, is what to
// do instead of reading the command's help: for a reply too large to
// read, the command line is not what is wrong.
type UsageError struct {
	Err   error
	Flags bool
	Hint  string
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with the formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// UsageArgs wraps check's error, a bad argument, as a UsageError.
func UsageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return &UsageError{Err: err}
		}
		return nil
	}
}

// CheckRoot refuses a root (-C) that is not a directory, as a usage error.
func CheckRoot(root string) error {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return Usagef("root %s is not a directory", root)
	}
	return nil
}

// Version reports the module version the binary was built from: a tag
// for `go install …@v1.2.3`, "(devel)" plus the VCS revision when known for
// a checkout build.
func Version() string {
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

// MCPOptions are the server's flags.
type MCPOptions struct {
	Root         string
	Strict       bool
	PathPrefixes []string // --path-prefix
}

// NewMCPCommand returns the command that serves MCP under the name use:
// "mcp", edapply's subcommand, or MCPServer, the server's own program. Its
// flags fill opts; it takes no argument and refuses a root that is not a
// directory (usage errors both), then calls serve.
func NewMCPCommand(use string, opts *MCPOptions, serve func(cmd *cobra.Command) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use + " [flags]",
		Short: "Serve the working tree to an agent as an MCP server over stdio",
		Long: use + ` serves the Model Context Protocol over stdin and stdout (JSON-RPC,
one message a line) until the client closes stdin. Its tools:

  read_file    {path, offset?, limit?}: the lines numbered as edapply read
               prints them, and the file's sha256
  edit_file    {path, edits: [{old_string, new_string, replace_all?}],
               base_hash?, dry_run?}: str_replace edits of one file, one
               transaction
  apply_edits  {reply, dry_run?, base?: {path: hash}}: a reply in any format
               edapply reads, as edapply applies it
  undo         {}: edapply undo for this root

Each path resolves inside the root (-C) as the command line's do. Each
result carries the receipt edapply --json prints as its structured content
and the human receipt as text; a failed edit is a result marked isError,
not a protocol error. Nothing is written to stdout but protocol messages.

The server is the program ` + MCPServer + `, installed beside edapply (make
build writes both to bin/): edapply mcp runs it with the same flags, once
its --version shows the same build, so a client may start either.`,
		Example: `  # Register with a client (Claude Desktop, Cursor, ...): its mcpServers entry
  {"mcpServers": {"edapply": {"command": "edapply", "args": ["mcp", "-C", "/path/to/repo"]}}}

  # The same server, started without edapply in between
  {"mcpServers": {"edapply": {"command": "` + MCPServer + `", "args": ["-C", "/path/to/repo"]}}}`,
		Args:              UsageArgs(cobra.NoArgs),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := CheckRoot(opts.Root); err != nil {
				return err
			}
			return serve(cmd)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.Root, "root", "C", ".", "working tree `DIR`; every path resolves inside it")
	fs.BoolVar(&opts.Strict, "strict", false, "exact matching only (no tolerance ladder)")
	fs.StringArrayVar(&opts.PathPrefixes, "path-prefix", nil, "an absolute path under `P` names the file under the root (where the model sees the tree); repeatable")
	if err := cmd.MarkFlagDirname("root"); err != nil {
		panic(fmt.Sprintf("edapply: completion for --root: %v", err))
	}
	return cmd
}
