package apply

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"github.com/edapply/edapply/edit"
)

// in returns s in enc, for a test's file.
func in(enc encoding.Encoding, s string) string {
	b, err := enc.NewEncoder().String(s)
	if err != nil {
		panic(err)
	}
	return b
}

// utf16le returns s in UTF-16LE, with a byte order mark when bom.
func utf16le(s string, bom bool) string {
	var b strings.Builder
	if bom {
		b.WriteString("\xff\xfe")
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

func utf16be(s string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u >> 8))
		b.WriteByte(byte(u))
	}
	return b.String()
}

var (
	cp1251 = charmap.Windows1251
	latin1 = charmap.ISO8859_1
	sjis   = japanese.ShiftJIS
)

// A file in another encoding, from each place its encoding comes from, is
// matched as its text and written back in its bytes: its encoding, byte
// order mark and line endings kept.
func TestEncodedFileIsEditedAsText(t *testing.T) {
	sr := func(p, old, nw string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: p, Old: old, New: nw, Count: 1, Format: edit.FormatSearchReplace}
	}
	tests := []struct {
		name     string
		encoding string // Options.Encoding
		before   tree
		edits    []edit.Edit
		want     tree
	}{
		{name: "cp1251ByGitattributes",
			before: tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n", "t.txt": in(cp1251, "привет\nend\n")},
			edits:  []edit.Edit{sr("t.txt", "end\n", "конец\n")},
			want:   tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n", "t.txt": in(cp1251, "привет\nконец\n")}},
		{name: "gitattributesInASubdirectory",
			before: tree{"ru/.gitattributes": "msg.* working-tree-encoding=CP1251\n", "ru/msg.po": in(cp1251, "да\r\nнет\r\n")},
			edits:  []edit.Edit{sr("ru/msg.po", "нет\n", "нет\nможет быть\n")},
			want:   tree{"ru/.gitattributes": "msg.* working-tree-encoding=CP1251\n", "ru/msg.po": in(cp1251, "да\r\nнет\r\nможет быть\r\n")}},
		{name: "latin1ByEditorconfig",
			before: tree{".editorconfig": "root = true\n\n[*.c]\ncharset = latin1\n", "src/a.c": in(latin1, "/* café */\nint x;\n")},
			edits:  []edit.Edit{sr("src/a.c", "/* café */\n", "/* café crème */\n")},
			want:   tree{".editorconfig": "root = true\n\n[*.c]\ncharset = latin1\n", "src/a.c": in(latin1, "/* café crème */\nint x;\n")}},
		{name: "utf16LEByItsBOM",
			before: tree{"r.rc": utf16le("a = 1\r\nb = 2\r\n", true)},
			edits:  []edit.Edit{sr("r.rc", "b = 2\n", "b = «ü»\n")},
			want:   tree{"r.rc": utf16le("a = 1\r\nb = «ü»\r\n", true)}},
		{name: "utf16BEByEditorconfig",
			before: tree{".editorconfig": "[*.txt]\ncharset = utf-16be\n", "w.txt": utf16be("one\ntwo\n")},
			edits:  []edit.Edit{{Op: edit.Rewrite, Path: "w.txt", New: "one\nzwei\n", Format: edit.FormatWhole}},
			want:   tree{".editorconfig": "[*.txt]\ncharset = utf-16be\n", "w.txt": utf16be("one\nzwei\n")}},
		{name: "shiftJISByTheOption", encoding: "shift_jis",
			before: tree{"j.txt": in(sjis, "日本\n")},
			edits:  []edit.Edit{sr("j.txt", "日本\n", "日本語\n")},
			want:   tree{"j.txt": in(sjis, "日本語\n")}},
		// Named by the option, a file is read so even where it could be
		// UTF-8.
		{name: "optionOverUTF8Bytes", encoding: "latin1",
			before: tree{"t.txt": "caf\xc3\xa9\n"},
			edits:  []edit.Edit{sr("t.txt", "cafÃ©\n", "cafÃ© ou café\n")},
			want:   tree{"t.txt": "caf\xc3\xa9 ou caf\xe9\n"}},
		// The option wins over what the tree declares.
		{name: "optionOverGitattributes", encoding: "latin1",
			before: tree{".gitattributes": "* working-tree-encoding=cp1251\n", "t.txt": in(latin1, "né\n")},
			edits:  []edit.Edit{sr("t.txt", "né\n", "née\n")},
			want:   tree{".gitattributes": "* working-tree-encoding=cp1251\n", "t.txt": in(latin1, "née\n")}},
		// .gitattributes wins over .editorconfig.
		{name: "gitattributesOverEditorconfig",
			before: tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n", ".editorconfig": "[*]\ncharset = latin1\n", "t.txt": in(cp1251, "я\n")},
			edits:  []edit.Edit{sr("t.txt", "я\n", "я и ты\n")},
			want:   tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n", ".editorconfig": "[*]\ncharset = latin1\n", "t.txt": in(cp1251, "я и ты\n")}},
		// A new file is written in the encoding its path declares.
		{name: "newFileInTheDeclaredEncoding",
			before: tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n"},
			edits:  []edit.Edit{{Op: edit.Create, Path: "n.txt", New: "новый\n", Format: edit.FormatWhole}},
			want:   tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n", "n.txt": in(cp1251, "новый\n")}},
		// A file moved keeps its encoding.
		{name: "renamedKeepsItsEncoding",
			before: tree{".gitattributes": "old/* working-tree-encoding=cp1251\n", "old/t.txt": in(cp1251, "мир\n")},
			edits:  []edit.Edit{{Op: edit.Rename, Path: "old/t.txt", New: "new/t.txt"}, sr("new/t.txt", "мир\n", "мир!\n")},
			want:   tree{".gitattributes": "old/* working-tree-encoding=cp1251\n", "new/t.txt": in(cp1251, "мир!\n")}},
		// An edit that changes nothing leaves the bytes as they were.
		{name: "alreadyApplied",
			before: tree{"r.rc": utf16le("x\n", true)},
			edits:  []edit.Edit{sr("r.rc", "y\n", "x\n")},
			want:   tree{"r.rc": utf16le("x\n", true)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.before)
			opts := testOpts(t, root)
			opts.Encoding = tt.encoding
			res, err := Apply(context.Background(), tt.edits, opts)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			diffTrees(t, "tree", readTree(t, root), tt.want)
			// The receipt's hashes are of the bytes, its contents the text.
			got := readTree(t, root)
			for _, fr := range res.Files {
				name := fr.Path
				if fr.NewPath != "" {
					name = fr.NewPath
				}
				if fr.AfterHash != HashBytes([]byte(got[name])) {
					t.Errorf("%s: after hash is not the bytes'", name)
				}
				if fr.Before != nil && fr.BeforeHash != HashBytes([]byte(tt.before[fr.Path])) {
					t.Errorf("%s: before hash is not the bytes'", fr.Path)
				}
				if !strings.Contains(string(fr.After), "\n") || strings.ContainsRune(string(fr.After), 0) {
					t.Errorf("%s: After %q is not the text", name, fr.After)
				}
			}
		})
	}
}

// Text that the file's encoding cannot hold is refused, BINARY_FILE,
// naming the character and its line, and nothing is written.
func TestEncodedFileRefusesWhatItCannotHold(t *testing.T) {
	tests := []struct {
		name     string
		encoding string
		before   tree
		e        edit.Edit
		want     []string // in the message
	}{
		{name: "cp1251", before: tree{".gitattributes": "*.txt working-tree-encoding=cp1251\n", "t.txt": in(cp1251, "привет\nend\n")},
			e:    edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "end", New: "Grüße", Count: 1, Format: edit.FormatJSON},
			want: []string{"cp1251", ".gitattributes", `'ü'`, "Grüße"}},
		{name: "latin1Rewrite", before: tree{".editorconfig": "[*]\ncharset = latin1\n", "a.c": in(latin1, "é\n")},
			e:    edit.Edit{Op: edit.Rewrite, Path: "a.c", New: "é\n// → arrow\n", Format: edit.FormatWhole},
			want: []string{"latin1", `'→'`, "// → arrow"}},
		{name: "newFile", before: tree{".gitattributes": "*.txt working-tree-encoding=latin1\n"},
			e:    edit.Edit{Op: edit.Create, Path: "n.txt", New: "ok\nпривет\n", Format: edit.FormatWhole},
			want: []string{"latin1", `'п'`, "привет"}},
		// Shift_JIS writes the yen sign as a backslash's byte: it would
		// read back as another character.
		{name: "shiftJISYen", encoding: "shift_jis", before: tree{"j.txt": in(sjis, "日本\n")},
			e:    edit.Edit{Op: edit.Replace, Path: "j.txt", Old: "日本\n", New: "日本 ¥100\n", Count: 1, Format: edit.FormatSearchReplace},
			want: []string{"shift_jis", `'¥'`, "日本 ¥100"}},
		// A declaration that names no encoding, or one the file's bytes
		// are not in, refuses every text edit rather than guess.
		{name: "unknownEncoding", before: tree{".gitattributes": "*.txt working-tree-encoding=klingon\n", "t.txt": "abc\n"},
			e:    edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "abc", New: "abd", Count: 1, Format: edit.FormatSearchReplace},
			want: []string{"klingon", ".gitattributes"}},
		{name: "notThatEncoding", before: tree{".gitattributes": "*.txt working-tree-encoding=utf-16le\n", "t.txt": "ab\n"},
			e:    edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "ab", New: "ac", Count: 1, Format: edit.FormatSearchReplace},
			want: []string{"not valid utf-16le (.gitattributes)"}},
		{name: "oddUTF16", before: tree{"r.rc": "\xff\xfea\x00\n\x00a"},
			e:    edit.Edit{Op: edit.Rewrite, Path: "r.rc", New: "b\n", Format: edit.FormatWhole},
			want: []string{"not valid utf-16le (its byte order mark)"}},
		// A file declared cp1251 whose bytes are UTF-8 text is UTF-8 the
		// declaration does not fit: not edited on a guess either way.
		{name: "declaredButUTF8", before: tree{".editorconfig": "[*]\ncharset = latin1\n", "t.txt": "café\n"},
			e:    edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "café", New: "cafés", Count: 1, Format: edit.FormatSearchReplace},
			want: []string{"declared latin1 (.editorconfig), but its bytes are UTF-8 text"}},
		// ASCII in a cp1251 file with a byte cp1251 has no character for:
		// not written on a guess.
		{name: "asciiInAnUndecodableFile", before: tree{".gitattributes": "* working-tree-encoding=cp1251\n", "t.txt": "a\x98\nb\n"},
			e:    edit.Edit{Op: edit.Replace, Path: "t.txt", Old: "b", New: "c", Count: 1, Format: edit.FormatSearchReplace},
			want: []string{"not valid cp1251"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.before)
			opts := testOpts(t, root)
			opts.Encoding = tt.encoding
			res, err := Apply(context.Background(), []edit.Edit{tt.e}, opts)
			if err == nil || !hasCode(res.Errors, edit.CodeBinaryFile) {
				t.Fatalf("Apply: %v, want BINARY_FILE", err)
			}
			msg := res.Errors[0].Msg
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not say %q", msg, w)
				}
			}
			if res.Errors[0].Hint == "" {
				t.Error("no hint")
			}
			diffTrees(t, "tree", readTree(t, root), tt.before)
		})
	}
}

