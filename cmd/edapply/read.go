package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/apply"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/report"
)

type readOptions struct {
	root     string
	offset   int
	column   int
	limit    int
	json     bool
	prefixes []string // --path-prefix
	encoding string   // --encoding
}

func newReadCmd(opts *readOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "read [flags] PATH",
		Short: "Print a file's lines numbered, with its SHA-256 for --base",
		Long: `read prints one line naming PATH, its SHA-256 (the value --base takes)
and the lines shown, then the lines themselves, each after its number
right-aligned in six columns and a tab, as cat -n prints them. A window
that stops before the end says the offset that reads on. PATH resolves in
the root exactly as an edit's path does: outside the root, missing, binary
or not a regular file, it is refused with the receipt's code.

At most --limit lines are shown (default 2000), fewer when they pass
256 KiB. Of a line longer than 64 KiB the window shows the first 64 KiB,
then a line saying how many bytes follow and the offset and --column
that read on: --column N starts the window's first line at its Nth byte
(from 1, in UTF-8). Line endings and a leading byte order mark are not
shown; the hash is of the file's raw bytes.

Exit status: 0 printed; 1 the file cannot be read; 2 usage error.`,
		Example: `  # Lines 120-159 of main.go, and its hash
  edapply read --offset 120 --limit 40 main.go

  # The window as JSON: path, sha256, start_line, end_line, total_lines, content
  edapply read --json -C ~/src/proj main.go`,
		Args: cli.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRead(opts, args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.root, "root", "C", ".", "working tree `DIR`; PATH resolves inside it")
	fs.IntVar(&opts.offset, "offset", 1, "first line to show, from `N`=1")
	fs.IntVar(&opts.column, "column", 1, "start the first line at its byte `N`=1, to read on in a long line")
	fs.IntVar(&opts.limit, "limit", apply.ReadLimit, "show at most `N` lines")
	fs.BoolVar(&opts.json, "json", false, "print the window as one JSON object")
	addPrefixFlag(fs, &opts.prefixes)
	addEncodingFlag(fs, &opts.encoding)
	registerCompletions(cmd)
	return cmd
}

// runRead prints the window, or says on stderr (in the JSON object with
// --json) why the file cannot be read.
func runRead(opts *readOptions, p string, out, errOut io.Writer) error {
	if opts.offset < 1 {
		return cli.Usagef("--offset must be at least 1")
	}
	if opts.limit < 1 {
		return cli.Usagef("--limit must be at least 1")
	}
	if opts.column < 1 {
		return cli.Usagef("--column must be at least 1")
	}
	if err := cli.CheckRoot(opts.root); err != nil {
		return err
	}
	if err := checkEncoding(opts.encoding); err != nil {
		return err
	}
	w, rerr := apply.Read(apply.Options{Root: opts.root, PathPrefixes: opts.prefixes, Encoding: opts.encoding}, p, opts.offset, opts.column, opts.limit)
	if rerr != nil {
		inCLIWords(edit.ErrorList{rerr})
	}
	if opts.json {
		if err := report.WriteJSON(out, report.NewReadOutput(w, rerr)); err != nil {
			return err
		}
	} else if rerr == nil {
		if err := report.Window(out, w); err != nil {
			return err
		}
	}
	if rerr != nil {
		if !opts.json {
			printEditError(errOut, rerr)
		}
		return exitStatus(exitFailed)
	}
	return nil
}
