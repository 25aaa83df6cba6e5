package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNoWorkTree is Files' error for no names outside a git work tree (or
// without git on PATH): there is nothing to say what changed.
var ErrNoWorkTree = errors.New("not in a git work tree (or git is not installed)")

// Files lints the named files, or, when names is empty, the files of the
// current directory's git work tree that differ from HEAD and the
// untracked ones that are not ignored. In a git work tree each file is
// compared with its version at HEAD (see [File]). A named file that cannot
// be read is an error (an *fs.PathError), as a typo must not pass as
// clean; in the changed-files listing a symlink, a submodule or a file
// deleted since has nothing to lint and is skipped.
func Files(ctx context.Context, names []string) ([]Finding, error) {
	inGit := gitWorkTree(ctx)
	explicit := len(names) > 0
	if !explicit {
		if !inGit {
			return nil, ErrNoWorkTree
		}
		var err error
		if names, err = gitChangedFiles(ctx); err != nil {
			return nil, err
		}
	}
	var found []Finding
	for _, name := range names {
		fi, err := os.Lstat(name)
		if !explicit && (err != nil || !fi.Mode().IsRegular()) {
			continue
		}
		content, err := os.ReadFile(name)
		if err != nil {
			return found, err
		}
		var base []byte
		if inGit {
			base = gitHeadVersion(ctx, name)
		}
		found = append(found, File(name, content, base)...)
	}
	return found, nil
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
			return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
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
