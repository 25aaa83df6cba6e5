package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
)

type hashOptions struct {
	root     string
	prefixes []string // --path-prefix
}

func newHashCmd(opts *hashOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hash [flags] PATH...",
		Short: "Print the SHA-256 of files as sha256sum does, for --base",
		Long: `hash prints one "HASH  PATH" line per file, HASH being the lowercase hex
SHA-256 of its raw bytes, exactly as sha256sum prints it, and PATH as
given: the name --base takes when applying with the same -C. "-" is stdin.
PATH resolves in the root exactly as an edit's path and a --base name do
(a path with \ separators, an absolute path inside the root or under a
--path-prefix); outside the root, missing or not a regular file, it is
refused with the receipt's code on stderr, the other paths are still
hashed, and the status is 1.`,
		Example: `  edapply hash main.go go.mod

  # Save the hash of the version the model sees; when its reply comes,
  # apply refuses (OUT_OF_DATE) if main.go changed meanwhile
  seen=$(edapply hash main.go | cut -c1-16)
  edapply --base main.go=$seen reply.md

  # The same for a tree elsewhere
  seen=$(edapply hash -C ~/src/proj main.go | cut -c1-16)
  edapply -C ~/src/proj --base main.go=$seen reply.md`,
		Args: cli.UsageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHash(opts, args, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVarP(&opts.root, "root", "C", ".", "working tree `DIR`; each PATH resolves inside it")
	addPrefixFlag(cmd.Flags(), &opts.prefixes)
	registerCompletions(cmd)
	return cmd
}

// runHash hashes every path, going on past refused ones as sha256sum
// goes on past unreadable ones.
func runHash(opts *hashOptions, paths []string, in io.Reader, out, errOut io.Writer) error {
	if err := cli.CheckRoot(opts.root); err != nil {
		return err
	}
	aopts := apply.Options{Root: opts.root, PathPrefixes: opts.prefixes}
	var failed bool
	for _, p := range paths {
		var hash string
		if p == "-" {
			// Streamed, as sha256sum reads it: stdin may be of any size.
			var err error
			if hash, err = apply.HashReader(in); err != nil {
				fmt.Fprintf(errOut, "edapply: %v\n", err)
				failed = true
				continue
			}
		} else {
			var herr *edit.Error
			if _, hash, herr = apply.Hash(aopts, p); herr != nil {
				printEditError(errOut, herr)
				failed = true
				continue
			}
		}
		fmt.Fprintf(out, "%s  %s\n", hash, p)
	}
	if failed {
		return exitStatus(exitFailed)
	}
	return nil
}
