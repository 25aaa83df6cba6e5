package syntax

import (
	"strconv"
	"strings"
)

// Unified diffs: hunk headers, "--- "/"+++ " file headers and the lines
// git writes between "diff --git" and the first hunk.

// DevNull is the name a diff gives the missing side of a new or deleted
// file.
const DevNull = "/dev/null"

// IsHunkHeader reports whether t is an "@@" hunk header, with or without
// numbers ("@@ -1,3 +1,4 @@", "@@ ... @@", "@@ @@", "@@").
func IsHunkHeader(t string) bool {
	return strings.HasPrefix(t, "@@") && !strings.HasPrefix(t, "@@@")
}

// A diffName is one side of a "--- "/"+++ " header.
type diffName struct {
	name    string // as written, unquoted, without timestamp; DevNull for /dev/null
	lenient bool   // the name's end was marked (quotes or a tab), so it may hold spaces
}

// parseHeaderName reads the name of a "--- "/"+++ " line (s is what follows
// the prefix): a git-quoted name, or the text up to a tab (diff(1) puts a
// timestamp there; git adds a tab after names with spaces).
func parseHeaderName(s string) (diffName, bool) {
	if strings.HasPrefix(s, `"`) {
		if end := closingQuote(s); end > 0 {
			if u, err := strconv.Unquote(s[:end+1]); err == nil && u != "" {
				return diffName{name: u, lenient: true}, true
			}
		}
		return diffName{}, false
	}
	var n diffName
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s, n.lenient = s[:i], true
	} else if name, ok := cutSvnLabel(s); ok {
		// svn's "(revision N)" or "(working copy)" whose tab was lost.
		s = name
	}
	n.name = strings.TrimSpace(s)
	return n, n.name != ""
}

