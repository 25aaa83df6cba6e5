package apply

import "strings"

// Elision placeholders are lines a model writes instead of code it did not
// want to repeat: "...", "// ... existing code ...", "# rest of the file
// unchanged", "/* ... */", "<!-- ... -->". Only a whole line can be one;
// "...args" (spread), "args..." (variadic) and "x[..., 0]" are code. A bare
// "..." is Python's Ellipsis, not a placeholder, where it is a block's body
// (after a line ending in ":" or a docstring).

// commentOpeners and commentClosers frame a placeholder comment.
var (
	commentOpeners = []string{"{/*", "<!--", "/*", "//", "--", "#", ";", "%", "*"}
	commentClosers = []string{"*/}", "-->", "*/"}
)

// placeholderWords mark a short comment that opens or closes with "..."
// as a placeholder.
var placeholderWords = []string{
	"existing", "unchanged", "rest of", "remaining", "remains", "remainder",
	"omitted", "elided", "snip", "same as", "as before", "other code",
	"more code", "code here", "truncated", "skipped", "no changes", "not changed",
	"other methods", "other functions", "other fields", "other cases",
}

// isPlaceholder reports whether lines[i] is an elision placeholder.
func isPlaceholder(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if t == "" || len(t) > 120 {
		return false
	}
	if onlyDots(t) {
		if t != "..." && t != "…" {
			return true // ". . ." and longer runs are no code
		}
		// Python's Ellipsis as a block's body is code.
		for j := i - 1; j >= 0; j-- {
			p := strings.TrimSpace(lines[j])
			if p == "" {
				continue
			}
			return !(strings.HasSuffix(p, ":") || strings.HasSuffix(p, `"""`) || strings.HasSuffix(p, "'''"))
		}
		return true
	}
	u, ok := commentText(t)
	if !ok {
		return false
	}
	if u == "" {
		return false
	}
	if onlyDots(u) {
		return true
	}
	lu := strings.ToLower(u)
	if strings.Contains(u, "...") || strings.Contains(u, "…") {
		lead := strings.HasPrefix(u, "...") || strings.HasPrefix(u, "…")
		trail := strings.HasSuffix(u, "...") || strings.HasSuffix(u, "…")
		if !lead && !trail || len(strings.Fields(u)) > 8 {
			return false
		}
		for _, w := range placeholderWords {
			if strings.Contains(lu, w) {
				return true
			}
		}
		return false
	}
	// Without dots only a short, unmistakable phrase counts.
	if len(strings.Fields(lu)) > 8 {
		return false
	}
	lu = strings.Trim(lu, "()[]{}<>:.!-– ")
	switch {
	case strings.HasPrefix(lu, "rest of"), strings.HasPrefix(lu, "remainder of"),
		strings.HasPrefix(lu, "existing code"), strings.HasPrefix(lu, "other code"),
		strings.HasPrefix(lu, "remaining code"), strings.HasPrefix(lu, "code omitted"),
		strings.HasPrefix(lu, "omitted"), strings.HasPrefix(lu, "unchanged"):
		return true
	case strings.HasSuffix(lu, "unchanged") || strings.HasSuffix(lu, "remains the same") ||
		strings.HasSuffix(lu, "stays the same") || strings.HasSuffix(lu, "omitted for brevity") ||
		strings.HasSuffix(lu, "as before"):
		return true
	}
	return false
}

// commentText returns the text of a whole-line comment, without its
// markers and surrounding blanks, brackets and dots kept.
func commentText(t string) (string, bool) {
	opened := false
	for _, o := range commentOpeners {
		if strings.HasPrefix(t, o) {
			t, opened = t[len(o):], true
			break
		}
	}
	if !opened {
		return "", false
	}
	for _, c := range commentClosers {
		if strings.HasSuffix(t, c) {
			t = t[:len(t)-len(c)]
			break
		}
	}
	t = strings.TrimSpace(t)
	t = strings.TrimSpace(strings.Trim(t, "()[]{}"))
	return t, true
}

func onlyDots(s string) bool {
	s = strings.ReplaceAll(s, "…", "...")
	s = strings.ReplaceAll(s, " ", "")
	return len(s) >= 3 && strings.Trim(s, ".") == ""
}

// lineSet is the set of a text's lines, trimmed, for judging placeholders
// against the original.
func lineSet(s string) map[string]bool {
	set := make(map[string]bool)
	for l := range strings.SplitSeq(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		set[strings.TrimSpace(l)] = true
	}
	return set
}

// elidedRewrite reports whether rewritten, a whole-file rewrite of original,
// stands in for code of original with a placeholder such as
// "// ... existing code ..."; line is the placeholder's 1-based line in
// rewritten. A placeholder line that original already has is code.
func elidedRewrite(original, rewritten string) (line int, elided bool) {
	p := newPattern(rewritten)
	if p.phs == 0 {
		return 0, false
	}
	orig := lineSet(original)
	for i, l := range p.lines {
		if p.ph[i] && !orig[strings.TrimSpace(l)] {
			return i + 1, true
		}
	}
	return 0, false
}

// elidedReplacement reports whether a Replace's new text drops code with a
// placeholder that its old text does not have at the same place (the same
// placeholder at the corresponding place in both is the elision level's
// business); line is the placeholder's 1-based line in new.
func elidedReplacement(old, new string) (line int, elided bool) {
	return elidedIn(newPattern(old), newPattern(new), func(string) bool { return false })
}

// elidedIn is elidedReplacement on patterns; a placeholder line for which
// has reports true (the file has it) is code.
func elidedIn(op, np *pattern, has func(trimmed string) bool) (int, bool) {
	if np.phs == 0 {
		return 0, false
	}
	pairs := pairLines(op, np, false)
	for j, l := range np.lines {
		if !np.ph[j] || (pairs[j] >= 0 && op.gap[pairs[j]]) {
			continue
		}
		if has(strings.TrimSpace(l)) {
			continue
		}
		return j + 1, true
	}
	return 0, false
}
