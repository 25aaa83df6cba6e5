// Command edapply-mcp serves a working tree to a coding agent as a Model
// Context Protocol server over stdio, with edapply's engine behind its
// tools; `edapply mcp` runs it. It is a program of its own so that
// edapply, run on every edit, does not link the MCP SDK.
package main

import (
	"os"

	"github.com/edapply/edapply/cmd/internal/mcpcmd"
)

func main() { os.Exit(mcpcmd.Main()) }
