package syntax

import (
	"path"
	"strings"
)

// File paths as models write them: on a line of their own above a block,
// in a fence's info string, in a diff's or an envelope's header.

// PathLineAt is PathLine, and also accepts a line that is one backticked
// path holding spaces ("`my docs/read me.py`"), a bare name that the tree
// holds ("gradlew": inTree, if not nil, reports whether the working tree
// has an entry of that name), and, with prose, a line of prose that introduces what
// follows (it ends in a colon or in the path) and names one backticked
// path ("In `a.py`:", "Edit `a.py` as follows:", "**File: `a.py`**").
func PathLineAt(s string, prose bool, inTree func(name string) bool) (string, bool) {
	if pth, ok := PathLine(s); ok {
		return pth, true
	}
	if _, ok := ParseFence(s); ok {
		return "", false
	}
	t := strings.TrimSpace(s)
	if c, ok := CleanPath(t); ok && NameChars(c) && inTree != nil && inTree(c) {
		return c, true
	}
	if c, ok := CleanDelimitedPath(t); ok && strings.Contains(c, " ") && len(c) <= 160 &&
		NameChars(strings.ReplaceAll(c, " ", "")) && looksLikeFile(c) && inTree != nil && inTree(c) {
		return c, true // "my docs/read me.py", which the tree holds
	}
	if strings.Count(t, "`") != 2 || len(t) > 160 {
		return "", false
	}
	a := strings.IndexByte(t, '`')
	b := a + 1 + strings.IndexByte(t[a+1:], '`')
	tok := t[a+1 : b]
	whole := strings.Trim(t[:a], "*#-:> \t") == "" && strings.Trim(t[b+1:], "*: \t") == ""
	// Prose introduces the block that follows: it ends in a colon, or
	// the path ends it ("**File: `a.py`**").
	intro := strings.HasSuffix(strings.TrimRight(t, "*_ \t"), ":") || strings.Trim(t[b+1:], "*_.: \t") == ""
	if !whole && !(prose && intro) {
		return "", false
	}
	if tok != strings.TrimSpace(tok) || strings.Contains(tok, "  ") {
		return "", false
	}
	if strings.ContainsAny(tok, " ") {
		if !whole {
			return "", false
		}
		if c, ok := CleanDelimitedPath(tok); ok && (looksLikeFile(c) || inTree != nil && inTree(c)) && !strings.ContainsAny(c, "\t{};=,!?$&()") {
			return TidyPath(c), true
		}
		return "", false
	}
	if c, ok := FilePath(tok); ok {
		return c, true
	}
	if c, ok := CleanPath(tok); ok && NameChars(c) && inTree != nil && inTree(c) {
		return c, true
	}
	return "", false
}

// NameChars reports whether s holds only the characters of a plain file
// name or path: letters, digits and "._-+@/".
func NameChars(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+@/", r)) {
			return false
		}
	}
	return s != ""
}

// PathLine reports whether a whole line names a file, as models write one
// above a block: "src/a.go", "./a.go", "`a.go`", "**a.go**", "a.go:",
// "### a.go", "- a.go", "1. a.go", "File: a.go", "a.go (new file)". Prose never qualifies: a path has no
// spaces and looks like a file (see looksLikeFile).
func PathLine(s string) (string, bool) {
	if _, ok := ParseFence(s); ok {
		return "", false // a fence's info string is read by Fence.InfoPath
	}
	s = strings.TrimSpace(s)
	if t := strings.TrimLeft(s, "#"); t != s && strings.HasPrefix(t, " ") {
		s = strings.TrimSpace(t)
	}
	if strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") {
		s = strings.TrimSpace(s[2:])
	} else if k := strings.Index(s, ". "); k > 0 && k <= 3 && strings.Trim(s[:k], "0123456789") == "" {
		s = strings.TrimSpace(s[k+2:]) // "1. src/a.go"
	}
	if k := strings.LastIndex(s, " ("); k > 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[:k]) // "src/a.go (new file)"
	}
	for _, pre := range pathLabels {
		if len(s) > len(pre) && strings.EqualFold(s[:len(pre)], pre) {
			s = strings.TrimSpace(s[len(pre):])
			break
		}
	}
	return FilePath(s)
}