// An unknown --encoding is a usage error, before anything is read.
func TestEncodingOptionUnknown(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree{"t.txt": "a\n"})
	opts := testOpts(t, root)
	opts.Encoding = "no-such-encoding"
	res, err := Apply(context.Background(), []edit.Edit{replace("t.txt", "a", "b")}, opts)
	if err == nil || !hasCode(res.Errors, edit.CodeUsage) || !strings.Contains(res.Errors[0].Msg, "no-such-encoding") {
		t.Fatalf("Apply: %v, want USAGE naming the encoding", err)
	}
	diffTrees(t, "tree", readTree(t, root), tree{"t.txt": "a\n"})
	for _, name := range []string{"iso-2022-jp", "hz-gb-2312"} {
		if validEncoding(name) == nil {
			t.Errorf("%s is accepted; a stateful encoding could change the bytes of kept lines", name)
		}
	}
}

// A file created where a file in another encoding was renamed away or
// deleted is written in the encoding its path declares, not the old
// file's: a UTF-16 byte order mark was that file's own, and a new text
// written in UTF-16 without it would read back as binary.
func TestNewFileAtMovedPathTakesDeclaredEncoding(t *testing.T) {
	create := func(p, text string) edit.Edit {
		return edit.Edit{Op: edit.Replace, Path: p, New: text, Format: edit.FormatSearchReplace}
	}
	root := t.TempDir()
	before := tree{
		".gitattributes": "*.ini working-tree-encoding=cp1251\n",
		"a.txt":          utf16le("ab\n", true),
		"b.ini":          utf16le("cd\n", true),
		"c.txt":          utf16le("ef\n", true),
	}
	writeTree(t, root, before)
	edits := []edit.Edit{
		{Op: edit.Rename, Path: "a.txt", New: "g.txt"}, create("a.txt", "package a\n"),
		{Op: edit.Rename, Path: "b.ini", New: "h.ini"}, create("b.ini", "ключ\n"),
		{Op: edit.Delete, Path: "c.txt"}, create("c.txt", "new\n"),
	}
	if _, err := Apply(context.Background(), edits, testOpts(t, root)); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "applied", readTree(t, root), tree{".gitattributes": before[".gitattributes"],
		"g.txt": before["a.txt"], "a.txt": "package a\n",
		"h.ini": before["b.ini"], "b.ini": in(cp1251, "ключ\n"),
		"c.txt": "new\n"})
}

