package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
)

type hashOptions struct {
	root string
}

func newHashCmd(opts *hashOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hash [flags] PATH...",
		Short: "Print the SHA-256 of files as sha256sum does, for --base",
		Long: `hash prints one "HASH  PATH" line per file, HASH being the lowercase hex
SHA-256 of its raw bytes, exactly as sha256sum prints it. "-" is stdin.
With -C DIR, a relative PATH is read from DIR and printed as given, the
name --base takes when applying with the same -C.
A file that cannot be read is reported on stderr and the status is 1.`,
		Example: `  edapply hash main.go go.mod

  # Pin the version the model saw: apply refuses (OUT_OF_DATE) if it changed
  edapply --base main.go=$(edapply hash main.go | cut -c1-16) reply.md

  # The same for a tree elsewhere
  edapply -C ~/src/proj --base main.go=$(edapply hash -C ~/src/proj main.go | cut -c1-16) reply.md`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHash(opts, args, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVarP(&opts.root, "root", "C", ".", "read relative paths from `DIR`")
	registerCompletions(cmd)
	return cmd
}

// runHash hashes every path, going on past unreadable ones as sha256sum does.
func runHash(opts *hashOptions, paths []string, in io.Reader, out, errOut io.Writer) error {
	if err := checkRoot(opts.root); err != nil {
		return err
	}
	var failed bool
	for _, p := range paths {
		var b []byte
		var err error
		switch {
		case p == "-":
			b, err = io.ReadAll(in)
		case filepath.IsAbs(p):
			b, err = os.ReadFile(p)
		default:
			b, err = os.ReadFile(filepath.Join(opts.root, p))
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