// cutSvnLabel returns s without the label svn writes after a header's name
// ("x.go (revision 12)", "(working copy)", "(nonexistent)"), when it has one.
func cutSvnLabel(s string) (string, bool) {
	s = strings.TrimRight(s, " ")
	if !strings.HasSuffix(s, ")") {
		return s, false
	}
	k := strings.LastIndex(s, " (")
	if k <= 0 {
		return s, false
	}
	switch label := s[k+2 : len(s)-1]; {
	case label == "working copy", label == "nonexistent":
	case strings.HasPrefix(label, "revision ") && isDigits(label[len("revision "):]):
	default:
		return s, false
	}
	return s[:k], true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// IsSvnNewFile reports whether the text after a "--- " header's name is
// svn's mark of a file that did not exist: "(revision 0)", "(nonexistent)".
func IsSvnNewFile(minus string) bool {
	s := strings.TrimRight(minus, " \t")
	return strings.HasSuffix(s, "(revision 0)") || strings.HasSuffix(s, "(nonexistent)")
}

// closingQuote returns the index of the quote closing the one at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// DiffPath cleans a path from a diff or envelope header. lenient admits
// spaces, which CleanPath refuses because prose is full of them, for names
// whose extent the format marks.
func DiffPath(s string, lenient bool) (string, bool) {
	c, ok := CleanPath(s)
	if !ok {
		if !lenient {
			return "", false
		}
		c = strings.TrimSpace(s)
		for strings.HasPrefix(c, "./") {
			c = c[2:]
		}
		if c == "" || c == "." || strings.ContainsAny(c, "\x00\r\n") || strings.HasSuffix(c, "/") {
			return "", false
		}
	}
	c = TidyPath(c)
	return c, c != "." && c != ""
}

// stripPrefixes removes git's "a/" and "b/" prefixes when the pair shows it
// uses them, so a real directory named "a" survives a prefix-less diff;
// and the prefixes of git's diff.mnemonicPrefix ("i/" index, "w/" work
// tree, "c/" commit, "o/" object) when both names carry a pair of them.
func stripPrefixes(oldName, newName string) (string, string, bool) {
	if o, n, ok := stripMnemonic(oldName, newName); ok {
		return o, n, true
	}
	oa := strings.HasPrefix(oldName, "a/")
	nb := strings.HasPrefix(newName, "b/")
	strippedOld, strippedNew := false, false
	if oa && (nb || newName == DevNull || oldName[2:] == newName) {
		oldName, strippedOld = oldName[2:], true
	}
	if nb && (strippedOld || oldName == DevNull || newName[2:] == oldName) {
		newName, strippedNew = newName[2:], true
	}
	return oldName, newName, strippedOld || strippedNew
}

// mnemonicPairs are the prefixes git diff writes with diff.mnemonicPrefix,
// old side then new: the index and the work tree, a commit and the work
// tree, a commit and the index, an object and the work tree.
var mnemonicPairs = []string{"iw", "cw", "ci", "ow"}

// stripMnemonic strips a pair of mnemonic prefixes from one name written
// on both sides ("--- i/x.go", "+++ w/x.go").
func stripMnemonic(oldName, newName string) (string, string, bool) {
	if len(oldName) < 3 || len(newName) < 3 || oldName[1] != '/' || newName[1] != '/' || oldName[2:] != newName[2:] {
		return oldName, newName, false
	}
	for _, pair := range mnemonicPairs {
		if oldName[0] == pair[0] && newName[0] == pair[1] {
			return oldName[2:], newName[2:], true
		}
	}
	return oldName, newName, false
}

// A FileHeader is a parsed "--- "/"+++ " pair.
type FileHeader struct {
	OldPath, NewPath string // cleaned; DevNull for /dev/null
}

// ReadFileHeader reports whether the lines minus and plus, one after the
// other, are a "--- old"/"+++ new" pair naming files, and reads it. In a
// git section (inGit) any such pair is the header; elsewhere both sides
// must look like paths, because removing a SQL or Lua comment "-- x" and
// adding "++ y" writes the same two prefixes. inTree is as for PathLineAt.
func ReadFileHeader(minus, plus string, inGit bool, inTree func(name string) bool) (h FileHeader, ok bool) {
	return readFileHeader(minus, plus, inGit, inTree, true)
}

// ReadFileHeaderAsWritten is ReadFileHeader keeping git's prefixes, for a
// caller that strips leading components itself (patch -pN).
func ReadFileHeaderAsWritten(minus, plus string, inGit bool, inTree func(name string) bool) (h FileHeader, ok bool) {
	return readFileHeader(minus, plus, inGit, inTree, false)
}

func readFileHeader(minus, plus string, inGit bool, inTree func(name string) bool, gitPrefixes bool) (h FileHeader, ok bool) {
	a, okA := strings.CutPrefix(minus, "--- ")
	b, okB := strings.CutPrefix(plus, "+++ ")
	if !okA || !okB {
		return h, false
	}
	on, okA := parseHeaderName(a)
	nn, okB := parseHeaderName(b)
	if !okA || !okB || on.name == DevNull && nn.name == DevNull {
		return h, false
	}
	// "--- a/my docs/x.py" and "+++ b/my docs/x.py": git's prefixes on
	// both sides of one name mark where it starts and ends, spaces and all.
	if !on.lenient && !nn.lenient && strings.HasPrefix(on.name, "a/") && strings.HasPrefix(nn.name, "b/") &&
		on.name[2:] == nn.name[2:] && looksLikeFile(on.name[2:]) {
		on.lenient, nn.lenient = true, true
	}
	// "--- dir name/x.txt" and "+++ dir name/x.txt": one name on both
	// sides, without prefixes, that the tree holds or that reads as a
	// path; a removed and re-added line of text is never the same line.
	if !on.lenient && !nn.lenient && on.name == nn.name && strings.Contains(on.name, " ") &&
		(inTree != nil && inTree(on.name) || strings.Contains(on.name, "/") && looksLikeFile(on.name)) {
		on.lenient, nn.lenient = true, true
	}
	oldName, newName, prefixed := on.name, nn.name, false
	if gitPrefixes {
		oldName, newName, prefixed = stripPrefixes(on.name, nn.name)
	}
	if oldName != DevNull {
		if h.OldPath, ok = DiffPath(oldName, on.lenient || inGit); !ok {
			return h, false
		}
	} else {
		h.OldPath = DevNull
	}
	if newName != DevNull {
		if h.NewPath, ok = DiffPath(newName, nn.lenient || inGit); !ok {
			return h, false
		}
	} else {
		h.NewPath = DevNull
	}
	// Two bare words ("--- lao", "+++ tzu") are a header only when the
	// tree has one of them: elsewhere, a removed "-- x" and an added "++ y".
	if !inGit && !prefixed && h.OldPath != DevNull && h.NewPath != DevNull &&
		h.OldPath != h.NewPath && !strings.ContainsAny(h.OldPath+h.NewPath, "/.") &&
		!(inTree != nil && (inTree(h.OldPath) || inTree(h.NewPath))) {
		return h, false
	}
	return h, true
}

// gitHeaderPrefixes are the lines git writes between "diff --git" and the
// first hunk (besides "--- "/"+++ "), as go-gitdiff knows them.
var gitHeaderPrefixes = []string{
	"old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"copy from ", "copy to ", "rename old ", "rename new ", "rename from ", "rename to ",
	"similarity index ", "dissimilarity index ", "index ",
}

// IsGitHeaderLine reports whether t is one of gitHeaderPrefixes' lines.
func IsGitHeaderLine(t string) bool {
	for _, pre := range gitHeaderPrefixes {
		if strings.HasPrefix(t, pre) {
			return true
		}
	}
	return false
}
