package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/report"
)

type parseOptions struct {
	root     string
	format   edit.Format
	strip    stripFlag
	response string // "" or "-" for stdin
	file     string // --file
}

func newParseCmd(opts *parseOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "parse [flags] [RESPONSE_FILE]",
		Short: "Print the edits in a model's reply as JSON; touch nothing",
		Long: `parse prints the edits found in RESPONSE_FILE (or stdin) and the regions
that failed to parse, as JSON. It writes nothing; it reads a file of the
working tree (--root) only where the reply alone is ambiguous: which of
several ======= lines splits a block, whether a bare name is a file, whether
a fence is a whole file or a snippet quoted from it.

Exit status: 0 every region parsed; 1 some region failed to parse;
2 no edit parsed at all.`,
		Example: `  # What did the model ask for? Paths, ops and the text of each edit
  edapply parse reply.md

  # Read the reply as unified diffs only; list each edit's op and path (with jq)
  edapply parse --format udiff reply.md | jq -r '.edits[] | "\(.op) \(.path)"'`,
		Args:              cli.UsageArgs(cobra.MaximumNArgs(1)),
		ValidArgsFunction: completeResponseFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.response = args[0]
			}
			return runParse(opts, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVarP(&opts.root, "root", "C", ".", "working tree `DIR` consulted where the reply is ambiguous")
	cmd.Flags().VarP(&opts.format, "format", "f", "edit format: "+edit.FormatNames())
	addFileFlag(cmd.Flags(), &opts.file)
	addStripFlag(cmd.Flags(), &opts.strip)
	registerCompletions(cmd)
	return cmd
}

// runParse prints the parse of the response. Its status follows apply's:
// a response with no edit is 2, one with a region that failed is 1.
func runParse(opts *parseOptions, in io.Reader, out io.Writer) error {
	popts := replyParseOptions(opts.format, opts.file)
	popts.Strip = opts.strip.value()
	_, edits, errs, err := readEdits(opts.response, popts, opts.root, in)
	if err != nil {
		return err
	}
	if err := report.ParseJSON(out, edits, errs); err != nil {
		return err
	}
	switch {
	case len(edits) == 0:
		return exitStatus(exitUsage)
	case len(errs) > 0:
		return exitStatus(exitFailed)
	}
	return nil
}
