// Package textenc says what encoding each file of a tree is in and moves
// its text between those bytes and UTF-8, exactly or not at all.
//
// A file's encoding is the one a caller names (--encoding), or the one
// the tree declares for its path (.gitattributes' working-tree-encoding,
// then .editorconfig's charset), or a UTF-16 byte order mark shows; else
// UTF-8. A declaration of UTF-8 is the default's: a UTF-16 byte order mark
// still shows.
//
// A file is decoded only when its bytes come back from its text
// unchanged, and text is encoded only when every character of it comes
// back from its bytes: an encoding that would map a character to another
// (Shift_JIS's yen sign to a backslash) cannot hold it. Every encoding
// offered encodes a character at a time, the same bytes wherever it
// stands, so that the bytes of the text an edit keeps are the file's own;
// stateful encodings (ISO-2022-JP, HZ) are refused for that reason.
package textenc

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// An Encoding is a file's encoding and where it was found.
type Encoding struct {
	name   string // as declared, lowercased
	source string // where it was declared, for messages
	codec  encoding.Encoding
	// utf16 says the name gives no byte order: a byte order mark
	// decides it, big-endian without one (RFC 2781).
	utf16 bool
}

// Name is the encoding's name as it was declared.
func (e *Encoding) Name() string { return e.name }

// Source says where the encoding was declared: "--encoding",
// ".gitattributes", "sub/.editorconfig", "its byte order mark".
func (e *Encoding) Source() string { return e.source }

// markSource is the Source of an encoding that only a file's byte order
// mark shows.
const markSource = "its byte order mark"

// ByMark reports whether only a byte order mark showed the encoding, no
// declaration: it holds for a text only while the text begins with one.
func (e *Encoding) ByMark() bool { return e != nil && e.source == markSource }

// UTF8 reports whether the encoding is UTF-8: its bytes are the text.
func (e *Encoding) UTF8() bool { return e == nil || e.codec == nil }

// String is the name and its source, for messages: "cp1251 (.gitattributes)".
func (e *Encoding) String() string {
	if e.source == "" {
		return e.name
	}
	return e.name + " (" + e.source + ")"
}

// ErrUnknown is Lookup's error for a name no encoding has.
var ErrUnknown = errors.New("unknown encoding")

// errStateful is Lookup's error for an encoding whose bytes for a
// character depend on what stands before it.
var errStateful = errors.New("a stateful encoding, which edapply does not edit: the bytes of the lines an edit keeps could change")

// Lookup returns the encoding named name, case-insensitively: the
// .editorconfig charsets (latin1, utf-8, utf-8-bom, utf-16le, utf-16be),
// IANA's names and aliases (ISO-8859-1, Shift_JIS, UTF-16, ...), the WHATWG
// labels (cp1251, sjis, ...) and git's UTF-16LE-BOM and the like. The
// source is the returned encoding's Source.
func Lookup(name, source string) (*Encoding, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	e := &Encoding{name: key, source: source}
	switch key {
	case "":
		return nil, ErrUnknown
	case "utf-8", "utf8", "utf-8-bom", "utf8-bom":
		return e, nil
	case "latin1", "latin-1", "iso-8859-1", "iso8859-1", "iso_8859-1":
		// ISO-8859-1 as .editorconfig means it; the WHATWG label would be
		// windows-1252.
		e.codec, _ = ianaindex.IANA.Encoding("ISO-8859-1")
		return e, nil
	case "utf-16", "utf16", "ucs-2", "utf-16-bom":
		e.codec, e.utf16 = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), true
		return e, nil
	case "utf-16le", "utf16le", "utf-16le-bom", "ucs-2le":
		e.codec = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
		return e, nil
	case "utf-16be", "utf16be", "utf-16be-bom", "ucs-2be":
		e.codec = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
		return e, nil
	case "utf-32le", "utf32le":
		e.codec = utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)
		return e, nil
	case "utf-32be", "utf32be", "utf-32", "utf32":
		e.codec = utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM)
		return e, nil
	}
	var codec encoding.Encoding
	for _, k := range []string{key, strings.ReplaceAll(key, "-", "_"), strings.ReplaceAll(key, "_", "-")} {
		if c, err := ianaindex.IANA.Encoding(k); err == nil && c != nil {
			codec = c
			break
		}
		if c, err := htmlindex.Get(k); err == nil && c != nil {
			codec = c
			break
		}
	}
	switch codec {
	case nil:
		return nil, ErrUnknown
	case japanese.ISO2022JP, simplifiedchinese.HZGB2312, encoding.Replacement:
		return nil, errStateful
	}
	if u, _ := htmlindex.Name(codec); u == "utf-8" {
		return e, nil
	}
	e.codec = codec
	return e, nil
}

