package apply

import (
	"strings"
	"unicode/utf8"

	"github.com/edapply/edapply/edit"
	"github.com/edapply/edapply/internal/remedy"
)

// A file keeps its encoding. A reply is UTF-8; a file that is not (a
// cp1251 or Latin-1 file edapply edits byte for byte) cannot hold the
// non-ASCII text a model writes in it: written there, its bytes would be
// read in the file's encoding as other characters, and the file would be
// in two encodings. So an edit to such a file may add ASCII text, and
// keep the file's own lines whatever their bytes, but a line it adds that
// holds non-ASCII UTF-8 is refused, BINARY_FILE, naming the problem. The
// file's encoding is the one it had before the reply; the lines an edit
// keeps are those of the content it edits.

// foreign reports whether f is a file that stood before the reply and is
// not UTF-8 (its bytes, without a UTF-8 byte order mark, are not valid
// UTF-8), judged once.
func (p *planner) foreign(f *file) bool {
	if !f.foreignKnown {
		f.foreignKnown = true
		if o := f.origin; o != nil && o.orig.Exists {
			body, _ := splitBOM(o.orig.Data)
			f.isForeign = !utf8.ValidString(body)
		}
	}
	return f.isForeign
}

// hasNonASCII reports whether s holds a byte that is not ASCII.
func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// foreignLine returns the first line of written, text an edit puts in a
// file whose content was before, that holds non-ASCII UTF-8 and is no
// line of before: a line the edit adds in an encoding the file may not
// have. A line of before is the file's own bytes, kept.
func foreignLine(before, written string) (string, bool) {
	var have map[string]bool
	for l := range strings.SplitSeq(written, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if !hasNonASCII(l) || !utf8.ValidString(l) {
			continue // ASCII, or bytes no UTF-8 text has: the file's own
		}
		if have == nil {
			have = map[string]bool{}
			for k := range strings.SplitSeq(before, "\n") {
				have[strings.TrimSuffix(k, "\r")] = true
			}
		}
		if !have[l] {
			return l, true
		}
	}
	return "", false
}

// encodingErr is the BINARY_FILE of an edit that adds line, non-ASCII
// UTF-8, to a file that is not UTF-8.
func encodingErr(line string) *edit.Error {
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "…"
	}
	return remedy.Mark(&edit.Error{Code: edit.CodeBinaryFile,
		Msg: "the file is not UTF-8, and the edit adds non-ASCII text it may not hold in its encoding: `" + line + "`",
		Hint: "Write the lines the edit adds in ASCII, or declare the file's encoding (working-tree-encoding in .gitattributes, or charset in .editorconfig) " +
			"so that the text is converted to it."}, remedy.Encoding)
}
