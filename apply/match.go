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
	loc.LineStart = strings.Count(content[:first.Start], "\n") + 1
	loc.LineEnd = loc.LineStart + strings.Count(strings.TrimSuffix(old, "\n"), "\n")
	return loc, nil
}

func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}
