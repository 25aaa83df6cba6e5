package locate

import (
	"strings"

	"github.com/edapply/edapply/edit"
)

// The ladder words its errors for SEARCH/REPLACE blocks; an edit written in
// another format is told in that format's words, so a model that sent a
// tool call reads about old_string, and one that sent a diff about its
// hunk, context and - lines.
var (
	toolCallWords = strings.NewReplacer(
		"No line of the SEARCH text", "No line of old_string",
		"the SEARCH text", "old_string",
		"The SEARCH text", "old_string",
		"SEARCH text", "old_string",
		"an empty SEARCH section", "an empty old_string",
		"an empty SEARCH", "an empty old_string",
		"the SEARCH's", "old_string's",
		"the SEARCH", "old_string",
		"SEARCH line", "old_string line",
		"REPLACE text", "new_string",
	)
	hunkWords = strings.NewReplacer(
		"Add neighbouring lines to the SEARCH text", "Add context lines to the hunk",
		"No line of the SEARCH text", "No context or - line of the hunk",
		"the SEARCH text", "the hunk's context and - lines",
		"The SEARCH text", "The hunk's context and - lines",
		"SEARCH text", "hunk's context and - lines",
		"an empty SEARCH section", "a hunk of only + lines",
		"the SEARCH's", "the hunk's",
		"the SEARCH", "the hunk",
		"SEARCH line", "hunk line",
		"REPLACE text", "hunk's + lines",
	)
)

// InFormatWords rewords err for the format e was written in, and tells a
// tool call whose old_string stands in several places about replace_all.
func InFormatWords(err *edit.Error, e *edit.Edit) {
	var r *strings.Replacer
	switch e.Format {
	case "json":
		r = toolCallWords
		if err.Code == edit.CodeMultipleMatches && e.Count == 1 && !strings.Contains(err.Hint, "replace_all") {
			err.Hint += ` To change every occurrence, set "replace_all": true.`
		}
	case "udiff", "codex":
		r = hunkWords
	default:
		return
	}
	err.Msg, err.Hint = r.Replace(err.Msg), r.Replace(err.Hint)
}
