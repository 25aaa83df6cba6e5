package apply

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/edapply/edapply/edit"
)

// maxLinks bounds the symlinks followed while resolving one path, as the
// kernel's ELOOP does, so a link cycle is an error rather than a hang.
const maxLinks = 40

// A resolver turns the paths a model wrote into clean, root-relative paths
// that contain no symlink, deciding OUT_OF_ROOT itself before any file is
// read. os.Root would refuse an escape on its own, but with an error that
// cannot be told from other failures and only once a read is attempted;
// walking the components here gives the contract's code and guarantees that
// nothing outside the root is even opened.
type resolver struct {
	root *os.Root
	abs  string // the root as an absolute path
	real string // abs with its own symlinks evaluated; absolute link targets are judged against both
}

func newResolver(root *os.Root, dir string) (*resolver, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &resolver{root: root, abs: abs, real: real}, nil
}

// resolve returns the slash-separated, root-relative path that p names once
// every symlink on the way is followed. The result has no symlink in any
// component, so reading and writing it touches the link's target and keeps
// the link itself. The returned error has Code, Msg and Hint set; the caller
// sets Path and Edit.
//
// Decided: a NUL byte is OUT_OF_ROOT (no file in the root can have that
// name, and the contract lists no better code). An absolute path that lies
// inside the root, judged component by component against the root as given
// and with its symlinks evaluated (so /w/tree2 is not inside /w/tree), is
// the corresponding relative path and is checked like one: tool calls in
// the style of Claude Code name files by absolute path. Any other absolute
// path is OUT_OF_ROOT, and so are Windows forms (C:\, C:/, \\server, \x,
// //server) and a backslash path whose ".." components would leave the
// root if backslashes were separators.
func (r *resolver) resolve(p string) (string, *edit.Error) {
	return r.resolveWith(p, r.root.Lstat, r.root.ReadFile)
}

