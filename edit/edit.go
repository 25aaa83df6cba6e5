// Package edit defines the intermediate representation every edit format
// lowers to, and the error vocabulary of the command-line contract.
package edit

import "fmt"

// An Op is what an Edit does to its file.
type Op int

const (
	Create  Op = iota + 1 // write a new file; it must not exist (or be empty)
	Delete                // remove a file; it must exist
	Replace               // replace Old with New, exactly Count times (0: every occurrence, at least one)
	Rewrite               // replace the whole file with New; creates it when absent
	Rename                // move Path to New (git rename, codex "Move to")
)

var opNames = [...]string{Create: "create", Delete: "delete", Replace: "replace", Rewrite: "rewrite", Rename: "rename"}

// String returns the op's lowercase name, as the parse JSON spells it.
func (o Op) String() string {
	if o > 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Valid reports whether o is one of the five ops.
func (o Op) Valid() bool { return o >= Create && o <= Rename }

// An Edit is one change to one file, as the model wrote it. Text fields keep
// the model's bytes; line endings, BOM and tolerance are the applier's job.
type Edit struct {
	Op   Op
	Path string // slash-separated, relative to the root, as written (cleaned of "./" and quoting)
	Old  string // Replace: the text to find; Delete: the content the file must have ("" = any)
	New  string // Create, Replace, Rewrite: the text to put in place; Rename: the destination path
	// Count is how many times Old must occur for a Replace: 1 for SEARCH/REPLACE
	// and diff hunks, 0 for replace_all (every occurrence, at least one).
	Count int
	// EveryKey is, for a tool call's Replace, the argument that asks it
	// for every occurrence as the call's tool names it ("replace_all",
	// "replaceAll", "allow_multiple", "expected_replacements"); empty when
	// its tool has none (str_replace) or the edit is no tool call. A hint
	// about an old text found in several places names it.
	EveryKey string
	// Names are what the reply called Old and New, where its format has
	// more than one name for them: a tool call's arguments ("old_str",
	// "oldString", "before"), Zed's tags ("<old_text>"). A hint names
	// the texts so, in the model's own words. nil for the format's usual
	// names (old_string, SEARCH); shared, never changed.
	Names *TextNames
	// Args names the arguments of the call's tool, when the caller that
	// lowered the call knows them (edapply's own MCP edit_file): the hints
	// about whole files (a create of a file that exists, an edit of one
	// that does not) then name those alone. nil for an edit parse read,
	// whose hints name the arguments of the calls of its format.
	Args *ToolArgs
	Hint int // Replace: 1-based line where Old should start (udiff @@); 0 if unknown
	Line int // 1-based line of the model output where this edit begins

	// Anchors are context lines (codex "@@ func f() {") that must occur, in
	// order, before Old; the search for Old starts after the last of them.
	Anchors []string
	// AtEOF requires Old to end at the end of the file (codex "*** End of File").
	AtEOF bool
	// Tentative marks a Rewrite read from a path line over a fence when the
	// caller did not say the reply holds whole files (--format auto): the
	// applier keeps it only when it is explainable as the whole file, not a
	// snippet of it.
	Tentative bool
	// LeadContext and TrailContext count, for a diff hunk, the context
	// lines that begin and end both Old and New: anchors the ladder may
	// do without when one of them disagrees with the file (see package
	// locate's hunk edges). 0 for every other edit.
	LeadContext, TrailContext int
	// Marks, for an edit whose format marks each line as kept, removed or
	// added (a diff hunk, a Codex chunk), holds one byte per line of the
	// hunk in the order written: ' ' a line of both Old and New, '-' a
	// line of Old only, '+' a line of New only. It says which line of Old
	// each kept line of New is, where a line diff of the two texts could
	// not ("-x" then " x" keeps the second x). "" for formats that mark
	// no lines: their kept lines are paired by a line diff.
	Marks string
	// Mode is the file mode a git diff gives the file (0644, 0755); 0 keeps it.
	Mode uint32

	Format Format // the format the edit was written in (FormatAuto: none named)
	Start  int    // byte offset in the model output where the edit's region begins
	End    int    // byte offset just past the edit's region
	Block  int    // index of the region (block, hunk, call) within the model output, from 0
}

// ToolArgs names arguments of the tool an edit was sent to.
type ToolArgs struct {
	Old   string // the text to replace ("old_string"); an empty one creates the file
	Whole string // the text of a whole file ("content"); "" when the tool takes none
}

// TextNames are the names a reply gave an edit's old and new texts
// (Edit.Names).
type TextNames struct{ Old, New string }

// Kept pairs New's lines with Old's as Marks says: kept[j] is the index of
// the line of Old that line j of New keeps, or -1 for a line New adds. It
// returns nil when Marks is empty or does not count Old's and New's lines
// (oldLines and newLines, each text's lines with a last line that lacks a
// newline counted).
func (e *Edit) Kept(oldLines, newLines int) []int {
	if e.Marks == "" {
		return nil
	}
	kept := make([]int, 0, newLines)
	i := 0
	for k := 0; k < len(e.Marks); k++ {
		switch e.Marks[k] {
		case ' ':
			kept = append(kept, i)
			i++
		case '-':
			i++
		case '+':
			kept = append(kept, -1)
		default:
			return nil
		}
	}
	if i != oldLines || len(kept) != newLines {
		return nil
	}
	return kept
}

// A LineRange is the 1-based, inclusive lines of one place an edit
// located: one of the occurrences an edit that replaced several changed.
type LineRange struct {
	Start, End int
}
