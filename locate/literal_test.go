package locate

import (
	"testing"

	"github.com/edapply/edapply/edit"
)

// A tool call's old_string found as sent is replaced by its new_string as
// sent, final newline and all, as the text-editor tools' str_replace
// replaces a string; a block or a hunk quotes whole lines, whose final
// newline the ladder evens out.
func TestToolCallReplacesLiterally(t *testing.T) {
	for name, c := range map[string]locateCase{
		// The old text stops at a line's end; the new one ends a line.
		"oldStopsAtLineEnd": {file: "x\n\n        pass\n", old: "\n        pass", new: "\n", format: edit.FormatJSON,
			want: "x\n\n\n", strategy: edit.StrategyExact},
		"newEndsALine": {file: "a\nb\nc\n", old: "a\nb", new: "a\nB\n", format: edit.FormatJSON,
			want: "a\nB\n\nc\n", strategy: edit.StrategyExact},
		// The old text takes a line's newline; the new one does not.
		"newLacksTheNewline": {file: "a\nb\nc\n", old: "b\n", new: "B", format: edit.FormatJSON,
			want: "a\nBc\n", strategy: edit.StrategyExact},
		"crlfFile": {file: "a\r\nb\r\nc\r\n", old: "a\r\nb", new: "a\r\nB\r\n", format: edit.FormatJSON,
			want: "a\r\nB\r\n\r\nc\r\n", strategy: edit.StrategyExact},
		// The same texts in a SEARCH/REPLACE block mean whole lines.
		"blockWholeLines": {file: "a\nb\nc\n", old: "a\nb", new: "a\nB\n", format: edit.FormatSearchReplace,
			want: "a\nB\nc\n"},
	} {
		runLocate(t, name, c)
	}
}
