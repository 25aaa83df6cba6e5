package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// ErrNoWorkTree is Files' error for no names outside a git work tree (or
// without git on PATH): there is nothing to say what changed.
var ErrNoWorkTree = errors.New("not in a git work tree (or git is not installed)")

// Options are Files' settings; the zero value is the default.
type Options struct {
	// Progress, when set, is called after each file is checked (or
	// skipped) with how many have been and how many there are in all.
	Progress func(checked, total int)
}

// Files lints the named files, or, when names is empty, the files of the
// current directory's git work tree that differ from HEAD and the
// untracked ones that are not ignored. In a git work tree each file is
// compared with its version at HEAD (see [File]). A named file that cannot
// be read is an error (an *fs.PathError), as a typo must not pass as
// clean; in the changed-files listing a symlink, a submodule or a file
// deleted since has nothing to lint and is skipped.
//
// Files starts a fixed number of git processes whatever the number of
// files: the committed versions come through one git cat-file --batch.
func Files(ctx context.Context, names []string, opts Options) ([]Finding, error) {
	tree, inGit := gitWorkTree(ctx)
	explicit := len(names) > 0
	var (
		bases []string // the object each file's committed version is; "" for none
		err   error
	)
	switch {
	case !explicit && !inGit:
		return nil, ErrNoWorkTree
	case !explicit:
		if names, bases, err = gitChangedFiles(ctx, tree.head); err != nil {
			return nil, err
		}
	case inGit && tree.head:
		bases = namedBases(ctx, tree.prefix, names)
	}
	blobs, err := startBlobs(ctx, bases)
	if err != nil {
		return nil, err
	}
	defer blobs.close()

	var found []Finding
	var content []byte
	for i, name := range names {
		var base []byte
		if i < len(bases) && bases[i] != "" {
			if base, err = blobs.next(); err != nil {
				return found, err
			}
		}
		if !explicit {
			if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
				report(opts, i, len(names))
				continue
			}
		}
		// File copies what it keeps, so one buffer serves every file.
		if content, err = readFile(name, content[:0]); err != nil {
			return found, err
		}
		found = append(found, File(name, content, base)...)
		report(opts, i, len(names))
	}
	return found, nil
}

func report(opts Options, i, total int) {
	if opts.Progress != nil {
		opts.Progress(i+1, total)
	}
}

