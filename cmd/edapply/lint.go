package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

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
search-replace-marker, patch-envelope or elision.

Only lines new since the last commit count: each file is compared with its
version at HEAD (git show HEAD:path), so a placeholder or marker that is
already committed (a README's example, a test fixture) is not reported.
Without FILE, lint checks the files that differ from HEAD in the working tree
and the untracked ones (git diff HEAD, git ls-files --others); outside a git
work tree FILE is required. Binary files are skipped; in Markdown, fenced
code blocks are examples and are skipped too.

Exit status: 0 nothing found; 1 something found; 2 usage error.`,
		Example: `  # Lint what changed since the last commit (and untracked files)
  edapply lint

  # Lint named files, whether or not they changed
  edapply lint main.go docs/notes.md

  # As a pre-commit hook: see .pre-commit-hooks.yaml (id: edapply-lint)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLint(cmd.Context(), args, cmd.OutOrStdout())
		},
	}
}

// runLint lints files, or the files changed in the git work tree when
// files is empty, and prints the findings to out.
func runLint(ctx context.Context, files []string, out io.Writer) error {
	inGit := gitWorkTree(ctx)
	explicit := len(files) > 0
	if !explicit {
		if !inGit {
			return usagef("lint: not in a git work tree (or git is not installed); name the files to lint")
		}
		var err error
		if files, err = gitChangedFiles(ctx); err != nil {
			return err
		}
	}
	found := false
	for _, name := range files {
		// In the changed-files listing a symlink, a submodule or a file
		// deleted since has nothing to lint; a named one that cannot be
		// read is an error, as a typo must not pass as clean.
		fi, err := os.Lstat(name)
		if !explicit && (err != nil || !fi.Mode().IsRegular()) {
			continue
		}
		content, err := os.ReadFile(name)
		if err != nil {
			return usagef("lint: %v", err)
		}
		var base []byte
		if inGit {
			base = gitHeadVersion(ctx, name)
		}
		for _, f := range lint.File(name, content, base) {
			fmt.Fprintln(out, f)
			found = true
		}
	}
	if found {
		return exitStatus(exitFailed) // the findings are printed already
	}
	return nil
}

// gitWorkTree reports whether the current directory is inside a git work
// tree with git on PATH.
func gitWorkTree(ctx context.Context) bool {
	out, err := git(ctx, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// gitChangedFiles lists the files that differ from HEAD in the work tree or
// index, and the untracked files that are not ignored, relative to the
// current directory and under it, sorted so the report's order is stable. Before the first commit there is no
// HEAD, so every tracked file is new.
func gitChangedFiles(ctx context.Context) ([]string, error) {
	// -z: names as they are, never quoted; --relative: paths from the
	// current directory, as ls-files prints them; deletions have no file.
	changed := []string{"diff", "--name-only", "-z", "--relative", "--diff-filter=d", "HEAD", "--"}
	if _, err := git(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		changed = []string{"ls-files", "-z", "--cached"}
	}
	var files []string
	seen := make(map[string]bool)
	for _, args := range [][]string{changed, {"ls-files", "-z", "--others", "--exclude-standard"}} {
		out, err := git(ctx, args...)
		if err != nil {
			return nil, fmt.Errorf("lint: git %s: %w", strings.Join(args, " "), err)
		}
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" && !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	slices.Sort(files)
	for i, f := range files {
		files[i] = filepath.FromSlash(f)
	}
	return files, nil
}

// gitHeadVersion returns the content of name at HEAD, or nil when it has
// none (untracked, added since, no commit yet) or git cannot say.
func gitHeadVersion(ctx context.Context, name string) []byte {
	rel := filepath.Clean(name)
	if filepath.IsAbs(name) {
		wd, err := os.Getwd()
		if err != nil {
			return nil
		}
		if rel, err = filepath.Rel(wd, name); err != nil {
			return nil
		}
	}
	// "HEAD:./p" resolves p from the current directory, not the top.
	out, err := git(ctx, "show", "HEAD:./"+filepath.ToSlash(rel))
	if err != nil {
		return nil
	}
	return out
}

// git runs git with args in the current directory and returns its stdout.
// Its stderr goes into the error, never to the user: lint's own output is
// the findings.
func git(ctx context.Context, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	c := exec.CommandContext(ctx, "git", args...)
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}
