package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/report"
)

type normalizeOptions struct{ planOptions }

func newNormalizeCmd(opts *normalizeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "normalize [flags] [RESPONSE_FILE]",
		Short: "Print the reply rewritten to what applying it would do; write nothing",
		Long: `normalize reads a model's reply from RESPONSE_FILE (or stdin), plans it
against the working tree as a dry run (nothing is written) and prints the
reply rewritten to what applying it would do: each SEARCH or old text
replaced by the exact text found in the file, each replacement as it would
be written, diff hunks with correct context and line numbers. Each edit
keeps its own format and the prose between edits keeps its bytes, so the
reply can stand in the conversation history the model sees next, and it
applies with --strict.

An edit that would fail is printed as written; the status is then 1.
An edit that cannot be rewritten in its format is written as a canonical
SEARCH/REPLACE block, or left as written with a warning on stderr.
A run longer than two seconds shows the edits placed on stderr when it is
a terminal.

Exit status: 0 every edit would apply; 1 an edit would fail (the reply is
still printed); 2 usage error or no edit parsed.`,
		Example: `  # Rewrite a reply to what it does to the tree, for the next turn's history
  edapply normalize reply.md > reply.normalized.md

  # The same text comes with the receipt of a real apply
  edapply --json reply.md | jq -r .normalized`,
		Args:              cli.UsageArgs(cobra.MaximumNArgs(1)),
		ValidArgsFunction: completeResponseFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.response = args[0]
			}
			return runNormalize(cmd.Context(), opts, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fs := cmd.Flags()
	addPlanFlags(fs, &opts.planOptions, "report OUT_OF_DATE unless `PATH=HASH` (SHA-256, 8+ hex digits) matches; repeatable")
	registerCompletions(cmd)
	return cmd
}

// runNormalize prints the normalized response. It plans as a dry run, so
// nothing in the tree is written and no undo journal is recorded.
func runNormalize(ctx context.Context, opts *normalizeOptions, in io.Reader, out, errOut io.Writer) error {
	r, err := loadReply(&opts.planOptions, in)
	if err != nil {
		return err
	}
	if len(r.edits) == 0 {
		for _, e := range r.perrs {
			fmt.Fprintf(errOut, "edapply: %v\n", e)
		}
		return exitStatus(exitUsage)
	}
	meter := newMeter(errOut, false, "normalize")
	aopts := apply.Options{Root: opts.root, Strict: opts.strict, DryRun: true, TrimTrailingWS: opts.trimWS, Base: r.base,
		Encoding: opts.encoding, PathPrefixes: opts.prefixes}
	aopts.Omit.Hashes = true
	aopts.Progress = placing(meter)
	res, _ := apply.Apply(ctx, r.edits, aopts)
	meter.Done() // before the reply, on the same terminal
	inCLIWords(res.Errors)
	text, nerr := report.Normalized(r.src, r.edits, res)
	if text == "" { // the response as applied is the response as sent
		text = string(r.src)
	}
	if _, err := io.WriteString(out, text); err != nil {
		return err
	}
	if nerr != nil {
		fmt.Fprintf(errOut, "edapply: normalize: %v\n", nerr)
	}
	for _, e := range append(r.perrs, res.Errors...) {
		fmt.Fprintf(errOut, "edapply: %s: %v\n", e.Code, e)
	}
	if len(r.perrs) > 0 || !res.OK {
		return exitStatus(exitFailed)
	}
	return nil
}
