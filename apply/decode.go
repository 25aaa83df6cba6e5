package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/apply/internal/fsio"
	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
	"github.com/edapply/edapply/internal/textenc"
)

// A file in another encoding than UTF-8 (one that --encoding names,
// .gitattributes or .editorconfig declares, or a UTF-16 byte order mark
// shows: see package textenc) is planned as its text: slot decodes it
// when it is read, so that the edits are located in, and write, UTF-8
// text as every other file's, and encode puts the text back in the
// file's encoding once planning is over, before anything reads the new
// content as bytes (the receipt's hashes, the check, commit, the undo
// journal, which keeps the bytes read). The check (audit.go) reads both
// contents of such a file as the text its bytes decode to. A file is
// decoded only when its bytes are exactly those of its text, and text an
// edit adds that the encoding cannot hold is refused, BINARY_FILE, naming
// the character and its line: nothing is written that the file's bytes
// would read back otherwise.

// An encoded is what a slot keeps of a file in another encoding.
type encoded struct {
	enc *textenc.Encoding // nil when err says why the file is edited as bytes
	// raw is the file as read, its bytes, while orig is its text; after
	// encode, orig is raw again and text the decoded contents.
	raw fsio.State
	// text holds, once encode has run, the contents as text: what the
	// file held and what the edits leave (the receipt's Before and After,
	// the check's contents).
	text *[2]fsio.State
	// wrote is the encoding encode wrote the content at the path in; nil
	// when it is UTF-8.
	wrote *textenc.Encoding
	// err, when set, is why the file is edited as its bytes (today's
	// rules for a file that is not UTF-8) although it declares an
	// encoding: the declaration names none edapply has, or the file's
	// bytes are not that encoding's. An edit that writes text in it is
	// refused with it.
	err *edit.Error
}

// validEncoding reports whether name is an encoding Options.Encoding may
// name; the error says why not.
func validEncoding(name string) error {
	_, err := textenc.Lookup(name, "--encoding")
	return err
}

// encodingOptionErr is Apply's error for an Options.Encoding no encoding
// has.
func encodingOptionErr(name string, err error) *edit.Error {
	return &edit.Error{Code: edit.CodeUsage, Edit: -1, Msg: fmt.Sprintf("--encoding %q: %v", name, err),
		Hint: "Name an encoding such as latin1, cp1251, shift_jis or utf-16le."}
}

// declarations are where a file's encoding is declared, as a hint names
// them for every caller; a caller with a flag for it adds that (see
// misdeclared).
const declarations = "(working-tree-encoding in .gitattributes, or charset in .editorconfig)"

// misdeclared marks e, a file whose declared encoding cannot read it, with
// the remedy of naming its real encoding.
func misdeclared(e *edit.Error) *edit.Error { return remedy.Mark(e, remedy.RealEncoding) }

// encodings is the planner's resolver of files' encodings, made on first
// use.
func (p *planner) encodings() *textenc.Resolver {
	if p.encs == nil {
		tree := treeFS{p.dirs}
		r, err := textenc.NewResolver(tree, p.encoding)
		if err != nil {
			// Apply refused the name before planning; a planner made
			// without it plans UTF-8.
			r, _ = textenc.NewResolver(tree, "")
		}
		p.encs = r
	}
	return p.encs
}

// treeFS is the tree as package textenc reads its .gitattributes and
// .editorconfig files: each through the handle planning holds on its
// directory (see dirRoots), one call rather than a walk from the root for
// each of the directories above every file edited.
type treeFS struct{ d *fsio.Dirs }

func (t treeFS) in(name string) (*os.Root, string, error) {
	r, base, err := t.d.In(name)
	if errors.Is(err, fsio.ErrTooManyDirs) {
		return t.d.Root, name, nil
	}
	return r, base, err
}

func (t treeFS) Open(name string) (fs.File, error) {
	r, base, err := t.in(name)
	if err != nil {
		return nil, err
	}
	return r.Open(base)
}

func (t treeFS) Lstat(name string) (fs.FileInfo, error) {
	r, base, err := t.in(name)
	if err != nil {
		return nil, err
	}
	return r.Lstat(base)
}

func (t treeFS) ReadLink(name string) (string, error) {
	r, base, err := t.in(name)
	if err != nil {
		return "", err
	}
	return r.Readlink(base)
}

