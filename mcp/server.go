// Package mcp serves edapply to coding agents as a Model Context Protocol
// server: tools to read a file with its hash, edit it by str_replace, apply
// a reply in any format edapply reads, and undo, all through the same
// library calls as the command line, so that every path resolves inside
// the root exactly as the CLI's do and every edit goes through the same
// tolerance ladder, atomic commit and undo journal.
//
// The official Go SDK speaks the protocol (its revisions, JSON-RPC framing
// and the tools' schemas, inferred from the input and output types here);
// this package is the only one that imports it.
package mcp

import (
	"context"
	"io"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures a server.
type Options struct {
	Root    string // the working tree; every path resolves inside it
	Version string // reported to the client in the handshake
	// StateDir is apply.Options.StateDir: where the undo journal lives; ""
	// for the user's default state directory.
	StateDir string
	Strict   bool // exact matching only, as --strict
	// PathPrefixes is apply.Options.PathPrefixes: where the client's model
	// sees the tree, as --path-prefix.
	PathPrefixes []string
}

// A server holds what the tools share. Writes (edits, applies, undo) take
// mu, so that the calls of one client, which may come concurrently, never
// plan against a tree another call is changing; apply's lock on the root
// keeps other processes out as well.
type server struct {
	opts    Options
	mu      sync.Mutex
	breaker breaker // the calls that failed, to tell one sent again
}

// instructions are what a client may put in the model's context once, for
// the server as a whole; each tool's description repeats what it needs.
const instructions = `edapply edits files in one working tree. Read a file with read_file before editing it, and keep the sha256 it returns: pass it as base_hash to edit_file so that an edit of a file that changed since is refused (OUT_OF_DATE) rather than misplaced. Quote old_string as whole lines copied from the file, without the line-number prefixes read_file shows. An edit that fails changes nothing; its result names the closest candidates and how to fix the edit. undo restores the files the last write changed.`

// New returns the MCP server for opts.Root with the tools read_file,
// edit_file, apply_edits and undo.
func New(opts Options) *sdk.Server {
	s := &server{opts: opts}
	version := opts.Version
	if version == "" {
		version = "(devel)"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "edapply", Version: version},
		&sdk.ServerOptions{Instructions: instructions})
	t := tools()
	// The low-level AddTool: the SDK's typed one checks a call's arguments
	// against the schema before the handler runs, and answers a call that
	// breaks it with its validator's text; these read their arguments
	// themselves (see args.go).
	srv.AddTool(t.readFile, s.readFile)
	srv.AddTool(t.editFile, s.editFile)
	srv.AddTool(t.applyEdits, s.applyEdits)
	srv.AddTool(t.undo, s.undo)
	return srv
}

// Serve runs the server over newline-delimited JSON-RPC on in and out
// (the stdio transport) until the client closes in or ctx is done. Every
// call read before in ends is answered, its handler run to its end, before
// Serve returns nil; once ctx is done, the calls in flight are cancelled
// (an apply not yet committed writes nothing) and Serve returns ctx's
// error.
func Serve(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	return serve(ctx, New(opts), in, out, nil)
}

// serve runs srv as Serve does; draining is drainingTransport's.
func serve(ctx context.Context, srv *sdk.Server, in io.Reader, out io.Writer, draining func()) error {
	srv.AddReceivingMiddleware(stopWith(ctx))
	t := &drainingTransport{
		Transport: &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}},
		draining:  draining,
	}
	return srv.Run(ctx, t)
}

// nopWriteCloser leaves closing the output to whoever opened it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
