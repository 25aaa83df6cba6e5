package apply

import (
	"bytes"
	"io/fs"
	"unsafe"
)

// defaultMode is a new file's mode when its edit names none.
const defaultMode fs.FileMode = 0o644

// isBinary reports whether b is a file edapply refuses to edit as text: one
// with a NUL byte anywhere, or a UTF-16 (or UTF-32) byte order mark, which
// a file edited as its text (decode.go) has as U+FEFF. Bytes that are
// merely not UTF-8 are text (Windows-1252 and the like) and are edited
// byte for byte. The whole file is scanned, not a prefix: a NUL past
// the first 8 KiB still means a splice could cut through binary data.
func isBinary(b []byte) bool {
	if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) {
		return true
	}
	return bytes.IndexByte(b, 0) >= 0
}

const bom = "\uFEFF"

// readOnlyBytes is s's bytes, not copied, for code that only reads them
// (a hash, word-at-a-time loads).
func readOnlyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// viewString is b's bytes as a string, not copied, for code that only
// reads them while b is never written (see state).
func viewString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// splitBOM returns b without its UTF-8 byte order mark, and whether it had
// one. The string shares b's bytes rather than copying the whole file on
// every plan: a content's bytes are never written once made (see state).
func splitBOM(b []byte) (string, bool) {
	s := viewString(b)
	if len(s) >= len(bom) && s[:len(bom)] == bom {
		return s[len(bom):], true
	}
	return s, false
}
