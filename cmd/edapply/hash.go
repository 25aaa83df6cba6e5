package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
)

func newHashCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "hash PATH...",
		Short: "Print the SHA-256 of files as sha256sum does, for --base",
		Long: `hash prints one "HASH  PATH" line per file, HASH being the lowercase hex
SHA-256 of its raw bytes, exactly as sha256sum prints it. "-" is stdin.
A file that cannot be read is reported on stderr and the status is 1.`,
		Example: `  edapply hash main.go go.mod

  # Pin the version the model saw: apply refuses (OUT_OF_DATE) if it changed
  edapply --base main.go=$(edapply hash main.go | cut -c1-16) reply.md`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHash(args, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
}

// runHash hashes every path, going on past unreadable ones as sha256sum does.
func runHash(paths []string, in io.Reader, out, errOut io.Writer) error {
	var failed bool
	for _, p := range paths {
		var b []byte
		var err error
		if p == "-" {
			b, err = io.ReadAll(in)
		} else {
			b, err = os.ReadFile(p)
		}
		if err != nil {
			fmt.Fprintf(errOut, "edapply: %v\n", err)
			failed = true
			continue
		}
		fmt.Fprintf(out, "%s  %s\n", apply.HashBytes(b), p)
	}
	if failed {
		return exitStatus(exitFailed)
	}
	return nil
}
