package edit

import (
	"fmt"
	"strings"
)

// A Format names one of the edit formats models write. An Edit carries
// the one it was written in; FormatAuto, the zero value, is none named (an
// edit built by hand), and as a choice reads each region of a reply by its
// own markers.
type Format int

const (
	FormatAuto          Format = iota // detect each region by its markers
	FormatSearchReplace               // Aider SEARCH/REPLACE blocks
	FormatUDiff                       // unified diffs, git or loose
	FormatWhole                       // a path, then a fence holding the whole file
	FormatCodex                       // *** Begin Patch envelopes
	FormatJSON                        // str_replace-style tool calls
)

// formatFacts is the one table of what users are told about each format:
// its --format name and what it reads, for usage text, shell completion and
// the headings of `edapply help formats`.
var formatFacts = [...]struct{ name, about string }{
	FormatAuto:          {"auto", "detect each region of the reply by its markers"},
	FormatSearchReplace: {"search-replace", "SEARCH/REPLACE blocks (Aider, Cline, Roo Code)"},
	FormatUDiff:         {"udiff", "unified diffs, git or loose"},
	FormatWhole:         {"whole", "a path, then a fence holding the whole file"},
	FormatCodex:         {"codex", "*** Begin Patch envelopes"},
	FormatJSON:          {"json", "str_replace-style tool calls"},
}

// String returns the format's name as the --format flag spells it.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatFacts) {
		return formatFacts[f].name
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// About says in a few words what the format reads.
func (f Format) About() string {
	if f >= 0 && int(f) < len(formatFacts) {
		return formatFacts[f].about
	}
	return ""
}

// FormatNames lists every format's name, FormatAuto first, as usage text
// spells the choice: "auto, search-replace, ...".
func FormatNames() string {
	names := make([]string, len(formatFacts))
	for i, fact := range formatFacts {
		names[i] = fact.name
	}
	return strings.Join(names, ", ")
}

// Set parses a --format value; with String and Type it satisfies pflag.Value.
func (f *Format) Set(s string) error {
	for i, fact := range formatFacts {
		if fact.name == s {
			*f = Format(i)
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (want one of %s)", s, FormatNames())
}

// Type names the flag's value type in usage text.
func (f *Format) Type() string { return "format" }

// Formats returns every format, FormatAuto first, in the order their names
// are listed in usage text and shell completion.
func Formats() []Format {
	fs := make([]Format, len(formatFacts))
	for i := range fs {
		fs[i] = Format(i)
	}
	return fs
}