// decode makes s, just read, its text when its file is in another
// encoding; a path with no file learns the encoding a new file there is
// written in.
func (p *planner) decode(s *slot) {
	if s.err != nil || s.orig.Link {
		return
	}
	enc, err := p.encodings().For(s.path, s.orig.Data, s.orig.Exists)
	if err != nil {
		var de *textenc.DeclError
		if errors.As(err, &de) {
			s.enc = &encoded{err: misdeclared(&edit.Error{Code: edit.CodeBinaryFile,
				Msg:  fmt.Sprintf("%s declares the encoding %q, which edapply does not know: %v", de.Source, de.Name, de.Err),
				Hint: "Correct the file's encoding declaration " + declarations + " to one edapply knows: latin1, cp1251, shift_jis, utf-16le, ..."})}
		}
		return
	}
	if enc == nil {
		return
	}
	if !s.orig.Exists {
		s.enc = &encoded{enc: enc}
		return
	}
	if err := declaredOverUTF8(enc, s.orig.Data); err != nil {
		s.enc = &encoded{err: err}
		return
	}
	text, ok := enc.Decode(s.orig.Data)
	if !ok {
		s.enc = &encoded{err: misdeclared(&edit.Error{Code: edit.CodeBinaryFile,
			Msg:  fmt.Sprintf("the file is not valid %s: its bytes do not read as that encoding's text and back", enc),
			Hint: fmt.Sprintf("The file is not in %s: correct its encoding declaration %s to its real encoding.", enc.Name(), declarations)})}
		return
	}
	st := s.orig
	st.Data, st.Stamp = readOnlyBytes(text), nil
	s.enc = &encoded{enc: enc, raw: s.orig}
	s.orig, s.cur = st, st
}

// looksUTF8 reports whether b is UTF-8 text with letters beyond ASCII
// and no NUL (which a UTF-16 file's ASCII has).
func looksUTF8(b []byte) bool {
	return hasNonASCII(viewString(b)) && bytes.IndexByte(b, 0) < 0 && utf8.Valid(b)
}

// declaredOverUTF8 is the error of a file that a declaration (not the
// caller's own choice) gives enc, while its bytes are UTF-8 text: a cp1251
// or Latin-1 file's letters are all but never valid UTF-8, so the
// declaration does not fit it (a "[*] charset = latin1" over the whole
// tree), and its text read so would take the model's letters in another
// encoding. Nil when the declaration may fit.
func declaredOverUTF8(enc *textenc.Encoding, data []byte) *edit.Error {
	if enc.Source() == "--encoding" || !looksUTF8(data) {
		return nil
	}
	return misdeclared(&edit.Error{Code: edit.CodeBinaryFile,
		Msg:  fmt.Sprintf("the file is declared %s, but its bytes are UTF-8 text", enc),
		Hint: "Correct the file's encoding declaration " + declarations + ": its bytes read as UTF-8."})
}

// beginsWithMark reports whether st, a text, begins with a byte order
// mark (U+FEFF).
func beginsWithMark(st fsio.State) bool {
	const mark = "\ufeff"
	if st.Pieces == nil {
		return strings.HasPrefix(viewString(st.Data), mark)
	}
	var head []byte
	for _, c := range st.Pieces {
		if head = append(head, c[:min(len(c), len(mark)-len(head))]...); len(head) == len(mark) {
			break
		}
	}
	return string(head) == mark
}

// bytesRead is the file at s as read, its bytes: what --base and the
// journal compare.
func (s *slot) bytesRead() fsio.State {
	if s.enc != nil && s.enc.raw.Exists {
		return s.enc.raw
	}
	return s.orig
}

// fileEncoding is the encoding f's content is written in: the one of the
// file it was read from, or for a new file the one its path declares;
// nil for UTF-8. err is set when f's file declares an encoding it cannot
// be read in, and text may not be written in it.
func (p *planner) fileEncoding(f *file) (enc *textenc.Encoding, err *edit.Error) {
	s := f.origin
	if s == nil {
		s = f.at
	}
	if s == nil || s.enc == nil {
		return nil, nil
	}
	if s.enc.err != nil {
		e := *s.enc.err
		return nil, &e
	}
	return s.enc.enc, nil
}

// unfit is the error of an edit that writes text in f that f's encoding
// cannot hold (or in a file whose declared encoding cannot read it); nil
// when it may.
func (p *planner) unfit(f *file, text string) *edit.Error {
	enc, err := p.fileEncoding(f)
	if err != nil || enc == nil {
		return err
	}
	u := enc.Check(text)
	if u == nil {
		return nil
	}
	line := strings.TrimSpace(u.Text)
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "…"
	}
	return &edit.Error{Code: edit.CodeBinaryFile,
		Msg:  fmt.Sprintf("the file is %s, which cannot hold %q (U+%04X), in the line the edit writes: `%s`", enc, u.Rune, u.Rune, line),
		Hint: fmt.Sprintf("Write %q another way that %s holds (an ASCII spelling, an escape of the file's language), or leave it out.", u.Rune, enc.Name())}
}

