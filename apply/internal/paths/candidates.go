package paths

import (
	"bytes"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/edapply/edapply/edit"
)

// Path candidates: when an edit names a file the tree does not have (a
// wrong directory, a placeholder, another machine's absolute path), the
// error names the file it probably means, so the model's next turn uses
// that path. They are a hint and never applied: a guess at which file the
// model meant is exactly what must not be written.
//
// They are looked for only on the failure path, in a walk of the tree
// bounded so a huge tree cannot make a failing apply slow.

const (
	// maxPathCandidates is how many files a path candidate list names; more
	// files that fit equally well say nothing about which one was meant.
	maxPathCandidates = 3
	// The search for files holding an edit's old text reads no file
	// larger than maxScanFile, and at most maxScanTotal bytes in all.
	maxScanFile  = 1 << 20
	maxScanTotal = 32 << 20
	// scanFileCost is what looking at one file costs of maxScanTotal
	// besides its bytes: at most 8,192 files are looked at per apply.
	scanFileCost = 4 << 10
)

// pathParts splits a path as a model wrote it into its names, on "/" and
// "\", without a Windows drive, empty names and ".".
func pathParts(p string) []string {
	if len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) {
		p = p[2:]
	}
	var parts []string
	for _, s := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if s != "." {
			parts = append(parts, s)
		}
	}
	return parts
}

// suffixMatches returns the files of ix whose path ends with the longest
// run of p's trailing names that any file ends with: the files p most
// probably means. By base name alone, a file is named only when it is the
// one file with that name in a tree walked whole; a longer common ending
// names up to maxPathCandidates files. Names are compared exactly, and
// without case only when that finds nothing. Only the files with p's base name, without
// case, are looked at, so a response of many wrong paths costs little.
func suffixMatches(p string, ix *Index) []string {
	want := pathParts(p)
	if len(want) == 0 {
		return nil
	}
	ix.indexBases()
	first := ix.bases[strings.ToLower(want[len(want)-1])]
	for _, eq := range []func(a, b string) bool{func(a, b string) bool { return a == b }, strings.EqualFold} {
		best, picks := 0, []string(nil)
		for i := first; i != 0; i = ix.sameBase[i-1] {
			f := ix.files[i-1]
			have := strings.Split(f, "/")
			k := 0
			for k < len(want) && k < len(have) && eq(want[len(want)-1-k], have[len(have)-1-k]) {
				k++
			}
			switch {
			case k == 0 || k < best:
			case k > best:
				best, picks = k, []string{f}
			default:
				picks = append(picks, f)
			}
		}
		if best == 0 {
			continue
		}
		// By base name alone a file is the one meant only if it is the
		// tree's one file of that name, which a walk cut short cannot tell.
		if best == 1 && (len(picks) > 1 || ix.cut) || len(picks) > maxPathCandidates {
			return nil
		}
		slices.Sort(picks)
		return picks
	}
	return nil
}

// indexBases indexes ix's files by base name in lower case, once: the
// files of one name are a chain through sameBase from bases.
func (ix *Index) indexBases() {
	if ix.bases != nil {
		return
	}
	ix.bases = make(map[string]int32, len(ix.files))
	ix.sameBase = make([]int32, len(ix.files))
	for i, f := range ix.files {
		k := strings.ToLower(path.Base(f))
		ix.sameBase[i] = ix.bases[k]
		ix.bases[k] = int32(i + 1)
	}
}

// holdingText returns the files that contain old, with either line ending,
// when at most maxPathCandidates do; nothing when ix's budget runs out
// before every file is looked at, or the walk did not list them all.
func holdingText(root *os.Root, ix *Index, old string) []string {
	if strings.TrimSpace(old) == "" || ix.budget <= 0 || ix.cut {
		return nil
	}
	lf := []byte(strings.ReplaceAll(old, "\r\n", "\n"))
	var picks []string
	for _, f := range ix.files {
		// Each file costs its size and a fixed amount for looking at it,
		// so that many small files, or many failing edits, are bounded too.
		if ix.budget -= scanFileCost; ix.budget < 0 {
			ix.budget = 0
			return nil // a search cut short names no file: another may hold the text too
		}
		ix.stats++
		fi, err := root.Lstat(f)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScanFile || fi.Size() < int64(len(lf)) {
			continue
		}
		if ix.budget -= int(fi.Size()); ix.budget < 0 {
			ix.budget = 0
			return nil
		}
		b, err := root.ReadFile(f)
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		if bytes.Contains(b, []byte(old)) || bytes.Contains(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), lf) {
			if picks = append(picks, f); len(picks) > maxPathCandidates {
				return nil
			}
		}
	}
	return picks
}