// readFile appends the content of the file name to buf, as os.ReadFile
// reads it (an error is an *fs.PathError).
func readFile(name string, buf []byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		buf = slices.Grow(buf, int(fi.Size())+1) // +1: the read that sees EOF
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// A workTree is what Files needs to know of the current directory's git
// work tree.
type workTree struct {
	prefix string // the directory's path from the top: "" there, else ending in "/"
	head   bool   // whether HEAD names a commit (not before the first)
}

// gitWorkTree reports whether the current directory is inside a git work
// tree with git on PATH, and what Files needs to know of it, in one
// process.
func gitWorkTree(ctx context.Context) (workTree, bool) {
	// "true", the prefix and HEAD's id, a line each; without a commit
	// yet, the last is missing and the status is 1.
	out, err := git(ctx, nil, "rev-parse", "--is-inside-work-tree", "--show-prefix", "--verify", "--quiet", "HEAD")
	var exit *exec.ExitError
	noHead := errors.As(err, &exit) && exit.ExitCode() == 1
	if err != nil && !noHead {
		return workTree{}, false
	}
	rest, ok := strings.CutPrefix(string(out), "true\n")
	if !ok {
		return workTree{}, false
	}
	// The prefix is printed as it is, a newline in it included.
	rest = strings.TrimSuffix(rest, "\n")
	if noHead {
		return workTree{prefix: rest}, true
	}
	i := strings.LastIndexByte(rest, '\n')
	if i < 0 {
		return workTree{}, false
	}
	return workTree{prefix: rest[:i], head: true}, true
}

// gitChangedFiles lists the files that differ from HEAD in the work tree or
// index, and the untracked files that are not ignored, relative to the
// current directory and under it, sorted so the report's order is stable;
// and for each the object id of its version at HEAD, "" where there is
// none. Before the first commit there is no HEAD, so every tracked file is
// new.
func gitChangedFiles(ctx context.Context, head bool) (files, bases []string, err error) {
	// The untracked files are listed meanwhile: each listing walks the
	// tree, and there are two cores to walk it on.
	var (
		others    sync.WaitGroup
		othersOut []byte
		othersErr error
	)
	others.Go(func() {
		othersOut, othersErr = git(ctx, nil, "ls-files", "-z", "--others", "--exclude-standard")
	})
	defer others.Wait() // on an early return too: no process outlives Files

	headOf := make(map[string]string) // path → blob at HEAD
	var listed []string
	if head {
		// -z: names as they are, never quoted; --relative: paths from the
		// current directory, as ls-files prints them. --raw gives each
		// path's blob at HEAD, so no file needs a process of its own.
		// A submodule is no file to lint: whether its work tree is dirty,
		// which git would ask a process of its own, does not matter.
		out, err := git(ctx, nil, "diff", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-color",
			"--ignore-submodules=dirty", "--relative", "HEAD", "--")
		if err != nil {
			return nil, nil, fmt.Errorf("git diff --raw HEAD: %w", err)
		}
		entries, err := parseRaw(out)
		if err != nil {
			return nil, nil, fmt.Errorf("git diff --raw HEAD: %w", err)
		}
		for _, e := range entries {
			if e.base != "" {
				headOf[e.path] = e.base
			}
			// A deletion has no file; but a path removed from the index
			// and kept in the work tree is untracked and still has its
			// version at HEAD, which ls-files --others does not give.
			if !e.deleted {
				listed = append(listed, e.path)
			}
		}
	} else {
		out, err := git(ctx, nil, "ls-files", "-z", "--cached")
		if err != nil {
			return nil, nil, fmt.Errorf("git ls-files --cached: %w", err)
		}
		listed = splitNUL(out, listed)
	}
	others.Wait()
	if othersErr != nil {
		return nil, nil, fmt.Errorf("git ls-files --others: %w", othersErr)
	}
	listed = splitNUL(othersOut, listed)

	slices.Sort(listed)
	listed = slices.Compact(listed)
	bases = make([]string, len(listed))
	for i, f := range listed {
		bases[i] = headOf[f]
		listed[i] = filepath.FromSlash(f)
	}
	return listed, bases, nil
}

// A rawEntry is one path of git diff --raw.
type rawEntry struct {
	path    string
	base    string // the blob at HEAD; "" when none (added, a submodule)
	deleted bool
}

// parseRaw reads git diff --raw -z output: for each path
// ":srcmode dstmode srcoid dstoid status\0path\0".
func parseRaw(out []byte) ([]rawEntry, error) {
	var entries []rawEntry
	for len(out) > 0 {
		head, rest, ok := bytes.Cut(out, []byte{0})
		if !ok || len(head) == 0 || head[0] != ':' {
			return nil, fmt.Errorf("unexpected output %q", truncate(head))
		}
		p, rest, ok := bytes.Cut(rest, []byte{0})
		if !ok {
			return nil, fmt.Errorf("no path after %q", truncate(head))
		}
		out = rest
		f := strings.Fields(string(head[1:]))
		if len(f) < 5 {
			return nil, fmt.Errorf("unexpected output %q", truncate(head))
		}
		e := rawEntry{path: string(p), deleted: f[4] == "D"}
		if isBlobMode(f[0]) && strings.Trim(f[2], "0") != "" {
			e.base = f[2]
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// isBlobMode reports whether a git tree mode is a file's or a symlink's,
// whose object is a blob; a submodule's (160000) is a commit of another
// repository.
func isBlobMode(m string) bool {
	return m == "100644" || m == "100755" || m == "120000"
}

func truncate(b []byte) []byte { return b[:min(len(b), 80)] }

// splitNUL appends the NUL-terminated names in out to names.
func splitNUL(out []byte, names []string) []string {
	for f := range strings.SplitSeq(string(out), "\x00") {
		if f != "" {
			names = append(names, f)
		}
	}
	return names
}

// namedBases returns, for each of names, the object that is its version
// at HEAD as git cat-file reads one: "HEAD:path", path from the top of
// the work tree, whose prefix is the current directory's. A name outside
// the work tree has none (""). git cat-file reads one name a line and
// drops a CR before the newline, so a name with a newline or ending in a
// CR is looked up by git ls-tree instead, which takes its names as
// arguments.
func namedBases(ctx context.Context, prefix string, names []string) []string {
	bases := make([]string, len(names))
	var awkward []int // indexes of names cat-file cannot read
	wd := ""
	for i, name := range names {
		rel := name
		if filepath.IsAbs(name) {
			if wd == "" {
				var err error
				if wd, err = os.Getwd(); err != nil {
					return bases
				}
			}
			var err error
			if rel, err = filepath.Rel(wd, name); err != nil {
				continue
			}
		}
		p := path.Clean(prefix + filepath.ToSlash(rel))
		if p == "." || p == ".." || strings.HasPrefix(p, "../") {
			continue // git would refuse it, ending the batch
		}
		bases[i] = p
		if strings.Contains(p, "\n") || strings.HasSuffix(p, "\r") {
			awkward = append(awkward, i)
			continue
		}
		bases[i] = "HEAD:" + p
	}
	if len(awkward) > 0 {
		paths := make([]string, len(awkward))
		for k, i := range awkward {
			paths[k] = bases[i]
		}
		blobs := headBlobs(ctx, paths)
		for _, i := range awkward {
			bases[i] = blobs[bases[i]]
		}
	}
	return bases
}

// headBlobs returns the blob at HEAD of each of paths (from the top of
// the work tree) that has one, by git ls-tree, a few hundred KiB of names
// a process.
func headBlobs(ctx context.Context, paths []string) map[string]string {
	const argBytes = 128 << 10 // well under any system's argument limit
	blobs := make(map[string]string, len(paths))
	env := append(os.Environ(), "GIT_LITERAL_PATHSPECS=1") // a '*' in a name is a '*'
	for len(paths) > 0 {
		n, size := 0, 0
		for n < len(paths) && (n == 0 || size+len(paths[n]) < argBytes) {
			size += len(paths[n]) + 1
			n++
		}
		args := append([]string{"ls-tree", "-z", "--full-tree", "HEAD", "--"}, paths[:n]...)
		paths = paths[n:]
		out, err := git(ctx, env, args...)
		if err != nil {
			continue // git cannot say: no committed version, as for a name not in it
		}
		for rec := range strings.SplitSeq(string(out), "\x00") {
			// "mode SP type SP oid TAB path"
			meta, p, ok := strings.Cut(rec, "\t")
			if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
				blobs[p] = f[2]
			}
		}
	}
	return blobs
}

// git runs git with args in the current directory and returns its stdout;
// env, when not nil, is its environment. Its stderr goes into the error,
// never to the user: lint's own output is the findings. When git exits
// with a status other than 0 the error wraps an *exec.ExitError, and the
// stdout is returned too.
func git(ctx context.Context, env []string, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	c := exec.CommandContext(ctx, "git", args...)
	c.Stdout, c.Stderr, c.Env = &stdout, &stderr, env
	if err := c.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = &gitError{msg: msg, err: err}
		}
		return stdout.Bytes(), err
	}
	return stdout.Bytes(), nil
}

// A gitError is git's failure, told in its own words.
type gitError struct {
	msg string // what git wrote on stderr
	err error  // how it ended
}

func (e *gitError) Error() string { return e.msg }
func (e *gitError) Unwrap() error { return e.err }
