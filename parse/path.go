package parse

import (
	"path"
	"strings"
)

// cleanPath strips the decoration models put around a file path — backticks,
// quotes, bold markers, a trailing colon, a leading "./" — and reports
// whether what is left could be a path. It does not judge safety: a path
// that leaves the root is kept as written for the applier to refuse.
func cleanPath(s string) (string, bool) {
	s, ok := cleanDelimitedPath(s)
	if !ok || strings.ContainsAny(s, " \t") {
		// On a line of its own a path with a blank is indistinguishable from prose.
		return "", false
	}
	return s, true
}

// cleanDelimitedPath is cleanPath for formats that delimit the path (a JSON
// string, a diff or envelope header), where inner spaces are part of it.
func cleanDelimitedPath(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for {
		t := strings.TrimSpace(s)
		t = strings.TrimSuffix(t, ":")
		t = strings.TrimPrefix(strings.TrimSuffix(t, "**"), "**")
		t = strings.TrimPrefix(strings.TrimSuffix(t, "`"), "`")
		if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
			t = t[1 : len(t)-1]
		}
		if t == s {
			break
		}
		s = t
	}
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	if s != strings.TrimSpace(s) {
		return "", false // "./ x": a name that begins or ends with a blank is not one a model means
	}
	if s == "" || s == "." || strings.ContainsAny(s, "\x00`*<>|\"\n\r") || strings.HasSuffix(s, "/") {
		return "", false
	}
	return s, true
}

// tidyPath drops the "a/./b" and "a//b" noise from a relative path. A path
// that leaves the root (absolute, or holding "..") is kept as written, so
// that the applier can refuse it by name.
func tidyPath(s string) string {
	if strings.HasPrefix(s, "/") || strings.Contains(s, "..") {
		return s
	}
	return path.Clean(s)
}