// AddCandidates names, in err (FILE_NOT_FOUND, or OUT_OF_ROOT for an
// absolute path written), the files of the tree under root that written
// probably means, and says in the hint to use that path. old is the edit's
// text to find, if any: when no file's path fits, the files holding it are
// named instead. *ix is the tree's index (see NewIndex), made if nil and
// walked on first need, the directories the first path written names
// first; later calls with it read the tree no more. When the walk was
// cut short the hint says so.
func AddCandidates(root *os.Root, ix **Index, err *edit.Error, written, old string) {
	switch {
	case len(err.Candidates) > 0:
		return
	case err.Code == edit.CodeFileNotFound:
	case err.Code == edit.CodeOutOfRoot && (strings.HasPrefix(written, "/") || isWindowsAbs(written)) && strings.IndexByte(written, 0) < 0:
	default:
		return
	}
	if *ix == nil {
		*ix = NewIndex(0)
	}
	if !(*ix).walked {
		(*ix).walk(root, written)
	}
	picks := suffixMatches(written, *ix)
	byText := false
	if len(picks) == 0 && err.Code == edit.CodeFileNotFound {
		picks, byText = holdingText(root, *ix, old), true
	}
	if len(picks) == 0 {
		if (*ix).cut {
			err.Hint = strings.TrimSpace(err.Hint + " The tree is too large to search whole for the file meant: name it by its path from the root of the tree.")
		}
		return
	}
	defer func() {
		if (*ix).cut {
			err.Hint += " The search of the tree was cut short, so another file may fit as well."
		}
	}()
	for _, f := range picks {
		err.Candidates = append(err.Candidates, edit.Candidate{Path: f})
	}
	names := "`" + strings.Join(picks, "`, `") + "`"
	probably := "probably " + names
	if len(picks) > 1 {
		probably = "probably one of " + names
	}
	switch {
	case err.Code == edit.CodeOutOfRoot:
		err.Hint = "Name files by their path relative to the root of the working tree: this one is " + probably + "."
	case byText:
		err.Hint = "No file has this path, but the text to find is in " + names + "; name the file by its path in the tree."
	default:
		err.Hint = "No file has this path; the tree has " + names + ": name the file by its path in the tree, or, to create a new file, give its full path from the root."
	}
}

// Placeholder returns FILE_NOT_FOUND when rel, a resolved path, lies under
// a placeholder directory (see placeholderDir), nil otherwise.
func (c *Cache) Placeholder(rel string) *edit.Error {
	dir := c.placeholderDir(rel)
	if dir == "" {
		return nil
	}
	return &edit.Error{Code: edit.CodeFileNotFound, Msg: "no such file: " + dir + "/ is a placeholder, not a directory of the tree",
		Hint: "Name the file by its path in the tree; a new file gets a real directory, never a placeholder's."}
}

// placeholderDir returns the first directory of rel, a resolved path, that
// does not exist and is named like a placeholder (see isPlaceholderDir),
// with the placeholders that follow it, or "" if there is none. Such a
// directory is never created.
func (c *Cache) placeholderDir(rel string) string {
	parts := strings.Split(rel, "/")
	for i := range len(parts) - 1 {
		if !isPlaceholderDir(parts, i) {
			continue
		}
		dir := strings.Join(parts[:i+1], "/")
		if _, err := c.Lstat(dir); err != nil {
			// Name the whole run of placeholders: path/to, not path.
			for i+1 < len(parts)-1 && isPlaceholderDir(parts, i+1) {
				i++
			}
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

// isPlaceholderDir reports whether parts[i], a directory, is named like a
// placeholder of documentation rather than a directory of a tree: "...",
// "…", "~", a name in <>, {} or %%, a $VARIABLE, "path" followed by "to"
// (and that "to"), or, ignoring case, "_", "-", "." and spaces, a name that
// starts with "your" or "pathto", or is "projectroot", "projectdir",
// "projectname", "reporoot" or "rootdir".
func isPlaceholderDir(parts []string, i int) bool {
	name := parts[i]
	switch {
	case name == "..." || name == "…" || name == "~":
		return true
	case len(name) >= 2 && (name[0] == '<' && name[len(name)-1] == '>' || name[0] == '{' && name[len(name)-1] == '}' ||
		name[0] == '%' && name[len(name)-1] == '%'):
		return true
	case len(name) >= 2 && name[0] == '$':
		return true
	case strings.EqualFold(name, "path") && i+2 < len(parts) && strings.EqualFold(parts[i+1], "to"),
		strings.EqualFold(name, "to") && i > 0 && strings.EqualFold(parts[i-1], "path"):
		return true
	}
	key := strings.ToLower(strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			return -1
		}
		return r
	}, name))
	switch key {
	case "projectroot", "projectdir", "projectname", "reporoot", "rootdir":
		return true
	}
	return strings.HasPrefix(key, "your") || strings.HasPrefix(key, "pathto")
}