// pathLabels are the labels that may come before a path on its line, in
// the order PathLine tries them.
var pathLabels = []string{
	"file:", "**file:**", "**file**:", "*file:*",
	"filename:", "**filename:**", "**filename**:", "*filename:*",
	"path:", "**path:**", "**path**:", "*path:*",
	"file path:", "**file path:**", "**file path**:", "*file path:*",
}

// FilePath cleans a candidate path token and accepts it only when it looks
// like a file.
func FilePath(s string) (string, bool) {
	explicit := strings.HasPrefix(strings.Trim(s, "`*\"'"), "./")
	c, ok := CleanPath(s)
	if !ok || !(explicit || looksLikeFile(c)) || strings.Contains(c, "://") {
		return "", false
	}
	return TidyPath(c), true
}

// isExtensionless reports whether name is one of the usual files that
// have no extension, so that a line holding only "Makefile" counts as a
// path.
func isExtensionless(name string) bool {
	switch name {
	case "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile",
		"Jenkinsfile", "Procfile", "Gemfile", "Rakefile", "Vagrantfile",
		"Justfile", "justfile", "Brewfile", "Pipfile", "LICENSE", "README",
		"CODEOWNERS", "AUTHORS", "CONTRIBUTORS", "PATENTS", "VERSION", "BUILD",
		"WORKSPACE", "OWNERS", "NOTICE", "CHANGELOG", "gradlew", "mvnw",
		"Caddyfile", "Tiltfile", "Snakefile", "Earthfile", "Podfile", "Fastfile",
		"Appfile", "Dangerfile", "Guardfile", "Capfile", "Berksfile",
		"Puppetfile", "Cartfile", "Kptfile", "Taskfile":
		return true
	}
	return false
}

// looksLikeFile reports whether a cleaned, space-free token names a file
// rather than a word of prose ("Done.", "Next:", "e.g.", "f()"): it has a
// directory, an extension holding a letter, is a dot file, or is a common
// extensionless name.
func looksLikeFile(s string) bool {
	if strings.ContainsAny(s, "{};=,!?$&") {
		return false
	}
	base := s[strings.LastIndexByte(s, '/')+1:]
	if strings.ContainsAny(s, "()") && !strings.Contains(s, "/") {
		return false // a call, "f()", not a Next.js "(group)/page.tsx"
	}
	if isExtensionless(base) {
		return true
	}
	dot := strings.LastIndexByte(base, '.')
	if dot >= 0 && dot < len(base)-1 {
		ext := base[dot+1:]
		letter := false
		for _, r := range ext {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
				letter = true
			case r >= '0' && r <= '9', r == '_', r == '-', r == '+', r == '~':
			default:
				return false
			}
		}
		if letter {
			return true
		}
	}
	return strings.Contains(s, "/") && base != "" && !strings.HasSuffix(base, ".")
}

// CleanPath strips the decoration models put around a file path — backticks,
// quotes, bold markers, a trailing colon, a leading "./" — and reports
// whether what is left could be a path. It does not judge safety: a path
// that leaves the root is kept as written for the applier to refuse.
func CleanPath(s string) (string, bool) {
	s, ok := CleanDelimitedPath(s)
	if !ok || strings.ContainsAny(s, " \t") {
		// On a line of its own a path with a blank is indistinguishable from prose.
		return "", false
	}
	return s, true
}

// CleanDelimitedPath is CleanPath for formats that delimit the path (a JSON
// string, a diff or envelope header), where inner spaces are part of it.
func CleanDelimitedPath(s string) (string, bool) {
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

// TidyPath drops the "a/./b" and "a//b" noise from a relative path. A path
// that leaves the root (absolute, or holding "..") is kept as written, so
// that the applier can refuse it by name.
func TidyPath(s string) string {
	if strings.HasPrefix(s, "/") || strings.Contains(s, "..") {
		return s
	}
	return path.Clean(s)
}
