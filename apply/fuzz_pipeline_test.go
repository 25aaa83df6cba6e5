package apply

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edapply/edapply/edit"
)

// FuzzPipeline builds a small tree and a list of edits from the fuzzer's
// bytes, runs Apply on them and checks the transaction's promises:
//   - no panic, and no temp file left;
//   - no INTERNAL: the check before commit (audit.go) never refuses a plan
//     but for a defect;
//   - when anything fails, the tree (contents, modes, directories, the file
//     outside the root) is byte for byte as it was, and no journal is named;
//   - on success, files no edit names are unchanged, and a file that one
//     edit alone touches holds what that edit makes of it, where that can
//     be worked out independently: a Replace whose Old stands in the file
//     exactly once (strings.Replace), a Create, Delete, Rewrite of a plain
//     LF file, a Rename.
//
// For an input of odd length the edits are applied with Omit.After, so that
// each edited file is written from its pieces, and the comparison with
// the edits one at a time holds those to the bytes.
func FuzzPipeline(f *testing.F) {
	f.Add([]byte("\x02\x00\x05\x01\x02\x03\x04\x05\x02\x00\x00\x01\x02\x03"))
	f.Add([]byte("\x03\x01\x04\x00\x01\x02\x03\x02\x05\x06\x07\x08\x09\x03\x00\x01\x01\x02\x04\x02\x03"))
	f.Add([]byte("\x01\x40\x03\x00\x01\x02\x03\x00\x00\x00\x01\x05"))
	f.Add([]byte("\x04\x80\x02\x07\x08\x83\x02\x01\x04\x10\x03\x01\x02\x05\x20\x01\x06\x03\x05\x07"))
	f.Add([]byte("\x02\x00\x03\x01\x02\x03\x06\x07\x02\x04\x04\x01\x04\x00\x04\x02\x01\x03"))
	f.Add([]byte("\x05\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x01\x02\x03\x04\x05\x06\x07\x08"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir, edits := pipeBuild(t, data)
		root := filepath.Join(dir, "root")
		before := pipeSnapshot(t, dir)

		opts := testOpts(t, root)
		opts.Omit.After = len(data)%2 == 1
		res, err := Apply(context.Background(), edits, opts)
		after := pipeSnapshot(t, dir)
		for p := range after.files {
			if strings.HasPrefix(path.Base(p), ".edapply-") {
				t.Errorf("temp file left: %s", p)
			}
		}
		if (err == nil) != res.OK || (err == nil) != (len(res.Errors) == 0) {
			t.Fatalf("Apply: err %v, OK %v, %d errors", err, res.OK, len(res.Errors))
		}
		// The check before commit refuses only what the planner got wrong.
		for _, e := range res.Errors {
			if e.Code == edit.CodeInternal {
				t.Fatalf("INTERNAL: %s\nedits:\n%s", e.Msg, showEdits(edits))
			}
		}
		if err != nil {
			if res.Journal != "" {
				t.Errorf("failed Apply named a journal %s", res.Journal)
			}
			pipeDiff(t, "after a failed Apply", after, before, nil)
			return
		}

		// Which paths each edit names, cleaned as the planner cleans them.
		named := map[string][]int{}
		for i, e := range edits {
			named[path.Clean(e.Path)] = append(named[path.Clean(e.Path)], i)
			if e.Op == edit.Rename {
				named[path.Clean(e.New)] = append(named[path.Clean(e.New)], i)
			}
		}
		aliased := before.links != 0 // link.txt is a.txt: judge both as named
		if aliased && (named["link.txt"] != nil || named["a.txt"] != nil) {
			named["link.txt"] = append(named["link.txt"], -1)
			named["a.txt"] = append(named["a.txt"], -1)
		}
		want := pipeTreeCopy(before)
		for p := range want.files {
			if named[strings.TrimPrefix(p, "root/")] != nil && strings.HasPrefix(p, "root/") {
				delete(want.files, p) // judged below, where possible
			}
		}
		skip := map[string]bool{}
		for p := range after.files {
			if named[strings.TrimPrefix(p, "root/")] != nil && strings.HasPrefix(p, "root/") {
				skip[p] = true
			}
		}
		pipeDiff(t, "files no edit names", after, want, skip)

		for i, e := range edits {
			p := path.Clean(e.Path)
			if len(named[p]) != 1 || e.Op == edit.Rename && len(named[path.Clean(e.New)]) != 1 {
				continue
			}
			orig, existed := before.files["root/"+p]
			got, exists := after.files["root/"+p]
			switch e.Op {
			case edit.Replace:
				if !existed || e.Old == "" || strings.Count(orig.data, e.Old) != 1 || !pipePlain(orig.data) || !pipePlain(e.New) {
					continue
				}
				if body := strings.TrimSuffix(e.Old, "\n"); body != e.Old && body != "" &&
					!strings.HasSuffix(orig.data, "\n") && strings.HasSuffix(orig.data, body) {
					continue // the end of the file is a second place (finder.exactHits)
				}
				// Only whole lines: a match inside a line is the looser
				// levels' business, with their own rules for the result.
				at := strings.Index(orig.data, e.Old)
				if at > 0 && orig.data[at-1] != '\n' || !strings.HasSuffix(e.Old, "\n") && at+len(e.Old) != len(orig.data) {
					continue
				}
				// Decided (locate/write.go): whole lines are meant, so a
				// replacement takes the old text's final-newline state; but
				// an old text without one ends the file here, and a new
				// text with one adds the file's final newline.
				nw := e.New
				switch {
				case nw == "":
				case strings.HasSuffix(e.Old, "\n") && !strings.HasSuffix(nw, "\n"):
					nw += "\n"
				}
				w := strings.Replace(orig.data, e.Old, nw, 1)
				switch {
				case !exists:
					t.Errorf("edit %d: %s gone after a Replace", i, p)
				case got.data == w:
				case got.data == orig.data && strings.Contains(e.New, e.Old):
					// A pure insertion already in place: already_applied.
				default:
					t.Errorf("edit %d: Replace(%q, %q) in %q = %q, want %q", i, e.Old, e.New, orig.data, got.data, w)
				}
				if exists && got.mode != orig.mode {
					t.Errorf("edit %d: %s mode %v, want %v", i, p, got.mode, orig.mode)
				}
			case edit.Create:
				if !exists || !existed && got.data != e.New {
					t.Errorf("edit %d: Create %s = %q (exists %v), want %q", i, p, got.data, exists, e.New)
				}
			case edit.Delete:
				if exists {
					t.Errorf("edit %d: %s still exists after Delete", i, p)
				}
			case edit.Rewrite:
				if !existed && (!exists || got.data != e.New) {
					t.Errorf("edit %d: Rewrite of absent %s = %q, want %q", i, p, got.data, e.New)
				}
				if existed && pipePlain(orig.data) && pipePlain(e.New) && strings.HasSuffix(orig.data, "\n") && strings.HasSuffix(e.New, "\n") &&
					(!exists || got.data != e.New) {
					t.Errorf("edit %d: Rewrite %s = %q, want %q", i, p, got.data, e.New)
				}
			case edit.Rename:
				dst, ok := after.files["root/"+path.Clean(e.New)]
				if exists || !ok || dst.data != orig.data || dst.mode != orig.mode {
					t.Errorf("edit %d: Rename %s → %s: source exists %v; destination %+v, want %+v", i, p, e.New, exists, dst, orig)
				}
			}
		}

		// One transaction is the same as the edits one at a time (each
		// seeing the last one's result on disk), when it succeeds. Not for
		// placeholders, which are judged against the original.
		// Nor when the reply creates a file again: together, the later
		// create is the file's new version (issue 31); one at a time, the
		// file stands before it.
		created := map[string]bool{}
		for _, e := range edits {
			if strings.Contains(e.Old+e.New, "...") {
				return
			}
			creates := e.Op == edit.Create || e.Op == edit.Replace && e.Old == "" || e.Op == edit.Rewrite
			p := path.Clean(e.Path)
			if p == "link.txt" {
				p = "a.txt" // the file the link leads to, which a create through it creates
			}
			if creates {
				if created[p] && e.Op != edit.Rewrite {
					return
				}
				created[p] = true
			}
		}
		dir2, _ := pipeBuild(t, data)
		for i, e := range edits {
			res, err := Apply(context.Background(), []edit.Edit{e}, testOpts(t, filepath.Join(dir2, "root")))
			if err != nil && strings.Contains(err.Error(), "directory") {
				// A file and a directory at one path in the middle of the
				// sequence (a.txt/x, then a.txt, then a.txt deleted):
				// planning tracks files, not directories, and only the
				// final tree must be possible.
				return
			}
			if err != nil {
				t.Fatalf("all edits apply together, but edit %d alone after the others fails: %v\n%+v", i, res.Errors, e)
			}
		}
		seq := pipeSnapshot(t, dir2)
		for p, g := range seq.files {
			// Deleted (or moved away) and created again with the same
			// bytes: together, the file is simply left, mode and all; one
			// at a time, it is a new file with the default mode.
			if w, ok := after.files[p]; ok && g.data == w.data && w == before.files[p] {
				seq.files[p] = w
			}
		}
		pipeDiff(t, "one at a time vs together", seq, after, map[string]bool{})
	})
}

