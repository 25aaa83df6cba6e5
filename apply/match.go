package apply

import (
	"strings"

	"github.com/edapply/edapply/edit"
)

// A splice replaces content[Start:End] with New. Offsets are bytes.
type splice struct {
	Start, End int
	New        string
}

// A location is where the ladder found a Replace edit, and what to write.
type location struct {
	Splices   []splice // ascending, non-overlapping; empty when already applied
	Strategy  Strategy
	Status    Status // StatusApplied or StatusAlreadyApplied
	LineStart int    // 1-based, of the first splice (or of the already-applied text)
	LineEnd   int
	Matched   string // the file's text the first match covers (normalize's SEARCH)
	Written   string // the text written in its place (normalize's REPLACE)
}

// matchOptions are the parts of Options the ladder reads.
type matchOptions struct {
	Strict         bool
	TrimTrailingWS bool
}

// locate finds e (a Replace with non-empty Old) in content, which is the
// file's current text without its BOM, and returns the splices that apply it.
// The returned error carries Code, Msg, Hint and Candidates; the caller sets
// Path and Edit.
//
// This is the exact rung only; the tolerance ladder replaces it.
func locate(content string, e *edit.Edit, opts matchOptions) (location, *edit.Error) {
	old, nw := e.Old, e.New
	if strings.Contains(content, "\r\n") {
		old, nw = toCRLF(old), toCRLF(nw)
	}
	n := strings.Count(content, old)
	want := e.Count
	switch {
	case n == 0:
		return location{}, &edit.Error{Code: edit.CodeNoMatch, Msg: "SEARCH text not found",
			Hint: "Copy the lines to replace exactly as they stand in the file."}
	case want > 0 && n != want:
		return location{}, &edit.Error{Code: edit.CodeMultipleMatches, Msg: "SEARCH text found more than once",
			Hint: "Add surrounding lines to the SEARCH text until it matches one place."}
	}
	var loc location
	loc.Strategy, loc.Status = StrategyExact, StatusApplied
	off := 0
	for {
		i := strings.Index(content[off:], old)
		if i < 0 {
			break
		}
		loc.Splices = append(loc.Splices, splice{off + i, off + i + len(old), nw})
		off += i + len(old)
	}
	first := loc.Splices[0]
	loc.Matched, loc.Written = content[first.Start:first.End], first.New
	loc.LineStart = strings.Count(content[:first.Start], "\n") + 1
	loc.LineEnd = loc.LineStart + strings.Count(strings.TrimSuffix(old, "\n"), "\n")
	return loc, nil
}

func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// elidedRewrite reports whether rewritten, a whole-file rewrite of original,
// stands in for code of original with a placeholder such as
// "// ... existing code ..."; line is the placeholder's 1-based line in
// rewritten. Stub: the ladder's elision rules replace it.
func elidedRewrite(original, rewritten string) (line int, elided bool) { return 0, false }

// elidedReplacement reports whether a Replace's new text drops code with a
// placeholder that its old text does not have at the same place.
// Stub: the ladder's elision rules replace it.
func elidedReplacement(old, new string) (line int, elided bool) { return 0, false }

// sameContent reports whether content equals want as a whole file, up to
// line endings and trailing whitespace (a diff's deletion must match the
// whole file). Stub: the ladder replaces it.
func sameContent(content, want string) bool {
	return strings.ReplaceAll(content, "\r\n", "\n") == strings.ReplaceAll(want, "\r\n", "\n")
}
