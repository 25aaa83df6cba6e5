package paths

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/edit"
)

// maxLinks bounds the symlinks followed while resolving one path, as the
// kernel's ELOOP does, so a link cycle is an error rather than a hang.
const maxLinks = 40

// A Resolver turns the paths a model wrote into clean, root-relative paths
// that contain no symlink, deciding OUT_OF_ROOT itself before any file is
// read. os.Root would refuse an escape on its own, but with an error that
// cannot be told from other failures and only once a read is attempted;
// walking the components here gives the contract's code and guarantees that
// nothing outside the root is even opened.
type Resolver struct {
	Root *os.Root
	Abs  string // the root as an absolute path
	Real string // abs with its own symlinks evaluated; absolute link targets are judged against both
	// Prefixes are absolute paths at which the model sees the root
	// (apply's Options.PathPrefixes).
	Prefixes []string
}

// NewResolver returns the resolver for root, the tree opened at dir.
func NewResolver(root *os.Root, dir string) (*Resolver, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &Resolver{Root: root, Abs: abs, Real: real}, nil
}

// Resolve returns the slash-separated, root-relative path that p names once
// every symlink on the way is followed. The result has no symlink in any
// component, so reading and writing it touches the link's target and keeps
// the link itself. The returned error has Code, Msg and Hint set; the caller
// sets Path and Edit.
func (r *Resolver) Resolve(p string) (string, *edit.Error) {
	return r.resolveWith(p, r.Root.Lstat, r.Root.ReadFile)
}

// resolveWith is resolve, asking lstat about each root-relative component
// and reading a possible symlink stand-in with readFile.
func (r *Resolver) resolveWith(p string, lstat func(string) (fs.FileInfo, error), readFile func(string) ([]byte, error)) (string, *edit.Error) {
	c, perr := r.relative(p)
	if perr != nil {
		return "", perr
	}
	return r.walk(p, c, lstat, readFile)
}

// The hints of OUT_OF_ROOT, one for each way a path leaves the root.
const (
	hintRelative = "Name the file by its path relative to the root of the working tree."
	hintAbsolute = "Name the file by its path relative to the root of the working tree; an absolute path is read only when it lies inside the root."
	hintDotDot   = "Name the file by its path relative to the root of the working tree, without \"..\" that leaves it."
	hintLink     = "The link leads out of the working tree, and nothing outside it is read or written: leave the files behind it out of the edits."
)

// OutOfRoot is the OUT_OF_ROOT error Resolve returns, with msg and hint.
func OutOfRoot(msg, hint string) *edit.Error {
	return &edit.Error{Code: edit.CodeOutOfRoot, Msg: msg, Hint: hint}
}