// resolveWith is resolve, asking lstat about each root-relative component
// and reading a possible symlink stand-in with readFile.
func (r *resolver) resolveWith(p string, lstat func(string) (fs.FileInfo, error), readFile func(string) ([]byte, error)) (string, *edit.Error) {
	outside := func(msg string) (string, *edit.Error) {
		return "", &edit.Error{Code: edit.CodeOutOfRoot, Msg: msg,
			Hint: "Use a path relative to the root of the working tree, without \"..\" that leaves it."}
	}
	switch {
	case p == "":
		return outside("empty path")
	case strings.IndexByte(p, 0) >= 0:
		return outside("path contains a NUL byte")
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return outside("absolute Windows path " + p)
	case p[0] == '\\' || strings.HasPrefix(p, "//"):
		return outside("absolute Windows path " + p)
	case p[0] == '/':
		rel, ok := r.within(filepath.FromSlash(p))
		if !ok || !filepath.IsAbs(filepath.FromSlash(p)) {
			return outside("absolute path " + p + " is outside the root")
		}
		p = rel
	}
	if strings.Contains(p, `\`) {
		if c := path.Clean(strings.ReplaceAll(p, `\`, "/")); c == ".." || strings.HasPrefix(c, "../") {
			return outside("path " + p + " leaves the root")
		}
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return outside("path " + p + " leaves the root")
	}
	if c == "." {
		return ".", nil // the root itself; loading it reports "is a directory"
	}

	todo := strings.Split(c, "/")
	var done []string // resolved components: each exists and is a directory or the last one
	links := 0
	missing := false // a component did not exist; the rest is taken lexically
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			// done holds no symlink, so ".." is lexical here.
			if len(done) == 0 {
				return outside("path " + p + " leaves the root through a symlink")
			}
			done = done[:len(done)-1]
			continue
		}
		done = append(done, name)
		if missing {
			continue
		}
		cur := strings.Join(done, "/")
		fi, err := lstat(cur)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				missing = true
				continue
			}
			if isNotDir(err) {
				return "", &edit.Error{Code: edit.CodeIO, Msg: path.Dir(cur) + " is not a directory", Err: err,
					Hint: "A file stands where the path needs a directory; check the path."}
			}
			return "", &edit.Error{Code: edit.CodeIO, Msg: "cannot inspect " + cur + ": " + errMsg(err), Err: err}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if fi.Mode().IsRegular() && r.plainLinkEscapes(cur, fi, readFile) {
				return outside(cur + " is a symlink checked out as a plain file (core.symlinks=false) that points outside the root")
			}
			if len(todo) > 0 && !fi.IsDir() {
				return "", &edit.Error{Code: edit.CodeIO, Msg: cur + " is not a directory",
					Hint: "A file stands where the path needs a directory; check the path."}
			}
			continue
		}
		if links++; links > maxLinks {
			return "", &edit.Error{Code: edit.CodeIO, Msg: "too many levels of symbolic links in " + p}
		}
		target, err := r.root.Readlink(cur)
		if err != nil {
			return "", &edit.Error{Code: edit.CodeIO, Msg: "cannot read symlink " + cur + ": " + errMsg(err), Err: err}
		}
		done = done[:len(done)-1]
		if filepath.IsAbs(target) {
			rel, ok := r.within(target)
			if !ok {
				return outside("symlink " + cur + " points outside the root")
			}
			done = nil
			target = rel
		}
		if target == "" || strings.IndexByte(target, 0) >= 0 {
			return outside("symlink " + cur + " has an unusable target")
		}
		todo = append(strings.Split(filepath.ToSlash(target), "/"), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return strings.Join(done, "/"), nil
}

// plainLinkEscapes reports whether cur, a regular file, is a symlink
// stand-in pointing outside the root: git writes a symlink as a small file
// holding its target when core.symlinks is false (Windows, some CI and
// archive checkouts). Editing it as text, or through it as a directory,
// would ignore the user's link, so it is judged like the link it stands for.
func (r *resolver) plainLinkEscapes(cur string, fi fs.FileInfo, readFile func(string) ([]byte, error)) bool {
	if fi.Size() == 0 || fi.Size() > 1024 {
		return false
	}
	b, err := readFile(cur)
	if err != nil {
		return false
	}
	target := strings.TrimSuffix(string(b), "\n")
	if target == "" || strings.ContainsAny(target, " \t\r\n\x00") || !strings.Contains(target, "/") && target != ".." {
		return false
	}
	if filepath.IsAbs(target) {
		_, ok := r.within(target)
		return !ok
	}
	c := path.Clean(path.Join(path.Dir(cur), target))
	return c == ".." || strings.HasPrefix(c, "../")
}

// within reports whether the absolute path target lies in the root, and
// returns it relative to the root.
func (r *resolver) within(target string) (string, bool) {
	target = filepath.Clean(target)
	for _, base := range []string{r.real, r.abs} {
		rel, err := filepath.Rel(base, target)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if rel != ".." && !strings.HasPrefix(rel, "../") {
			return rel, true
		}
	}
	return "", false
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// errMsg returns the OS's reason without the operation and path, which
// os.Root reports relative to itself and a message already names.
func errMsg(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// A resolveCache remembers what resolve returned for each path string
// within one plan, and what Lstat said of each component on the way: a
// response that makes 500 edits to one file names it 500 times, one that
// edits 1,000 files in 20 directories names each directory 50 times, and
// each os.Root call walks every component from the root. Planning reads
// the tree without changing it, so the answers cannot change in between;
// commit does not use the cache (it changes the tree). With dirs set, a
// component is looked at through its directory's handle (see dirRoots),
// which planning goes on to read the file through.
type resolveCache struct {
	rs    *resolver
	dirs  *dirRoots
	seen  map[string]resolved
	stats map[string]lstatResult
}

type resolved struct {
	rel string
	err *edit.Error
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
}

// resolve is rs.resolve, once per distinct p. Callers set the error's Path
// and Edit, so each gets its own copy.
func (c *resolveCache) resolve(p string) (string, *edit.Error) {
	r, ok := c.seen[p]
	if !ok {
		r.rel, r.err = c.rs.resolveWith(p, c.lstat, c.readFile)
		if c.seen == nil {
			c.seen = map[string]resolved{}
		}
		c.seen[p] = r
	}
	if r.err != nil {
		e := *r.err
		return "", &e
	}
	return r.rel, nil
}

// lstat is Lstat of the root-relative path p, once per p. resolve asks
// only of a path whose parents it found to be directories, no symlinks.
func (c *resolveCache) lstat(p string) (fs.FileInfo, error) {
	if r, ok := c.stats[p]; ok {
		return r.fi, r.err
	}
	dir, name := c.in(p)
	var r lstatResult
	r.fi, r.err = dir.Lstat(name)
	if c.dirs != nil && r.err == nil && r.fi.Mode().IsRegular() {
		c.dirs.sawRegular(p)
	}
	if c.stats == nil {
		c.stats = map[string]lstatResult{}
	}
	c.stats[p] = r
	return r.fi, r.err
}

// readFile reads p, a small file resolve must judge (a symlink stand-in),
// through its directory's handle like lstat.
func (c *resolveCache) readFile(p string) ([]byte, error) {
	dir, name := c.in(p)
	return dir.ReadFile(name)
}

// in returns the handle to reach p by, and p's name there: its directory's
// (see dirRoots), else the root's.
func (c *resolveCache) in(p string) (*os.Root, string) {
	if c.dirs != nil {
		if dir, name, err := c.dirs.in(p); err == nil {
			return dir, name
		}
	}
	return c.rs.root, p
}
