package normalize

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/syntax"
)

// ErrInexpressible is wrapped by the errors Write and WriteSearchReplace
// return for an edit the canonical form cannot carry exactly.
var ErrInexpressible = errors.New("cannot be written as a SEARCH/REPLACE block")

// Write writes edits in the canonical SEARCH/REPLACE form, one block per
// edit, each with its own path line and fence, blocks separated by a blank
// line. Parsing the output with edit.FormatSearchReplace gives back the same
// Op, Path, Old and New for every Replace (Count 1) and Create edit; Hint
// is dropped, since it only guides the search.
//
// A Rewrite is written as a whole-file block (path line, fence, content),
// which edit.FormatWhole and edit.FormatAuto read back as the same Rewrite. Delete,
// Rename, a Replace with Count other than 1, empty Old, Anchors or AtEOF, text
// that does not end in a newline, a path that does not read back as
// itself, and text whose own marker lines would split the block elsewhere
// even with a backslash before each (a file line that is itself a
// backslash and a marker, which the reader would drop) are errors
// wrapping [ErrInexpressible]. Nothing is written unless every edit can
// be.
func Write(w io.Writer, edits []edit.Edit) error {
	var buf bytes.Buffer
	for k, e := range edits {
		if k > 0 {
			buf.WriteByte('\n')
		}
		var err error
		switch e.Op {
		case edit.Replace:
			switch {
			case e.Count != 1:
				err = fmt.Errorf("%s: a replacement of count %d %w", e.Path, e.Count, ErrInexpressible)
			case e.Old == "":
				err = fmt.Errorf("%s: a replacement of empty text (it would read back as a create) %w", e.Path, ErrInexpressible)
			case len(e.Anchors) > 0 || e.AtEOF:
				err = fmt.Errorf("%s: a replacement with anchors %w", e.Path, ErrInexpressible)
			default:
				err = WriteSearchReplace(&buf, e.Path, e.Old, e.New)
			}
		case edit.Create:
			err = WriteSearchReplace(&buf, e.Path, "", e.New)
		case edit.Rewrite:
			err = writeWhole(&buf, e.Path, e.New)
		default:
			err = fmt.Errorf("%s: a %v edit %w", e.Path, e.Op, ErrInexpressible)
		}
		if err != nil {
			return fmt.Errorf("edit %d: %w", k, err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteSearchReplace writes one SEARCH/REPLACE block replacing old with
// new in the file at path; an empty old writes a block that creates the
// file. old and new must each be empty or end in a newline. The block is
// parsed back before it is written, so an error (wrapping
// [ErrInexpressible]) is returned rather than a block that would read
// differently.
func WriteSearchReplace(w io.Writer, path, old, new string) error {
	if err := wholeLines(path, old, new); err != nil {
		return err
	}
	want := edit.Edit{Op: edit.Replace, Path: path, Old: old, New: new, Count: 1}
	if old == "" {
		want = edit.Edit{Op: edit.Create, Path: path, New: new}
	}
	b := srBlockText(path, old, new)
	if !readsBackAs(string(b), edit.FormatSearchReplace, want) {
		// The text's own marker lines would split or close the block
		// elsewhere: a backslash before each keeps it text, as the
		// reader drops it (syntax.UnescapeMarkers). Lines that nest, such as a
		// git conflict's, read back as written and stay so.
		b = srBlockText(path, syntax.EscapeMarkers(old), syntax.EscapeMarkers(new))
		if err := readsBack(b, edit.FormatSearchReplace, want); err != nil {
			return err
		}
	}
	_, err := w.Write(b)
	return err
}

// srBlockText is the canonical block replacing old with new in path.
func srBlockText(path, old, new string) []byte {
	var b bytes.Buffer
	fnc := strings.Repeat("`", longestRun(old+new, '`')+1)
	preamble := ""
	if syntax.StartsWithPreamble(old) {
		// The file's own lines read as Roo's preamble; one of the
		// block's own, which gives no line, keeps them text.
		preamble = ":end_line:1\n-------\n"
	}
	fmt.Fprintf(&b, "%s\n%s\n<<<<<<< SEARCH\n%s%s=======\n%s>>>>>>> REPLACE\n%s\n", pathForLine(path), fnc, preamble, old, new, fnc)
	return b.Bytes()
}

// writeWhole writes a whole-file block for a Rewrite.
func writeWhole(w io.Writer, path, content string) error {
	if err := wholeLines(path, content); err != nil {
		return err
	}
	var b bytes.Buffer
	fnc := strings.Repeat("`", longestRun(content, '`')+1)
	fmt.Fprintf(&b, "%s\n%s\n%s%s\n", pathForLine(path), fnc, content, fnc)
	if err := readsBack(b.Bytes(), edit.FormatWhole, edit.Edit{Op: edit.Rewrite, Path: path, New: content}); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// wholeLines checks that every text is empty or ends in a newline: text
// between marker lines or fences always does.
func wholeLines(path string, texts ...string) error {
	for _, t := range texts {
		if t != "" && !strings.HasSuffix(t, "\n") {
			return fmt.Errorf("%s: text without a final newline %w", path, ErrInexpressible)
		}
	}
	return nil
}

// pathForLine spells path so that the path-line reader accepts it: a name
// that does not look like a file ("run") gets a "./", a name with spaces
// backticks.
func pathForLine(p string) string {
	if _, ok := syntax.PathLine(p); ok {
		return p
	}
	if q := "`" + p + "`"; strings.Contains(p, " ") {
		// A name with spaces reads as one only backticked, alone on its line.
		if got, ok := syntax.PathLineAt(q, false, nil); ok && got == p {
			return q
		}
	}
	return "./" + p
}

// longestRun returns the length of the longest run of c in s, at least 2,
// so that a fence one longer is at least three long.
func longestRun(s string, c byte) int {
	n, run := 2, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			if run++; run > n {
				n = run
			}
		} else {
			run = 0
		}
	}
	return n
}

func readsBack(block []byte, f edit.Format, want edit.Edit) error {
	if readsBackAs(string(block), f, want) {
		return nil
	}
	return fmt.Errorf("%s: text whose marker or fence lines would change the block %w", want.Path, ErrInexpressible)
}