// Undo puts back the very bytes an encoded file had.
func TestUndoRestoresEncodedBytes(t *testing.T) {
	root := t.TempDir()
	before := tree{
		".gitattributes": "*.txt working-tree-encoding=cp1251\n",
		"t.txt":          in(cp1251, "привет\r\nend\r\n"),
		"r.rc":           utf16le("a\r\nb\r\n", true),
	}
	writeTree(t, root, before)
	opts := testOpts(t, root)
	edits := []edit.Edit{replace("t.txt", "end", "конец"), replace("r.rc", "b", "ü")}
	if _, err := Apply(context.Background(), edits, opts); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, "applied", readTree(t, root), tree{".gitattributes": before[".gitattributes"],
		"t.txt": in(cp1251, "привет\r\nконец\r\n"), "r.rc": utf16le("a\r\nü\r\n", true)})
	res, err := Undo(context.Background(), opts)
	if err != nil || !res.OK {
		t.Fatalf("Undo: %v", err)
	}
	diffTrees(t, "undone", readTree(t, root), before)
}

// The check reads an encoded file's bytes as its text: a byte planted
// outside the edit's span is refused, INTERNAL, as in a UTF-8 file.
func TestCheckReadsEncodedBytes(t *testing.T) {
	root := t.TempDir()
	before := tree{"r.rc": utf16le("one\r\ntwo\r\nthree\r\n", true)}
	writeTree(t, root, before)
	plant(t, func(p string, b []byte, m fs.FileMode) ([]byte, fs.FileMode) {
		s := strings.Replace(string(b), utf16le("three", false), utf16le("thr3e", false), 1)
		return []byte(s), m
	})
	res, err := Apply(context.Background(), []edit.Edit{replace("r.rc", "two", "TWO")}, testOpts(t, root))
	if err == nil || internalRule(res) != "replay" {
		t.Fatalf("Apply: %v (rule %q), want INTERNAL replay", err, internalRule(res))
	}
	diffTrees(t, "tree", readTree(t, root), before)
}

// Read shows an encoded file's text, numbered as the edits count it, and
// the hash of its bytes.
func TestReadShowsEncodedText(t *testing.T) {
	root := t.TempDir()
	raw := utf16le("a = 1\r\nb = ü\r\n", true)
	writeTree(t, root, tree{"r.rc": raw, ".gitattributes": "*.txt working-tree-encoding=cp1251\n", "t.txt": in(cp1251, "да\n")})
	w, err := Read(Options{Root: root}, "r.rc", 2, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(w.Lines, w.Total); got != "[b = ü] 2" || w.Hash != HashBytes([]byte(raw)) {
		t.Errorf("window %s, hash %s", got, w.Hash)
	}
	w, err = Read(Options{Root: root}, "t.txt", 1, 1, 0)
	if err != nil || len(w.Lines) != 1 || w.Lines[0] != "да" {
		t.Errorf("t.txt: %v, %v", w, err)
	}
}