// relative returns the clean, slash-separated, root-relative path that p
// names before any symlink is followed: the path the receipt, the diff
// headers and the journal show, whatever form the model wrote it in.
//
// Decided: a NUL byte is OUT_OF_ROOT (no file in the root can have that
// name, and the contract lists no better code). An absolute path that lies
// inside the root, judged component by component against the root as given
// and with its symlinks evaluated (so /w/tree2 is not inside /w/tree), is
// the corresponding relative path and is checked like one: tool calls in
// the style of Claude Code name files by absolute path. So is an absolute
// path under one of the path prefixes (--path-prefix), the place a harness
// shows the tree to its model. Any other absolute path is OUT_OF_ROOT, and
// so are Windows forms (C:\, C:/, \\server, \x, //server). A backslash is
// a separator, as on Windows where the model wrote the path, unless the
// path as written names an existing file: a Linux name may hold one, but a
// new file whose name holds backslashes is never what the model meant.
func (r *Resolver) relative(p string) (string, *edit.Error) {
	switch {
	case p == "":
		return "", OutOfRoot("empty path", hintRelative)
	case strings.IndexByte(p, 0) >= 0:
		return "", OutOfRoot("path contains a NUL byte", hintRelative)
	case isWindowsAbs(p):
		rel, ok := r.underPrefix(strings.ReplaceAll(p, `\`, "/"))
		if !ok {
			return "", OutOfRoot("absolute Windows path "+p, hintAbsolute)
		}
		p = rel
	case p[0] == '/':
		abs := filepath.FromSlash(p)
		rel, ok := r.within(abs)
		if !ok || !filepath.IsAbs(abs) {
			if rel, ok = r.underPrefix(p); !ok {
				return "", OutOfRoot("absolute path "+p+" is outside the root", hintAbsolute)
			}
		}
		p = rel
	}
	if strings.Contains(p, `\`) {
		literal := path.Clean(p)
		if _, err := r.Root.Lstat(literal); err != nil || Escapes(literal) {
			p = strings.ReplaceAll(p, `\`, "/")
		}
	}
	c := path.Clean(p)
	if Escapes(c) {
		return "", OutOfRoot("path "+p+" leaves the root", hintDotDot)
	}
	return c, nil
}

// Escapes reports whether the clean relative path c leaves the root.
func Escapes(c string) bool { return c == ".." || strings.HasPrefix(c, "../") }

// isWindowsAbs reports whether p is absolute, or drive-relative, as Windows
// reads it: C:\x, C:/x, C:x, \\server\share, \x. A path starting "//" is
// absolute on every system, and named so (see relative), not a Windows one.
func isWindowsAbs(p string) bool {
	return len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) || p != "" && p[0] == '\\'
}

// underPrefix returns the root-relative path that the absolute,
// slash-separated path p names when it lies under one of r.prefixes.
// Prefixes are compared component by component, so /repo2/x is not under
// /repo; a Windows drive letter in either is compared without case.
func (r *Resolver) underPrefix(p string) (string, bool) {
	p = path.Clean(p)
	for _, pre := range r.Prefixes {
		pre = path.Clean(strings.ReplaceAll(pre, `\`, "/"))
		if !strings.HasPrefix(pre, "/") && !isWindowsAbs(pre) {
			continue
		}
		if len(p) < len(pre) || !samePrefix(p[:len(pre)], pre) {
			continue
		}
		rest := p[len(pre):]
		switch {
		case rest == "":
			return ".", true
		case rest[0] == '/':
			return path.Clean(rest[1:]), true
		case strings.HasSuffix(pre, "/"): // the prefix is "/" itself
			return path.Clean(rest), true
		}
	}
	return "", false
}

// samePrefix compares a path's head with a prefix, a drive letter without case.
func samePrefix(head, pre string) bool {
	if len(pre) >= 2 && pre[1] == ':' && len(head) >= 2 {
		return strings.EqualFold(head[:1], pre[:1]) && head[1:] == pre[1:]
	}
	return head == pre
}

// walk follows c, a clean root-relative path that p named, component by
// component, and returns it with every symlink resolved.
func (r *Resolver) walk(p, c string, lstat func(string) (fs.FileInfo, error), readFile func(string) ([]byte, error)) (string, *edit.Error) {
	outside := func(msg string) (string, *edit.Error) { return "", OutOfRoot(msg, hintLink) }
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
			if fsio.IsNotDir(err) {
				return "", &edit.Error{Code: edit.CodeIO, Msg: path.Dir(cur) + " is not a directory", Err: err,
					Hint: "A file stands where the path needs a directory; check the path."}
			}
			return "", &edit.Error{Code: edit.CodeIO, Msg: "cannot inspect " + cur + ": " + fsio.ErrMsg(err), Err: err}
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
		target, err := r.Root.Readlink(cur)
		if err != nil {
			return "", &edit.Error{Code: edit.CodeIO, Msg: "cannot read symlink " + cur + ": " + fsio.ErrMsg(err), Err: err}
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
func (r *Resolver) plainLinkEscapes(cur string, fi fs.FileInfo, readFile func(string) ([]byte, error)) bool {
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
func (r *Resolver) within(target string) (string, bool) {
	target = filepath.Clean(target)
	for _, base := range []string{r.Real, r.Abs} {
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

// A Cache remembers what Resolve returned for each path string
// within one plan, and what Lstat said of each component on the way: a
// response that makes 500 edits to one file names it 500 times, one that
// edits 1,000 files in 20 directories names each directory 50 times, and
// each os.Root call walks every component from the root. Planning reads
// the tree without changing it, so the answers cannot change in between;
// commit does not use the cache (it changes the tree). With dirs set, a
// component is looked at through its directory's handle (see fsio.Dirs),
// which planning goes on to read the file through.
type Cache struct {
	Resolver *Resolver
	Dirs     *fsio.Dirs
	seen     map[string]resolved
	stats    map[string]lstatResult
}

// Lexical is the path p names before any symlink is followed (see
// relative), "" when it names none.
func (c *Cache) Lexical(p string) string { return c.lookup(p).lex }

type resolved struct {
	rel string
	lex string // relative's answer: the path to show
	err *edit.Error
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
}

// Resolve is Resolver.Resolve, once per distinct p. Callers set the error's Path
// and Edit, so each gets its own copy.
func (c *Cache) Resolve(p string) (string, *edit.Error) {
	r := c.lookup(p)
	if r.err != nil {
		e := *r.err
		return "", &e
	}
	return r.rel, nil
}

// Entry returns the root-relative path of the entry p names itself: its
// directories resolved as resolve resolves them, its last component kept
// even when it is a symlink, so that a delete or a rename acts on the
// link, not on what it points to. p must have resolved (resolve judged
// it inside the root, the link's target included).
func (c *Cache) Entry(p string) (string, *edit.Error) {
	r := c.lookup(p)
	if r.err != nil {
		e := *r.err
		return "", &e
	}
	if r.lex == "." {
		return r.rel, nil
	}
	dir, err := c.Resolve(path.Dir(r.lex))
	if err != nil {
		return "", err
	}
	return path.Join(dir, path.Base(r.lex)), nil
}

// IsLink reports whether rel, a root-relative path whose directories hold
// no symlink, is a symlink itself.
func (c *Cache) IsLink(rel string) bool {
	fi, err := c.Lstat(rel)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// Display returns the path to show for p, as written: clean, relative to
// the root, with "/" separators, its symlinks kept; p cleaned when it names
// nothing in the root.
func (c *Cache) Display(p string) string {
	if r := c.lookup(p); r.lex != "" && r.lex != "." {
		return r.lex
	}
	if cl := path.Clean(p); cl != "." {
		return cl
	}
	return p
}

// lookup resolves p once.
func (c *Cache) lookup(p string) resolved {
	r, ok := c.seen[p]
	if !ok {
		r.lex, r.err = c.Resolver.relative(p)
		if r.err == nil {
			r.rel, r.err = c.Resolver.walk(p, r.lex, c.Lstat, c.ReadFile)
		}
		if c.seen == nil {
			c.seen = map[string]resolved{}
		}
		c.seen[p] = r
	}
	return r
}

// Lstat is Lstat of the root-relative path p, once per p. resolve asks
// only of a path whose parents it found to be directories, no symlinks.
func (c *Cache) Lstat(p string) (fs.FileInfo, error) {
	if r, ok := c.stats[p]; ok {
		return r.fi, r.err
	}
	dir, name := c.In(p)
	var r lstatResult
	r.fi, r.err = dir.Lstat(name)
	if c.Dirs != nil && r.err == nil && r.fi.Mode().IsRegular() {
		c.Dirs.SawRegular(p)
	}
	if c.stats == nil {
		c.stats = map[string]lstatResult{}
	}
	c.stats[p] = r
	return r.fi, r.err
}

// ReadFile reads p, a small file resolve must judge (a symlink stand-in),
// through its directory's handle like lstat.
func (c *Cache) ReadFile(p string) ([]byte, error) {
	if c.Dirs != nil {
		if f, name := c.Dirs.FileIn(p); f != nil {
			if b, err := fsio.ReadRaw(f, name); err == nil {
				return b, nil
			}
		}
	}
	dir, name := c.In(p)
	return dir.ReadFile(name)
}

// In returns the handle to reach p by, and p's name there: its directory's
// (see fsio.Dirs), else the root's.
func (c *Cache) In(p string) (*os.Root, string) {
	if c.Dirs != nil {
		if dir, name, err := c.Dirs.In(p); err == nil {
			return dir, name
		}
	}
	return c.Resolver.Root, p
}