// encode puts each decoded file's content back in its encoding, once
// planning is over: the content at each path is written in the encoding
// of the file it came from (or a new file's path declares). A text the
// encoding cannot hold, which the edits' own checks have refused
// already, fails the edit that last wrote it.
func (p *planner) encode() {
	for _, s := range p.order {
		if s.enc != nil && s.enc.text != nil {
			continue // put back already
		}
		decoded := s.enc != nil && s.enc.enc != nil && s.enc.raw.Exists
		var wenc *textenc.Encoding
		switch {
		case !s.cur.Exists || s.cur.Link:
		case s.owner != nil:
			wenc, _ = p.fileEncoding(s.owner)
			if wenc.ByMark() && !beginsWithMark(s.cur) {
				// Only the old file's mark made it UTF-16, and the text
				// written at the path has none (a file created where it
				// was, after it moved away or went): in UTF-16 without
				// its mark it would read back as binary, so it is written
				// as the UTF-8 it is, as the path declares nothing.
				wenc = nil
			}
		case decoded:
			wenc = s.enc.enc // the path's own content, which no edit took
		}
		if wenc == nil && !decoded {
			continue
		}
		if s.enc == nil {
			s.enc = &encoded{}
		}
		text := [2]fsio.State{s.orig, s.cur}
		s.enc.text = &text
		if decoded {
			s.orig = s.enc.raw
		}
		if wenc == nil || !s.cur.Exists || s.cur.Link {
			continue
		}
		s.enc.wrote = wenc
		cur := s.cur
		if decoded && wenc == s.enc.enc && fsio.SameData(text[1], text[0]) {
			cur.Data, cur.Stamp = s.orig.Data, s.orig.Stamp
		} else {
			var head []byte
			if s.owner != nil && s.owner.origin != nil && s.owner.origin.enc != nil {
				head = s.owner.origin.enc.raw.Data
			}
			b, u := wenc.Encode(viewString(joinChunks(cur)), head)
			if u != nil {
				i := s.by
				e := &edit.Error{Code: edit.CodeBinaryFile,
					Msg:  fmt.Sprintf("the file is %s, which cannot hold %s", wenc, u),
					Hint: "Write the text in characters the file's encoding holds."}
				if i >= 0 && i < len(p.audit.edits) {
					p.fail(i, &p.audit.edits[i], e)
				} else {
					e.Edit = -1
					p.res.Errors.Add(e)
				}
				continue
			}
			cur.Data, cur.Stamp = b, nil
		}
		cur.Pieces = nil
		s.cur = cur
	}
}

// texts is s's contents as text, for the receipt and the check: what the
// file held and what the edits leave, decoded when the file is in
// another encoding.
func (s *slot) texts() (orig, cur fsio.State) {
	if s.enc != nil && s.enc.text != nil {
		return s.enc.text[0], s.enc.text[1]
	}
	return s.orig, s.cur
}

// auditText is the content c leaves at path as the check reads it: its
// bytes decoded when encode wrote them in another encoding, which must
// read back.
func (p *planner) auditText(path string, final fsio.State) (fsio.State, *edit.Error) {
	s := p.slots[path]
	if s == nil || s.enc == nil || s.enc.wrote == nil || !final.Exists {
		return final, nil
	}
	text, ok := s.enc.wrote.Decode(joinChunks(final))
	if !ok {
		return final, &edit.Error{Code: edit.CodeInternal, Edit: -1, Path: path,
			Msg: fmt.Sprintf("the content written in %s does not read back as text", s.enc.wrote)}
	}
	final.Data, final.Pieces = readOnlyBytes(text), nil
	return final, nil
}

// readText is data, the file rel under opts.Root, as the text Read
// shows: decoded when it is in another encoding. A file whose declared
// encoding cannot read it is BINARY_FILE.
func readText(opts Options, rel string, data []byte) (string, *edit.Error) {
	r, err := os.OpenRoot(opts.Root)
	if err != nil {
		return string(data), nil
	}
	defer r.Close()
	res, rerr := textenc.NewResolver(r.FS(), opts.Encoding)
	if rerr != nil {
		return "", encodingOptionErr(opts.Encoding, rerr)
	}
	enc, derr := res.For(rel, data, true)
	if derr != nil {
		return "", misdeclared(&edit.Error{Code: edit.CodeBinaryFile, Msg: derr.Error(),
			Hint: "Correct the file's encoding declaration " + declarations + " to one edapply knows: latin1, cp1251, shift_jis, utf-16le, ..."})
	}
	if enc == nil {
		return string(data), nil
	}
	if err := declaredOverUTF8(enc, data); err != nil {
		return "", err
	}
	text, ok := enc.Decode(data)
	if !ok {
		return "", misdeclared(&edit.Error{Code: edit.CodeBinaryFile, Msg: fmt.Sprintf("the file is not valid %s", enc),
			Hint: fmt.Sprintf("The file is not in %s: correct its encoding declaration %s to its real encoding.", enc.Name(), declarations)})
	}
	return text, nil
}
