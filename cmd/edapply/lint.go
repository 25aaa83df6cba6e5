package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/internal/cli"
	"github.com/edapply/edapply/internal/progress"
	"github.com/edapply/edapply/lint"
)

func newLintCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "lint [FILE...]",
		Short: "Find edit markers and elided code left in files, for pre-commit",
		Long: `lint reports what a model's edit left behind in files: SEARCH/REPLACE and
git conflict markers, *** Begin Patch envelope lines, and placeholders such
as "// ... existing code ..." that stand in for code. It prints one
"path:line: kind: text" line per finding; kind is conflict-marker,
search-replace-marker, patch-envelope or elision. The text is cut to 200
bytes, a file's findings past the first 50 are summed up a line per kind,
and the report stops at 1 MiB with a line counting what it left out.

Only lines new since the last commit count: each file is compared with its
version at HEAD, so a placeholder or marker that is already committed (a
README's example, a test fixture) is not reported. Without FILE, lint checks
the files that differ from HEAD in the working tree and the untracked ones
(git diff HEAD, git ls-files --others); outside a git work tree FILE is
required. Binary files are skipped; in Markdown, fenced code blocks are
examples and are skipped too. A run longer than two seconds shows the files
checked on stderr when it is a terminal.

Exit status: 0 nothing found; 1 something found; 2 usage error.`,
		Example: `  # Lint what changed since the last commit (and untracked files)
  edapply lint

  # Lint named files, whether or not they changed
  edapply lint main.go docs/notes.md

  # As a pre-commit hook: see .pre-commit-hooks.yaml (id: edapply-lint)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			meter := progress.New(progress.To(cmd.ErrOrStderr(), false), "lint", "files checked")
			return runLint(cmd.Context(), args, cmd.OutOrStdout(), meter)
		},
	}
}

// runLint lints files, or the files changed in the git work tree when
// files is empty, and prints the findings to out; meter, when not nil,
// shows the files checked while it runs.
func runLint(ctx context.Context, files []string, out io.Writer, meter *progress.Meter) error {
	var opts lint.Options
	if meter != nil {
		opts.Progress = meter.Update
	}
	found, err := lint.Files(ctx, files, opts)
	meter.Done() // before the findings, on the same terminal
	if werr := lint.Write(out, found); werr != nil && err == nil {
		err = werr
	}
	var unreadable *fs.PathError
	switch {
	case errors.Is(err, lint.ErrNoWorkTree):
		return cli.Usagef("lint: %v; name the files to lint", err)
	case errors.As(err, &unreadable):
		return cli.Usagef("lint: %v", err)
	case err != nil:
		return fmt.Errorf("lint: %w", err)
	case len(found) > 0:
		return exitStatus(exitFailed) // the findings are printed already
	}
	return nil
}
