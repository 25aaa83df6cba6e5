package apply

import (
	"os"
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/apply/internal/paths"
	"github.com/edapply/edapply/edit"
)

// readBudget is the most bytes a Read window holds: a window stops at
// ReadLimit lines or once it holds readBudget bytes, whichever comes
// first, and always holds at least one line when the file has one past
// the offset: a model's context is the scarce thing, and the rest stays
// one call away.
const readBudget = 256 << 10

// A Window is a run of a file's lines, as a model reads them before it
// edits: `edapply read` and the MCP server's read_file show it numbered.
type Window struct {
	Path  string   // root-relative, slash-separated, as resolved
	Hash  string   // SHA-256 of the whole file's raw bytes, what Options.Base takes
	Start int      // 1-based number of Lines[0] (the offset asked for, when Lines is empty)
	Lines []string // the lines shown, without their line endings or a leading BOM
	Total int      // lines in the whole file (a last line without a newline counts)
	// Column is the 1-based byte of line Start that Lines[0] begins at:
	// 1 unless the read asked to go on inside a long line.
	Column int
	// Rest holds, for each line shown, how many of its bytes follow what
	// Lines shows of it: 0 for a whole line. Nil when every line is whole.
	Rest []int
}

// NextColumn is the column that reads on in line Start+i, which Lines[i]
// shows only the beginning of: the byte after the last one shown.
func (w *Window) NextColumn(i int) int {
	col := len(w.Lines[i]) + 1
	if i == 0 {
		col += w.Column - 1
	}
	return col
}

// End is the number of the last line shown; Start-1 when none is.
func (w *Window) End() int { return w.Start + len(w.Lines) - 1 }

// Read returns the window of the file p in opts.Root that starts at the
// 1-based line offset (1 when offset < 1) and holds at most limit lines
// (ReadLimit when limit < 1). p resolves exactly as an edit's path does
// (an absolute p under one of opts.PathPrefixes names the file under the
// root), so what Read shows is what an edit of p would change; a file
// that Apply would refuse (outside the root, missing, binary, not a
// regular file) is refused with the same code. The returned error's Edit
// is -1. A file in another encoding (opts.Encoding, or as the tree
// declares it) is shown as its text; the other fields of opts are not
// used.
//
// A window's first line starts at the 1-based byte column of line offset
// (1 when column < 1): how a long line that a window cut (see
// Window.Rest) is read on. Columns count the bytes of the line as Read
// shows it, in UTF-8; a column inside a character starts at that
// character.
func Read(opts Options, p string, offset, column, limit int) (*Window, *edit.Error) {
	rel, st, err := loadNamed(opts, p)
	if err != nil {
		return nil, err
	}
	text, terr := readText(opts, rel, st.Data)
	if terr == nil && isBinary(readOnlyBytes(text)) {
		terr = binaryErr()
	}
	if terr != nil {
		terr.Path, terr.Edit = rel, -1
		return nil, terr
	}
	w := cutWindow(text, offset, column, limit)
	w.Path, w.Hash = rel, HashBytes(st.Data)
	return w, nil
}

// Hash returns the SHA-256 (lowercase hex) of the raw bytes of the
// file p names in opts.Root, and its root-relative path. p resolves as an
// edit's path and a --base name do (opts.PathPrefixes included), so the
// hash is the one --base compares for p; a path Apply would refuse
// (outside the root, missing, not a regular file) is refused with the
// same code, and the error's Edit is -1. A binary file is hashed.
func Hash(opts Options, p string) (rel, hash string, err *edit.Error) {
	rel, st, err := loadNamed(opts, p)
	if err != nil {
		return "", "", err
	}
	return rel, HashBytes(st.Data), nil
}

// loadNamed reads the file p names in opts.Root, resolved as an edit's
// path is. A missing file is FILE_NOT_FOUND; an error names the path
// (with the tree's files p probably means) and has Edit -1.
func loadNamed(opts Options, p string) (string, fsio.State, *edit.Error) {
	root := opts.Root
	var r *os.Root
	var ix *paths.Index
	fail := func(e *edit.Error) (string, fsio.State, *edit.Error) {
		if e.Path == "" {
			e.Path = p
		}
		if r != nil {
			paths.AddCandidates(r, &ix, e, p, "")
			readingHint(e)
		}
		e.Edit = -1
		return "", fsio.State{}, e
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Msg: "cannot open root " + root + ": " + errMsg(err), Err: err})
	}
	defer r.Close()
	rs, err := paths.NewResolver(r, root)
	if err != nil {
		return fail(&edit.Error{Code: edit.CodeIO, Msg: "cannot resolve root " + root + ": " + errMsg(err), Err: err})
	}
	rs.Prefixes = opts.PathPrefixes
	rel, rerr := rs.Resolve(p)
	if rerr != nil {
		return fail(rerr)
	}
	st, lerr := fsio.LoadIn(r, rel, rel)
	switch {
	case lerr != nil:
		lerr.Path = rel
		return fail(lerr)
	case !st.Exists:
		// A read creates nothing: the hint is not an edit's.
		return fail(&edit.Error{Code: edit.CodeFileNotFound, Path: rel, Msg: "no such file", Hint: "Check the path against the tree."})
	}
	return rel, st, nil
}

// cutWindow cuts the lines of text that Read shows; Path and Hash are the
// caller's to set.
func cutWindow(text string, offset, column, limit int) *Window {
	if offset < 1 {
		offset = 1
	}
	if column < 1 {
		column = 1
	}
	if limit < 1 {
		limit = ReadLimit
	}
	text = strings.TrimPrefix(text, bom)
	w := &Window{Start: offset, Total: strings.Count(text, "\n"), Column: 1}
	if text != "" && !strings.HasSuffix(text, "\n") {
		w.Total++
	}
	rest := text
	for n := 1; n < offset && rest != ""; n++ {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			rest = ""
			break
		}
		rest = rest[i+1:]
	}
	size := 0
	for rest != "" && len(w.Lines) < limit && (size < readBudget || len(w.Lines) == 0) {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if len(w.Lines) == 0 && column > 1 {
			from := min(column-1, len(line))
			for from > 0 && from < len(line) && !utf8.RuneStart(line[from]) {
				from--
			}
			line, w.Column = line[from:], from+1
		}
		if len(line) > ReadLineBudget {
			cut := ReadLineBudget
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			if w.Rest == nil {
				w.Rest = make([]int, len(w.Lines))
			}
			w.Rest = append(w.Rest, len(line)-cut)
			line = line[:cut]
		} else if w.Rest != nil {
			w.Rest = append(w.Rest, 0)
		}
		size += len(line) + 1
		w.Lines = append(w.Lines, line)
	}
	return w
}

// readingHint words a FILE_NOT_FOUND's hint for a read: the file meant
// is read by its path in the tree, and no new file comes of a read.
func readingHint(e *edit.Error) {
	if e.Code != edit.CodeFileNotFound || len(e.Candidates) == 0 || e.Candidates[0].Path == "" {
		return
	}
	names := make([]string, len(e.Candidates))
	for i, c := range e.Candidates {
		names[i] = "`" + c.Path + "`"
	}
	if len(names) == 1 {
		e.Hint = "No file has this path; the tree has " + names[0] + ": read it by that path."
		return
	}
	e.Hint = "No file has this path; the tree has " + strings.Join(names, ", ") + ": read the one meant by its path in the tree."
}