// pipeBuild makes, from data, a directory holding a tree "root" and a file
// outside it, and the edits to apply to the tree; the same data makes the
// same tree and edits.
func pipeBuild(t *testing.T, data []byte) (string, []edit.Edit) {
	r := &pipeRand{data: data}
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "outside.txt"), []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := pipeTree(r)
	for name, c := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c.data), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, c.mode); err != nil {
			t.Fatal(err)
		}
	}
	// A link to a file in the tree, and one that escapes it.
	if r.intn(2) == 0 {
		os.Symlink("a.txt", filepath.Join(root, "link.txt"))
		os.Symlink("../outside.txt", filepath.Join(root, "out.txt"))
	}
	return dir, pipeEdits(r, files)
}

// pipeRand draws choices from the fuzzer's bytes; past their end every
// choice is 0.
type pipeRand struct {
	data []byte
	off  int
}

func (r *pipeRand) byte() byte {
	if r.off >= len(r.data) {
		return 0
	}
	r.off++
	return r.data[r.off-1]
}

func (r *pipeRand) intn(n int) int { return int(r.byte()) % n }

// pipeLines are the lines files and edits are made of: few, so that text
// repeats and edits find it, find it twice, or miss.
var pipeLines = []string{
	"package a", "func f() {", "\treturn nil", "}", "", "x := 1", "  x := 1", "x := 1 ", "caf\xe9 \x93q\x94",
	"“curly”", "// ... existing code ...", "```",
}

