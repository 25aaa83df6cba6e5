package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/mcp"
)

type mcpOptions struct {
	root     string
	strict   bool
	prefixes []string // --path-prefix
}

func newMCPCmd(opts *mcpOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "Serve the working tree to an agent as an MCP server over stdio",
		Long: `mcp serves the Model Context Protocol over stdin and stdout (JSON-RPC,
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
not a protocol error. Nothing is written to stdout but protocol messages.`,
		Example: `  # Register with a client (Claude Desktop, Cursor, ...): its mcpServers entry
  {"mcpServers": {"edapply": {"command": "edapply", "args": ["mcp", "-C", "/path/to/repo"]}}}`,
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCP(cmd.Context(), opts, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.root, "root", "C", ".", "working tree `DIR`; every path resolves inside it")
	fs.BoolVar(&opts.strict, "strict", false, "exact matching only (no tolerance ladder)")
	fs.StringArrayVar(&opts.prefixes, "path-prefix", nil, "an absolute path under `P` names the file under the root (where the model sees the tree); repeatable")
	registerCompletions(cmd)
	return cmd
}

func runMCP(ctx context.Context, opts *mcpOptions, in io.Reader, out io.Writer) error {
	if err := checkRoot(opts.root); err != nil {
		return err
	}
	return mcp.Serve(ctx, mcp.Options{Root: opts.root, Strict: opts.strict, PathPrefixes: opts.prefixes, Version: version()}, in, out)
}
