package syntax

import "strings"

// Cline's and Roo Code's XML tool calls.

// IsXMLTool reports whether name is a tool read; the others are refused
// rather than dropped.
func IsXMLTool(name string) bool {
	switch name {
	case "write_to_file", "insert_content", "search_and_replace":
		return true
	}
	return false
}

// XMLToolOpen reports whether s opens a tool call IsXMLTool accepts
// ("<write_to_file>", alone or followed by a one-line parameter), and
// returns the tool's name and the rest of the line.
func XMLToolOpen(s string) (name, rest string, ok bool) {
	t := strings.TrimSpace(s)
	if len(t) < 3 || t[0] != '<' {
		return "", "", false
	}
	name, rest, ok = XMLOpenTag(t)
	if !ok || !IsXMLTool(name) {
		return "", "", false
	}
	return name, strings.TrimSpace(rest), true
}

// XMLOpenTag splits t, which starts with an opening tag of lowercase
// letters and '_' ("<line_count>"), into the tag's name and what follows it.
func XMLOpenTag(t string) (name, rest string, ok bool) {
	if len(t) < 3 || t[0] != '<' {
		return "", "", false
	}
	end := strings.IndexByte(t, '>')
	if end < 2 {
		return "", "", false
	}
	for _, c := range t[1:end] {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return "", "", false
		}
	}
	return t[1:end], t[end+1:], true
}