var pipeNames = []string{"a.txt", "b.go", "d/c.txt", "d/e/f.txt", "g.txt"}

// A pipeFile is a regular file's content and mode.
type pipeFile struct {
	data string
	mode fs.FileMode
}

func pipeText(r *pipeRand) string {
	var b strings.Builder
	n := r.intn(6)
	crlf := r.intn(4) == 0
	for i := 0; i < n; i++ {
		b.WriteString(pipeLines[r.intn(len(pipeLines))])
		if i < n-1 || r.intn(4) != 0 {
			if crlf {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func pipeTree(r *pipeRand) map[string]pipeFile {
	files := map[string]pipeFile{}
	n := 1 + r.intn(len(pipeNames))
	for i := 0; i < n; i++ {
		name := pipeNames[r.intn(len(pipeNames))]
		text := pipeText(r)
		switch r.intn(8) {
		case 0:
			text = bom + text
		case 1:
			text = "\xff\xfe" + "a\x00b\x00" // UTF-16
		case 2:
			text += "\x00"
		}
		mode := []fs.FileMode{0o644, 0o755, 0o600, 0o640}[r.intn(4)]
		files[name] = pipeFile{text, mode}
	}
	return files
}

// pipePaths are paths an edit may name beyond pipeNames: new ones, and
// hostile ones.
var pipePaths = []string{
	"new.txt", "n/e/w.txt", "./a.txt", "d/../a.txt", "link.txt", "out.txt", "../outside.txt", "/etc/passwd",
	"a\x00b", "", ".", "d", "a.txt/x", `..\outside.txt`, "C:/x",
}

func pipePath(r *pipeRand) string {
	if r.intn(3) == 0 {
		return pipePaths[r.intn(len(pipePaths))]
	}
	return pipeNames[r.intn(len(pipeNames))]
}

func pipeEdits(r *pipeRand, files map[string]pipeFile) []edit.Edit {
	var es []edit.Edit
	n := 1 + r.intn(4)
	for i := 0; i < n; i++ {
		e := edit.Edit{Path: pipePath(r), Line: i + 1}
		switch r.intn(6) {
		case 0, 1:
			e.Op, e.Count = edit.Replace, 1
			if r.intn(8) == 0 {
				e.Count = 0
			}
			e.New = pipeText(r)
			if f, ok := files[path.Clean(e.Path)]; ok && r.intn(4) != 0 {
				// A run of whole lines of the file, as models quote them.
				lines := strings.SplitAfter(f.data, "\n")
				from := r.intn(len(lines))
				to := from + 1 + r.intn(len(lines)-from)
				e.Old = strings.Join(lines[from:to], "")
			} else {
				e.Old = pipeText(r)
			}
		case 2:
			e.Op, e.New = edit.Create, pipeText(r)
		case 3:
			e.Op = edit.Delete
		case 4:
			e.Op, e.New = edit.Rewrite, pipeText(r)
		case 5:
			e.Op, e.New = edit.Rename, pipePath(r)
		}
		es = append(es, e)
	}
	return es
}

// pipePlain reports whether s is a file whose edits need no conversion: LF
// only, no BOM, no NUL, no UTF-16.
func pipePlain(s string) bool {
	return !strings.Contains(s, "\r") && !strings.HasPrefix(s, bom) && !isBinary([]byte(s))
}

// A pipeState is everything under a directory: regular files with modes,
// directories, symlinks (as "-> target" files, counted in links).
type pipeState struct {
	files map[string]pipeFile
	dirs  []string
	links int
}

func pipeSnapshot(t *testing.T, dir string) pipeState {
	t.Helper()
	st := pipeState{files: map[string]pipeFile{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case rel == ".":
		case fi.IsDir():
			st.dirs = append(st.dirs, rel)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			st.files[rel] = pipeFile{"-> " + target, 0}
			st.links++
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st.files[rel] = pipeFile{string(b), fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The state directory is testOpts' own, not the tree's.
	st.dirs = slices.DeleteFunc(st.dirs, func(d string) bool { return !strings.HasPrefix(d, "root") })
	return st
}

func pipeTreeCopy(s pipeState) pipeState {
	c := s
	c.files = map[string]pipeFile{}
	for p, f := range s.files {
		c.files[p] = f
	}
	return c
}

// pipeDiff reports the differences between got and want, ignoring the
// files in skip; directories are compared only when skip is nil.
func pipeDiff(t *testing.T, what string, got, want pipeState, skip map[string]bool) {
	t.Helper()
	var b bytes.Buffer
	for p, w := range want.files {
		if skip[p] {
			continue
		}
		g, ok := got.files[p]
		switch {
		case !ok:
			fmt.Fprintf(&b, "\n%s missing", p)
		case g != w:
			fmt.Fprintf(&b, "\n%s = %q %v, want %q %v", p, g.data, g.mode, w.data, w.mode)
		}
	}
	for p := range got.files {
		if _, ok := want.files[p]; !ok && !skip[p] {
			fmt.Fprintf(&b, "\nextra file %s", p)
		}
	}
	if skip == nil && !slices.Equal(got.dirs, want.dirs) {
		fmt.Fprintf(&b, "\ndirectories %q, want %q", got.dirs, want.dirs)
	}
	if b.Len() > 0 {
		t.Errorf("%s:%s", what, b.String())
	}
}
