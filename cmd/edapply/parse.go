package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/parse"
	"github.com/edapply/edapply/report"
)

type parseOptions struct {
	format   parse.Format
	response string // "" or "-" for stdin
}

func newParseCmd(opts *parseOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "parse [flags] [RESPONSE_FILE]",
		Short: "Print the edits in a model's reply as JSON; touch nothing",
		Long: `parse prints the edits found in RESPONSE_FILE (or stdin) and the regions
that failed to parse, as JSON. It reads no file of the working tree.

Exit status: 0 every region parsed; 1 some region failed to parse;
2 no edit parsed at all.`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.response = args[0]
			}
			return runParse(opts, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().VarP(&opts.format, "format", "f", "edit format: auto, search-replace, udiff, whole, codex, json")
	return cmd
}

// runParse prints the parse of the response. Its status follows apply's:
// a response with no edit is 2, one with a region that failed is 1.
func runParse(opts *parseOptions, in io.Reader, out io.Writer) error {
	src, err := readResponse(opts.response, in, maxResponse)
	if err != nil {
		return err
	}
	edits, errs := parse.Parse(src, opts.format)
	if len(edits) == 0 && len(errs) == 0 {
		errs.Add(noEdits(src))
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
