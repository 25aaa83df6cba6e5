package textenc

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"sync"
)

// maxConfig is the most of a .gitattributes or .editorconfig read: a
// larger one (a file of the tree may be hostile) declares nothing.
const maxConfig = 1 << 20

// A Resolver says what encoding each file of a tree is in. It reads the
// tree's .gitattributes and .editorconfig files (and .git/info/attributes)
// through its fs.FS, each once, and never above the tree's root: the FS
// of an os.Root keeps every read inside it. It is safe for concurrent use.
type Resolver struct {
	fsys   fs.FS
	forced *Encoding
	mu     sync.Mutex
	attrs  map[string][]attrRule // by directory ("" for the root)
	info   []attrRule
	ecs    map[string]*ecFile // by directory; nil when it has none
	loaded bool               // info is read
}

// NewResolver returns the resolver of the tree fsys is; forced, when not
// "", is the encoding of every file (--encoding), which wins over what
// the tree declares.
func NewResolver(fsys fs.FS, forced string) (*Resolver, error) {
	r := &Resolver{fsys: fsys, attrs: map[string][]attrRule{}, ecs: map[string]*ecFile{}}
	if forced != "" {
		e, err := Lookup(forced, "--encoding")
		if err != nil {
			return nil, err
		}
		r.forced = e
	}
	return r, nil
}

// A DeclError is a declaration that names an encoding edapply does not
// have.
type DeclError struct {
	Name, Source string
	Err          error
}

func (e *DeclError) Error() string {
	return e.Source + " declares the encoding " + e.Name + ": " + e.Err.Error()
}

// For returns the encoding of the file at name, a slash-separated path
// from the root, whose bytes (when it exists) are data: the forced one,
// the one .gitattributes or .editorconfig declares, or the one a UTF-16
// byte order mark shows. nil means UTF-8. A declaration that names no
// encoding edapply has is a *DeclError.
func (r *Resolver) For(name string, data []byte, exists bool) (*Encoding, error) {
	if r.forced != nil {
		if r.forced.UTF8() {
			return nil, nil
		}
		return r.forced, nil
	}
	e, err := r.declared(name)
	if err != nil {
		return nil, err
	}
	if e != nil && !e.UTF8() {
		return e, nil
	}
	if exists {
		return sniff(data), nil
	}
	return nil, nil
}

// sniff is the encoding data's byte order mark shows: UTF-16's (not
// UTF-32's, whose little-endian mark begins as UTF-16's); nil for none.
func sniff(data []byte) *Encoding {
	var name string
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}):
		return nil
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		name = "utf-16le"
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		name = "utf-16be"
	default:
		return nil
	}
	e, _ := Lookup(name, markSource)
	return e
}

// declared is the encoding the tree declares for name: .gitattributes'
// working-tree-encoding first, then .editorconfig's charset; nil when
// neither does.
func (r *Resolver) declared(name string) (*Encoding, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// An attribute unset or unspecified says nothing of the encoding:
	// .editorconfig may.
	if v, src, ok := r.attribute(name); ok && v != "" {
		e, err := Lookup(v, src)
		if err != nil {
			return nil, &DeclError{Name: v, Source: src, Err: err}
		}
		return e, nil
	}
	if v, src, ok := r.charset(name); ok && v != "" {
		return Lookup(v, src)
	}
	return nil, nil
}

// attribute is working-tree-encoding for name as git decides it: the
// last line that says something of it in the attributes file of highest
// precedence that has one (.git/info/attributes, then the deepest
// directory's .gitattributes up to the root's).
func (r *Resolver) attribute(name string) (value, source string, ok bool) {
	if !r.loaded {
		r.loaded = true
		if fi, err := fs.Stat(r.fsys, ".git"); err == nil && fi.IsDir() {
			if b, ok := r.read(".git/info/attributes"); ok {
				r.info = parseAttributes(string(b))
			}
		}
	}
	if v, ok := decide(r.info, "", name); ok {
		return v, ".git/info/attributes", true
	}
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		d := dir
		if d == "." {
			d = ""
		}
		rules, seen := r.attrs[d]
		if !seen {
			if b, ok := r.read(path.Join(dir, ".gitattributes")); ok {
				rules = parseAttributes(string(b))
			}
			r.attrs[d] = rules
		}
		if v, ok := decide(rules, d, name); ok {
			return v, path.Join(dir, ".gitattributes"), true
		}
		if d == "" {
			return "", "", false
		}
	}
}

// decide is what the last of rules (those of the file in dir) that
// matches name says.
func decide(rules []attrRule, dir, name string) (string, bool) {
	for k := len(rules) - 1; k >= 0; k-- {
		if rules[k].matches(dir, name) {
			return rules[k].value, true
		}
	}
	return "", false
}

// charset is the charset .editorconfig sets for name: the nearest file's
// that sets one, up to the root or a file that says root = true.
func (r *Resolver) charset(name string) (value, source string, ok bool) {
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		f, seen := r.ecs[dir]
		if !seen {
			if b, ok := r.read(path.Join(dir, ".editorconfig")); ok {
				f = parseEditorconfig(b)
			}
			r.ecs[dir] = f
		}
		if f != nil {
			rel := name
			if dir != "." {
				rel = name[len(dir)+1:]
			}
			if v, ok := f.charset(rel); ok {
				return v, path.Join(dir, ".editorconfig"), true
			}
			if f.isRoot() {
				return "", "", false
			}
		}
		if dir == "." {
			return "", "", false
		}
	}
}

// read returns the regular file at name, not through a symlink (git
// reads no attributes through one), when it is at most maxConfig bytes.
func (r *Resolver) read(name string) ([]byte, bool) {
	if lfs, ok := r.fsys.(fs.ReadLinkFS); ok {
		fi, err := lfs.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() {
			return nil, false
		}
	}
	f, err := r.fsys.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil && !errors.Is(err, io.EOF) || len(b) > maxConfig {
		return nil, false
	}
	return b, true
}