// Decode returns raw, bytes in e, as UTF-8 text, and whether they are
// that text's exact bytes: bytes e has no character for, or that it
// would write otherwise, are not e's. A byte order mark is kept as the
// text's U+FEFF.
func (e *Encoding) Decode(raw []byte) (string, bool) {
	if e.UTF8() {
		return string(raw), utf8.Valid(raw)
	}
	codec := e.codecFor(raw)
	text, err := codec.NewDecoder().Bytes(raw)
	if err != nil || !utf8.Valid(text) {
		return "", false
	}
	back, err := codec.NewEncoder().Bytes(text)
	if err != nil || !bytes.Equal(back, raw) {
		return "", false
	}
	return string(text), true
}

// codecFor is e's codec for a file whose bytes begin as head: for UTF-16
// without a byte order in the name, the one its byte order mark shows.
func (e *Encoding) codecFor(head []byte) encoding.Encoding {
	if e.utf16 && bytes.HasPrefix(head, []byte{0xFF, 0xFE}) {
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	}
	return e.codec
}

// An Unencodable is the first character of a text that an encoding
// cannot hold.
type Unencodable struct {
	Rune rune
	Line int    // 1-based line of the text it stands on
	Text string // that line, without its line ending
}

func (u *Unencodable) Error() string {
	return fmt.Sprintf("%q (U+%04X) on line %d", u.Rune, u.Rune, u.Line)
}

// Encode returns text in e, for a file whose bytes began as head (which
// decides UTF-16's byte order; nil for a new file), or the first
// character e cannot hold.
func (e *Encoding) Encode(text string, head []byte) ([]byte, *Unencodable) {
	if e.UTF8() {
		return []byte(text), nil
	}
	codec := e.codecFor(head)
	b, err := codec.NewEncoder().String(text)
	if err == nil {
		if back, derr := codec.NewDecoder().String(b); derr == nil && back == text {
			return []byte(b), nil
		}
	}
	if u := e.first(codec, text); u != nil {
		return nil, u
	}
	// Every character comes back alone but not all together: never with
	// a stateless codec; refused all the same.
	r, _ := utf8.DecodeRuneInString(text)
	return nil, &Unencodable{Rune: r, Line: 1, Text: firstLine(text)}
}

// Check returns the first character of text that e cannot hold; nil when
// it holds them all.
func (e *Encoding) Check(text string) *Unencodable {
	if e.UTF8() {
		return nil
	}
	b, err := e.codec.NewEncoder().String(text)
	if err == nil {
		if back, derr := e.codec.NewDecoder().String(b); derr == nil && back == text {
			return nil
		}
	}
	return e.first(e.codec, text)
}

// first finds the first character of text that codec cannot hold, one
// at a time: the slow way, taken once a text has failed.
func (e *Encoding) first(codec encoding.Encoding, text string) *Unencodable {
	line, start := 1, 0
	enc, dec := codec.NewEncoder(), codec.NewDecoder()
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == '\n' {
			line, start = line+1, i+1
		} else {
			s := text[i : i+n]
			b, err := enc.String(s)
			ok := err == nil && !(r == utf8.RuneError && n == 1)
			if ok {
				back, derr := dec.String(b)
				ok = derr == nil && back == s
			}
			if !ok {
				return &Unencodable{Rune: r, Line: line, Text: firstLine(text[start:])}
			}
		}
		i += n
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, "\r")
}
